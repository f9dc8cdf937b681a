import request from "supertest";
import { vacuumDeadTables } from "@cloudcost/db";
import { vm } from "./helpers/compute-fleet";
import { createTestContext, type TestContext } from "./helpers/context";
import { signUp } from "./helpers/identity";

// The embedded database (PGlite) has no autovacuum worker, and a PostgreSQL server may run with
// autovacuum off (CI's does): a table updated in place kept every dead row version (a 1,000-row table
// updated 200 times: 16 MB, twice as slow to scan) until the service started vacuuming it itself
// (compute/maintenance.ts). Where autovacuum runs the service leaves it alone.
let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({ MAIN_API_VACUUM_AFTER_ROWS: "2000", MAIN_API_VACUUM_INTERVAL_SECONDS: "3600" });
  ctx.deps.vacuum.start();
});
afterAll(async () => {
  await ctx.deps.vacuum.stop();
  await ctx.close();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 30_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > until) throw new Error(`timed out waiting; last ${JSON.stringify(value)}`);
    await sleep(100);
  }
}

interface TableStats {
  dead: number;
  vacuumed: boolean;
}
const resourceStats = async (): Promise<TableStats> => {
  const [row] = await ctx.db.sql.query<{ dead: string; vacuumed: boolean }>(
    `SELECT n_dead_tup::text AS dead, last_vacuum IS NOT NULL AS vacuumed FROM pg_stat_user_tables WHERE relname = 'compute_resources'`,
  );
  return { dead: Number(row.dead), vacuumed: row.vacuumed };
};

describe("vacuuming the tables updated in place", () => {
  it("without autovacuum the service vacuums once enough rows were written; with it, leaves that to autovacuum", async () => {
    const owner = await signUp(ctx, { email: "vacuum-owner@example.com" });
    const as = (r: request.Test) => r.set("Authorization", `Bearer ${owner.token}`).set("X-Service-Tenant-ID", owner.tenant.id);
    const ids = Array.from({ length: 100 }, (_, i) => `vac-${i}`);
    // An inventory pushed 30 times, each time with every instance type changed (a fleet resized back
    // and forth): 3,000 rewrites of indexed columns, over compute_resources' own threshold (1,000 dead
    // rows and 2% of its rows) and over the 2,000 written rows that start a pass here.
    for (let push = 0; push < 30; push++) {
      await as(request(ctx.app).put("/api/v1/tenant/compute/resources"))
        .send({ resources: ids.map((id) => vm(id, push % 2 ? "m5.xlarge" : "m5.large")) })
        .expect(200);
    }
    const autovacuum = ctx.db.kind === "postgres" && (await ctx.db.sql.query<{ on: boolean }>("SELECT current_setting('autovacuum') = 'on' AS on"))[0].on;
    if (!autovacuum) {
      // PGlite, or a PostgreSQL server with autovacuum off (as CI's): vacuumed by the pass the
      // written rows started (the schedule's next is an hour away).
      await eventually(resourceStats, (s) => s.vacuumed);
      // After a pass the table is within its threshold (2,900 dead rows without any vacuum).
      await ctx.deps.vacuum.runNow();
      expect((await resourceStats()).dead).toBeLessThanOrEqual(1002);
    } else {
      // Autovacuum's business: the service ran no VACUUM of its own...
      expect((await resourceStats()).vacuumed).toBe(false);
      // ...and the same pass, run by hand, picks the table by autovacuum's thresholds.
      await eventually(resourceStats, (s) => s.dead > 1002);
      const done = await vacuumDeadTables(ctx.db.sql);
      expect(done).toEqual(expect.arrayContaining([expect.objectContaining({ table: "compute_resources", vacuumed: true })]));
      expect((await resourceStats()).vacuumed).toBe(true);
    }
  }, 120_000);
});
