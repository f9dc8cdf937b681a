// A fresh, migrated main-API database on the PostgreSQL server of BENCH_DATABASE_URL, dropped after
// the run (kept with BENCH_KEEP=1, to look at its plans); without that URL, PGlite in a temp dir.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Client } from "pg";
import pino from "pino";
import { openMigratedDatabase, type Database } from "@cloudcost/db";
import { MIGRATIONS_DIR, SESSION_SETTINGS } from "../apps/main-api/src/db";

export async function openBenchDatabase(serverUrl: string, label: string, poolSize = 4): Promise<{ db: Database; drop: () => Promise<void> }> {
  const name = `cloudcost_bench_${label}_${Date.now().toString(36)}`;
  const admin = async (sql: string) => {
    const client = new Client({ connectionString: serverUrl });
    await client.connect();
    await client.query(sql).finally(() => client.end());
  };
  await admin(`CREATE DATABASE "${name}"`);
  const db = await openNamed(serverUrl, name, poolSize);
  return { db, drop: async () => (process.env.BENCH_KEEP ? undefined : admin(`DROP DATABASE "${name}" WITH (FORCE)`)) };
}

/** Database `name` on the server of `serverUrl`, migrated. */
function openNamed(serverUrl: string, name: string, poolSize: number): Promise<Database> {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return openMigratedDatabase({
    url: url.toString(),
    dataDir: "",
    migrationsDir: MIGRATIONS_DIR,
    logger: pino({ level: "warn" }),
    poolSize,
    sessionSettings: SESSION_SETTINGS,
  });
}

/** A database an earlier run kept (BENCH_KEEP=1), as it is: never dropped. */
export async function openKeptDatabase(serverUrl: string, name: string, poolSize = 10): Promise<{ db: Database; drop: () => Promise<void> }> {
  return { db: await openNamed(serverUrl, name, poolSize), drop: async () => undefined };
}

/** The benchmark's database: on BENCH_DATABASE_URL's server when it is set, else PGlite in a temp dir (removed after). */
export async function openBenchOrLocalDatabase(
  label: string,
  poolSize = 10,
): Promise<{ db: Database; drop: () => Promise<void>; kind: "postgres" | "pglite" }> {
  const serverUrl = process.env.BENCH_DATABASE_URL;
  if (!serverUrl) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cloudcost-bench-"));
    const db = await openMigratedDatabase({ dataDir, migrationsDir: MIGRATIONS_DIR, logger: pino({ level: "warn" }), sessionSettings: SESSION_SETTINGS });
    return { db, kind: "pglite", drop: async () => fs.rmSync(dataDir, { recursive: true, force: true }) };
  }
  const { db, drop } = await openBenchDatabase(serverUrl, label, poolSize);
  return { db, kind: "postgres", drop };
}
