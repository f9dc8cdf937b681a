import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openDatabase } from "../src";
import { createTestDatabase } from "../src/testing";

const emptyMigrations = fs.mkdtempSync(path.join(os.tmpdir(), "migrations-"));

// Runs on PGlite by default and on the server under TEST_DATABASE_URL (CI runs both).
describe("session settings", () => {
  it("apply to every session the database opens", async () => {
    const db = await createTestDatabase(emptyMigrations, { random_page_cost: 1.1, max_parallel_workers_per_gather: 0 });
    try {
      // Several at once: on PostgreSQL each may run on another pooled connection.
      const answers = await Promise.all(
        Array.from({ length: 4 }, () =>
          db.sql.query<{ cost: string; workers: string }>(
            "SELECT current_setting('random_page_cost') AS cost, current_setting('max_parallel_workers_per_gather') AS workers",
          ),
        ),
      );
      for (const rows of answers) expect(rows[0]).toEqual({ cost: "1.1", workers: "0" });
    } finally {
      await db.close();
    }
  });

  it("refuse a name or value that could smuggle SQL or other options", async () => {
    const url = "postgresql://postgres@127.0.0.1:5432/postgres";
    await expect(openDatabase({ url, sessionSettings: { "work_mem; DROP TABLE x": 1 } })).rejects.toThrow(/Invalid session setting/);
    await expect(openDatabase({ url, sessionSettings: { work_mem: "64MB -c statement_timeout=0" } })).rejects.toThrow(/Invalid session setting/);
  });
});
