import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { isForeignKeyViolation, isSerializationFailure, isUniqueViolation } from "../src";
import { createTestDatabase } from "../src/testing";
import type { Database } from "../src";

const migrations = fs.mkdtempSync(path.join(os.tmpdir(), "migrations-"));
fs.mkdirSync(path.join(migrations, "20260101000000_parents_children"));
fs.writeFileSync(
  path.join(migrations, "20260101000000_parents_children", "migration.sql"),
  `CREATE TABLE parents (id TEXT PRIMARY KEY);
   CREATE TABLE children (id TEXT PRIMARY KEY, parent_id TEXT NOT NULL REFERENCES parents (id));
   INSERT INTO parents (id) VALUES ('p1');`,
);

const caught = async (work: () => Promise<unknown>): Promise<unknown> => {
  try {
    await work();
  } catch (err) {
    return err;
  }
  throw new Error("the statement did not fail");
};

// Runs on PGlite by default and on the server under TEST_DATABASE_URL (CI runs both). Prisma's
// errors wrap the adapter's (P2010 with meta.driverAdapterError, or P2002): the apps' tests see those.
describe("database error detection", () => {
  let db: Database;
  beforeAll(async () => {
    db = await createTestDatabase(migrations);
  });
  afterAll(async () => {
    await db?.close();
  });

  it("recognises violations reported by the driver", async () => {
    const unique = await caught(() => db.sql.query("INSERT INTO parents (id) VALUES ('p1')"));
    const foreignKey = await caught(() => db.sql.query("INSERT INTO children (id, parent_id) VALUES ('c1', 'nope')"));
    expect([isUniqueViolation(unique), isForeignKeyViolation(unique), isSerializationFailure(unique)]).toEqual([true, false, false]);
    expect([isUniqueViolation(foreignKey), isForeignKeyViolation(foreignKey)]).toEqual([false, true]);
  });

  it("recognises violations reported by the driver adapter Prisma runs on", async () => {
    const adapter = await db.adapter.connect();
    try {
      const run = (sql: string) => adapter.executeRaw({ sql, args: [], argTypes: [] });
      const unique = await caught(() => run("INSERT INTO parents (id) VALUES ('p1')"));
      const foreignKey = await caught(() => run("INSERT INTO children (id, parent_id) VALUES ('c1', 'nope')"));
      expect([isUniqueViolation(unique), isForeignKeyViolation(unique)]).toEqual([true, false]);
      expect([isUniqueViolation(foreignKey), isForeignKeyViolation(foreignKey)]).toEqual([false, true]);
      // Wrapped as Prisma wraps a raw query's failure.
      expect(isUniqueViolation({ code: "P2010", meta: { driverAdapterError: unique } })).toBe(true);
    } finally {
      await adapter.dispose();
    }
  });

  it("does not mistake other failures or a message that names a code", async () => {
    const syntax = await caught(() => db.sql.query("SELEC 1"));
    expect([isUniqueViolation(syntax), isForeignKeyViolation(syntax), isSerializationFailure(syntax)]).toEqual([false, false, false]);
    expect(isUniqueViolation(new Error("value 23505 is not a unique violation"))).toBe(false);
    expect(isUniqueViolation(undefined)).toBe(false);
  });
});
