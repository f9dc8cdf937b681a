import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { changeNotification, createChangeFeed, type ChangeFeed } from "../src";
import { createTestDatabase, type TestDatabase } from "../src/testing";

const emptyMigrations = fs.mkdtempSync(path.join(os.tmpdir(), "migrations-"));

/**
 * Resolves with the first key `feed` hears on `topic`, or rejects after `ms`: a generous bound (a
 * notification takes milliseconds on an idle machine, and far longer on a loaded one).
 */
function heard(feed: ChangeFeed, topic: string, ms = 20_000): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`nothing heard on ${topic} within ${ms} ms`)), ms);
    const stop = feed.subscribe(topic, (key) => {
      clearTimeout(timer);
      stop();
      resolve(key);
    });
  });
}

// Runs on PGlite by default and on the server under TEST_DATABASE_URL (CI runs both).
describe("change feed (LISTEN/NOTIFY)", () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase(emptyMigrations);
  });
  afterAll(async () => {
    await db.close();
  });

  it("tells every replica of the database, the publishing one included, within a second", async () => {
    const other = await db.reopen();
    const a = createChangeFeed(db);
    const b = createChangeFeed(other);
    await Promise.all([a.start(), b.start()]);
    try {
      const atA = heard(a, "key");
      const atB = heard(b, "key");
      const unrelated = jest.fn();
      b.subscribe("other-topic", unrelated);
      await a.publish("key", "hash-1");
      await expect(atA).resolves.toBe("hash-1");
      await expect(atB).resolves.toBe("hash-1");
      expect(unrelated).not.toHaveBeenCalled();
    } finally {
      await a.close();
      await b.close();
      await other.close();
    }
  });

  it("announces a change made in a transaction at its commit, and not at all on rollback", async () => {
    const feed = createChangeFeed(db);
    await feed.start();
    const keys: (string | null)[] = [];
    feed.subscribe("catalog", (key) => keys.push(key));
    try {
      const rolledBack = changeNotification("catalog", "v1");
      await db.sql.withSession(async (session) => {
        await session.exec("BEGIN");
        await session.query(rolledBack.sql, rolledBack.params);
        await session.exec("ROLLBACK");
      });
      const committed = changeNotification("catalog", "v2");
      const next = heard(feed, "catalog");
      await db.sql.withSession(async (session) => {
        await session.exec("BEGIN");
        await session.query(committed.sql, committed.params);
        await session.exec("COMMIT");
      });
      await expect(next).resolves.toBe("v2");
      expect(keys).toEqual(["v2"]);
    } finally {
      await feed.close();
    }
  });

  it("after losing its connection, listens again and reports the gap (null) so caches drop everything", async () => {
    if (db.kind !== "postgres") return; // PGlite's one connection cannot be lost
    const feed = createChangeFeed(db);
    await feed.start();
    try {
      const gap = heard(feed, "key");
      await db.sql.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN%'");
      await expect(gap).resolves.toBeNull();
      const after = heard(feed, "key");
      await feed.publish("key", "hash-2");
      await expect(after).resolves.toBe("hash-2");
    } finally {
      await feed.close();
    }
  });
});
