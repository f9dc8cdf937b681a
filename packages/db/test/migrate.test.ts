import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { migrate, MigrationError, openDatabase, type Database } from "../src";
import { createTestDatabase } from "../src/testing";

function migrationsFolder(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "migrations-"));
  for (const [name, sql] of Object.entries(files)) {
    fs.mkdirSync(path.join(dir, name));
    fs.writeFileSync(path.join(dir, name, "migration.sql"), sql);
  }
  return dir;
}

const emptyMigrations = migrationsFolder({});

describe("migration runner", () => {
  let db: Database;
  beforeEach(async () => {
    db = await createTestDatabase(emptyMigrations);
  });
  afterEach(async () => {
    await db.close();
  });

  const folder = () =>
    migrationsFolder({
      "20260101000000_init": 'CREATE TABLE "widget" ("id" TEXT PRIMARY KEY, "price" NUMERIC(20,10) NOT NULL);',
      "20260102000000_add_name": 'ALTER TABLE "widget" ADD COLUMN "name" TEXT;',
    });

  it("applies a folder once and is a no-op the second time", async () => {
    const dir = folder();
    expect((await migrate(db.sql, dir)).applied).toEqual(["20260101000000_init", "20260102000000_add_name"]);
    expect((await migrate(db.sql, dir)).applied).toEqual([]);
    await db.sql.query(`INSERT INTO widget (id, price, name) VALUES ('a', 0.15, 'x')`);
    const rows = await db.sql.query<{ price: string }>("SELECT price::text AS price FROM widget");
    expect(rows[0].price).toBe("0.1500000000");
  });

  it("records rows in Prisma's _prisma_migrations format", async () => {
    const dir = folder();
    await migrate(db.sql, dir);
    const rows = await db.sql.query<Record<string, unknown>>(
      `SELECT id, checksum, finished_at, migration_name, logs, rolled_back_at, started_at, applied_steps_count
       FROM "_prisma_migrations" ORDER BY migration_name`,
    );
    expect(rows).toHaveLength(2);
    const sha = require("node:crypto").createHash("sha256");
    const expected = sha.update(fs.readFileSync(path.join(dir, "20260101000000_init", "migration.sql"))).digest("hex");
    expect(rows[0]).toMatchObject({
      checksum: expected,
      migration_name: "20260101000000_init",
      logs: null,
      rolled_back_at: null,
      applied_steps_count: 1,
    });
    expect(rows[0].id).toMatch(/^[0-9a-f-]{36}$/);
    expect(rows[0].finished_at).toBeInstanceOf(Date);
    expect(rows[0].started_at).toBeInstanceOf(Date);
    const columns = await db.sql.query<{ column_name: string; data_type: string; character_maximum_length: number | null }>(
      `SELECT column_name, data_type, character_maximum_length FROM information_schema.columns
       WHERE table_name = '_prisma_migrations' ORDER BY ordinal_position`,
    );
    expect(columns.map((c) => [c.column_name, c.data_type, c.character_maximum_length])).toEqual([
      ["id", "character varying", 36],
      ["checksum", "character varying", 64],
      ["finished_at", "timestamp with time zone", null],
      ["migration_name", "character varying", 255],
      ["logs", "text", null],
      ["rolled_back_at", "timestamp with time zone", null],
      ["started_at", "timestamp with time zone", null],
      ["applied_steps_count", "integer", null],
    ]);
  });

  it("refuses a migration whose file changed after it was applied", async () => {
    const dir = folder();
    await migrate(db.sql, dir);
    fs.appendFileSync(path.join(dir, "20260101000000_init", "migration.sql"), "\n-- edited");
    await expect(migrate(db.sql, dir)).rejects.toThrow(/20260101000000_init was changed after it was applied/);
  });

  it("rolls a failing migration back completely and applies it once fixed", async () => {
    const dir = migrationsFolder({
      "20260101000000_broken": 'CREATE TABLE "gadget" ("id" TEXT PRIMARY KEY); SELECT no_such_function();',
    });
    await expect(migrate(db.sql, dir)).rejects.toBeInstanceOf(MigrationError);
    const tables = await db.sql.query(`SELECT 1 FROM information_schema.tables WHERE table_name = 'gadget'`);
    expect(tables).toHaveLength(0);
    expect(await db.sql.query(`SELECT 1 FROM "_prisma_migrations"`)).toHaveLength(0);
    fs.writeFileSync(path.join(dir, "20260101000000_broken", "migration.sql"), 'CREATE TABLE "gadget" ("id" TEXT PRIMARY KEY);');
    expect((await migrate(db.sql, dir)).applied).toEqual(["20260101000000_broken"]);
  });

  it("applies each migration exactly once when two runners start at once", async () => {
    const dir = folder();
    // On PostgreSQL each runner gets its own connection pool, as two service replicas would.
    const other = process.env.TEST_DATABASE_URL ? await reopen(db) : db;
    try {
      const results = await Promise.all([migrate(db.sql, dir), migrate(other.sql, dir)]);
      expect(results.flatMap((r) => r.applied).sort()).toEqual(["20260101000000_init", "20260102000000_add_name"]);
      const rows = await db.sql.query(`SELECT 1 FROM "_prisma_migrations"`);
      expect(rows).toHaveLength(2);
    } finally {
      if (other !== db) await other.close();
    }
  });
});

async function reopen(db: Database): Promise<Database> {
  const [{ name }] = await db.sql.query<{ name: string }>("SELECT current_database() AS name");
  const url = new URL(process.env.TEST_DATABASE_URL!);
  url.pathname = `/${name}`;
  return openDatabase({ url: url.toString(), poolSize: 1 });
}
