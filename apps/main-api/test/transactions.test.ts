import { createTestDatabase, type TestDatabase } from "@cloudcost/db/testing";
import { MIGRATIONS_DIR, SESSION_SETTINGS } from "../src/db";
import { inSessionTransaction } from "../src/transactions";

/** inSessionTransaction (src/transactions.ts) on a real database: what it commits, and what it rolls back. */
describe("inSessionTransaction", () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase(MIGRATIONS_DIR, SESSION_SETTINGS);
    await db.sql.query("CREATE TABLE transaction_probe (id text PRIMARY KEY)");
  });
  afterAll(() => db.close());

  const ids = async () => (await db.sql.query<{ id: string }>("SELECT id FROM transaction_probe ORDER BY id")).map((r) => r.id);
  const write = (id: string) => (session: { query(sql: string, params?: unknown[]): Promise<unknown> }) =>
    session.query("INSERT INTO transaction_probe (id) VALUES ($1)", [id]);

  it("commits what fn wrote once it resolves, and returns its result", async () => {
    const result = await db.sql.withSession((session) =>
      inSessionTransaction(session, async () => {
        await write("committed")(session);
        return "done";
      }),
    );
    expect(result).toBe("done");
    expect(await ids()).toContain("committed");
  });

  it("rolls back, and still returns the result, when rollbackIf holds for it", async () => {
    const seenInside: string[][] = [];
    const result = await db.sql.withSession((session) =>
      inSessionTransaction(
        session,
        async () => {
          await write("refused")(session);
          seenInside.push((await session.query<{ id: string }>("SELECT id FROM transaction_probe WHERE id = 'refused'")).map((r) => r.id));
          return { refused: true };
        },
        { rollbackIf: (r) => r.refused },
      ),
    );
    expect(result).toEqual({ refused: true });
    expect(seenInside).toEqual([["refused"]]);
    expect(await ids()).not.toContain("refused");
  });

  it("commits when rollbackIf does not hold", async () => {
    await db.sql.withSession((session) =>
      inSessionTransaction(
        session,
        async () => {
          await write("accepted")(session);
          return { refused: false };
        },
        { rollbackIf: (r) => r.refused },
      ),
    );
    expect(await ids()).toContain("accepted");
  });

  it("rolls back and rethrows when fn fails; the session is usable afterwards", async () => {
    await db.sql.withSession(async (session) => {
      await expect(
        inSessionTransaction(session, async () => {
          await write("failed")(session);
          throw new Error("boom");
        }),
      ).rejects.toThrow("boom");
      // Outside any transaction again: a new one begins without a warning-turned-error.
      await inSessionTransaction(session, () => write("after")(session));
    });
    const found = await ids();
    expect(found).not.toContain("failed");
    expect(found).toContain("after");
  });
});
