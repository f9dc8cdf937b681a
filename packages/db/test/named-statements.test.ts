import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createTestDatabase } from "../src/testing";

const emptyMigrations = fs.mkdtempSync(path.join(os.tmpdir(), "migrations-"));

// Runs on PGlite by default and on the server under TEST_DATABASE_URL (CI runs both).
describe("named statements", () => {
  it("answer as unnamed ones, and PostgreSQL keeps one prepared statement per connection", async () => {
    const db = await createTestDatabase(emptyMigrations);
    try {
      await db.sql.withSession(async (session) => {
        for (const n of [1, 2, 3, 4, 5, 6]) {
          expect(await session.query<{ n: number }>("SELECT $1::int + 1 AS n", [n], { name: "plus_one" })).toEqual([{ n: n + 1 }]);
        }
        const prepared = await session.query<{ name: string; statement: string }>("SELECT name, statement FROM pg_prepared_statements WHERE name = 'plus_one'");
        expect(prepared).toEqual(db.kind === "postgres" ? [{ name: "plus_one", statement: "SELECT $1::int + 1 AS n" }] : []);
      });
      // Through the pool as well (any connection, preparing it there on first use).
      const answers = await Promise.all([7, 8, 9].map((n) => db.sql.query<{ n: number }>("SELECT $1::int + 1 AS n", [n], { name: "plus_one" })));
      expect(answers).toEqual([[{ n: 8 }], [{ n: 9 }], [{ n: 10 }]]);
    } finally {
      await db.close();
    }
  });
});
