import type { PGlite } from "@electric-sql/pglite";
import { PrismaPg } from "@prisma/adapter-pg";
import { Pool } from "pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { lockDataDir } from "./datadir-lock";
import { openPglite, pgliteSqlClient } from "./pglite";
import { postgresSqlClient, redactUrl } from "./postgres";
import type { SqlClient } from "./sql-client";

export type DriverAdapterFactory = PrismaPg | PrismaPGlite;

export interface Database {
  kind: "postgres" | "pglite";
  /** Pass to the generated PrismaClient: `new PrismaClient({ adapter: db.adapter })`. */
  adapter: DriverAdapterFactory;
  sql: SqlClient;
  description: string;
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  /** A PostgreSQL URL; without one the embedded PGlite under `dataDir` is used. */
  url?: string;
  dataDir?: string;
  /** An already open PGlite (tests restore one from a template). */
  pglite?: PGlite;
  poolSize?: number;
}

export async function openDatabase(options: OpenDatabaseOptions): Promise<Database> {
  if (options.url) {
    const pool = new Pool({ connectionString: options.url, max: options.poolSize ?? 10 });
    // An idle client losing its server (a restart) must not crash the process.
    pool.on("error", () => undefined);
    return {
      kind: "postgres",
      adapter: new PrismaPg(pool),
      sql: postgresSqlClient(pool),
      description: `PostgreSQL at ${redactUrl(options.url)}`,
      close: () => pool.end(),
    };
  }
  if (options.pglite) return wrapPglite(options.pglite, "embedded PGlite (in memory)", async () => undefined);
  if (!options.dataDir) throw new Error("openDatabase needs either a url or a dataDir");
  const release = lockDataDir(options.dataDir);
  try {
    const pglite = await openPglite(options.dataDir);
    return wrapPglite(pglite, `embedded PGlite at ${options.dataDir}`, async () => release());
  } catch (err) {
    release();
    throw err;
  }
}

function wrapPglite(pglite: PGlite, description: string, afterClose: () => Promise<void>): Database {
  return {
    kind: "pglite",
    adapter: new PrismaPGlite(pglite),
    sql: pgliteSqlClient(pglite),
    description,
    async close() {
      if (!pglite.closed) await pglite.close();
      await afterClose();
    },
  };
}
