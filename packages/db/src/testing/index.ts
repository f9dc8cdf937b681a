import { execFile } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { Client } from "pg";
import { openDatabase, type Database, type SessionSettings } from "../database";
import { migrate, readMigrations } from "../migrate";
import { openPglite, pgliteSqlClient } from "../pglite";

export { findDistributionProblems, type TableDistribution } from "./distribution";
export { compareStatementColumns, type ComparedColumn } from "./row-types";

/**
 * A fresh, migrated database per test file: restored from a PGlite template by default, or a new
 * database on the server named by TEST_DATABASE_URL (created from a migrated template database and
 * dropped by `close()`). Templates are keyed by a hash of the migrations, so they never go stale.
 */
export async function createTestDatabase(migrationsDir: string, sessionSettings?: SessionSettings): Promise<TestDatabase> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  return serverUrl ? createServerDatabase(serverUrl, migrationsDir, sessionSettings) : createPgliteDatabase(migrationsDir, sessionSettings);
}

export interface TestDatabase extends Database {
  /**
   * Another process's view of this database, for a second app instance (a replica): on PostgreSQL
   * a pool and listener of its own, on PGlite (one connection per data directory) this same
   * database, whose close is then left to the original.
   */
  reopen(): Promise<Database>;
}

/** Builds the template once (Jest globalSetup); createTestDatabase also builds it when missing. */
export async function prepareTestTemplate(migrationsDir: string): Promise<void> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (serverUrl) await ensureServerTemplate(serverUrl, migrationsDir);
  else await ensurePgliteTemplate(migrationsDir);
}

function migrationsHash(migrationsDir: string): string {
  const hash = createHash("sha256");
  for (const m of readMigrations(migrationsDir)) hash.update(m.name).update(m.checksum);
  return hash.digest("hex").slice(0, 16);
}

// Templates are file-backed data directories copied per test file: PGlite's tarball restore
// (loadDataDir) silently starts an empty database inside Jest's module sandbox.
async function ensurePgliteTemplate(migrationsDir: string): Promise<string> {
  const dir = path.join(os.tmpdir(), `cloudcost-pglite-template-${migrationsHash(migrationsDir)}`);
  if (fs.existsSync(path.join(dir, "PG_VERSION"))) return dir;
  const empty = await ensureEmptyPgliteCluster();
  return buildOnce(dir, async (building) => {
    fs.cpSync(empty, building, { recursive: true });
    const pglite = await openPglite(building);
    await migrate(pgliteSqlClient(pglite), migrationsDir);
    await pglite.close();
  });
}

/**
 * An initialised, empty PGlite cluster to copy: initdb takes seconds on a data directory (6.6 s
 * measured), a copy milliseconds, and every migrations set (the partial ones of the migration tests
 * too) starts from it. Keyed by the PGlite build in use.
 */
export async function ensureEmptyPgliteCluster(): Promise<string> {
  const build = createHash("sha256").update(require.resolve("@electric-sql/pglite")).digest("hex").slice(0, 16);
  const dir = path.join(os.tmpdir(), `cloudcost-pglite-empty-${build}`);
  if (fs.existsSync(path.join(dir, "PG_VERSION"))) return dir;
  return buildOnce(dir, async (building) => {
    const pglite = await openPglite(building);
    await pglite.close();
  });
}

/** Builds `dir` in a directory of its own and renames it into place; a concurrent builder that finished first wins. */
async function buildOnce(dir: string, build: (building: string) => Promise<void>): Promise<string> {
  const building = `${dir}.${process.pid}.${randomBytes(4).toString("hex")}`;
  try {
    await build(building);
    fs.renameSync(building, dir);
  } catch (err) {
    fs.rmSync(building, { recursive: true, force: true });
    if (!fs.existsSync(path.join(dir, "PG_VERSION"))) throw err;
  }
  return dir;
}

async function createPgliteDatabase(migrationsDir: string, sessionSettings?: SessionSettings): Promise<TestDatabase> {
  const template = await ensurePgliteTemplate(migrationsDir);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cloudcost-test-db-"));
  fs.cpSync(template, dir, { recursive: true });
  const db = await openDatabase({ pglite: await openPglite(dir), sessionSettings });
  return {
    ...db,
    description: `test database at ${dir}`,
    reopen: async () => ({ ...db, close: async () => undefined }),
    async close() {
      await db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

async function admin<T>(serverUrl: string, fn: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: serverUrl });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

async function ensureServerTemplate(serverUrl: string, migrationsDir: string): Promise<string> {
  const name = `cloudcost_tpl_${migrationsHash(migrationsDir)}`;
  await admin(serverUrl, async (client) => {
    // Serialise template creation across Jest workers and test runs.
    await client.query("SELECT pg_advisory_lock(hashtext($1))", [name]);
    try {
      const exists = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
      if (exists.rowCount) return;
      const building = `${name}_build`;
      await client.query(`DROP DATABASE IF EXISTS "${building}" WITH (FORCE)`);
      await client.query(`CREATE DATABASE "${building}"`);
      const db = await openDatabase({ url: withDatabase(serverUrl, building), poolSize: 1 });
      try {
        await migrate(db.sql, migrationsDir);
      } finally {
        await db.close();
      }
      await client.query(`ALTER DATABASE "${building}" RENAME TO "${name}"`);
    } finally {
      await client.query("SELECT pg_advisory_unlock(hashtext($1))", [name]);
    }
  });
  return name;
}

async function createServerDatabase(serverUrl: string, migrationsDir: string, sessionSettings?: SessionSettings): Promise<TestDatabase> {
  const template = await ensureServerTemplate(serverUrl, migrationsDir);
  const name = `cloudcost_test_${Date.now().toString(36)}_${randomBytes(4).toString("hex")}`;
  await admin(serverUrl, async (client) => {
    await client.query("SELECT pg_advisory_lock(hashtext($1))", [template]);
    try {
      await client.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`);
    } finally {
      await client.query("SELECT pg_advisory_unlock(hashtext($1))", [template]);
    }
  });
  const url = withDatabase(serverUrl, name);
  const db = await openDatabase({ url, poolSize: 5, sessionSettings });
  return {
    ...db,
    description: `test database ${name}`,
    reopen: () => openDatabase({ url, poolSize: 5, sessionSettings }),
    async close() {
      await db.close();
      await admin(serverUrl, (client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    },
  };
}

/**
 * What `db-diff --check` prints for an app (its prisma/schema.prisma against its migrations):
 * "Migrations and schema agree" when they do, the missing SQL otherwise.
 */
export async function schemaDiffCheck(appDir: string): Promise<string> {
  const script = path.resolve(__dirname, "../../bin/db-diff.mjs");
  const args = [script, "--schema", "prisma/schema.prisma", "--migrations", "prisma/migrations", "--check"];
  const result = await promisify(execFile)(process.execPath, args, { cwd: appDir }).catch((err: { stdout?: string; stderr?: string }) => err);
  return `${result.stdout ?? ""}${result.stderr ?? ""}`;
}
