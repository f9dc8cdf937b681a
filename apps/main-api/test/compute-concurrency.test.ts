import request from "supertest";
import { shaped, vm } from "./helpers/compute-fleet";
import { startPricingStub, type PricingStub } from "./helpers/compute-pricing-stub";
import { createTestContext, type TestContext } from "./helpers/context";
import { signUp } from "./helpers/identity";
import { HEARTBEAT_RESOLUTION_SECONDS } from "../src/compute/sample-repository";

// Concurrent writers of the same resources' rows: every one succeeds and the newest heartbeat wins
// (to within the heartbeat's resolution), whatever order they finish in. On PGlite (one connection) they run one after the other; on
// PostgreSQL (CI's second run) they interleave. Two inventory upserts in their own orders deadlocked
// here (one 500 in each of two runs, before the upsert wrote in resource_id order), and so did re-sent
// metric batches (a 500 in two of three runs, before ingest wrote its samples in key order). The deadlock of the
// heartbeat bumps needs two statements with different plans (seen under the mixed load after
// statistics changed), which this test does not force: `LOAD_CURRENT_SAMPLES=1` of the mixed load reproduced it.
let ctx: TestContext;
let stub: PricingStub;
beforeAll(async () => {
  stub = await startPricingStub(1500);
  ctx = await createTestContext({ PRICING_API_URL: stub.url });
});
afterAll(async () => {
  await ctx.close();
  await stub.close();
});

const RESOURCES = 300;
const WRITERS = 8;
const ROUNDS = 5;
const ids = Array.from({ length: RESOURCES }, (_, i) => `conc-${String(i).padStart(4, "0")}`);

/** Deterministic shuffle (a different order per writer). */
function shuffled<T>(values: T[], seed: number): T[] {
  const out = [...values];
  let s = seed;
  for (let i = out.length - 1; i > 0; i--) {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

describe("concurrent writes to the same resources", () => {
  it("ingests, re-sent batches, heartbeats, inventory upserts and an analysis cycle at once all succeed and leave the newest heartbeat", async () => {
    const owner = await signUp(ctx, { email: "concurrency-owner@example.com" });
    const as = (r: request.Test) => r.set("Authorization", `Bearer ${owner.token}`).set("X-Service-Tenant-ID", owner.tenant.id);
    await as(request(ctx.app).put("/api/v1/tenant/compute/resources"))
      .send({ resources: ids.map((id) => vm(id, "m5.xlarge")) })
      .expect(200);
    // History for the analysis (two days, settled), written before the race.
    for (let i = 0; i < RESOURCES; i += 100) {
      await as(request(ctx.app).post("/api/v1/tenant/compute/metrics"))
        .send({ samples: ids.slice(i, i + 100).flatMap((id) => shaped(id, 20, 30, undefined, 10)) })
        .expect(200);
    }

    // Each writer moves every resource's heartbeat forward, in its own order; several rounds, since
    // every update moves the rows and so changes the order a scan meets them in.
    const now = Date.now();
    const at = (round: number, w: number) => new Date(now - 120_000 + (round * WRITERS + w) * 1000).toISOString();
    for (let round = 0; round < ROUNDS; round++) {
      const ingests = Array.from({ length: WRITERS }, (_, w) =>
        as(request(ctx.app).post("/api/v1/tenant/compute/metrics")).send({
          samples: shuffled(ids, round * WRITERS + w + 1).map((id) => ({ resource_id: id, timestamp: at(round, w), cpu_utilization: 20 })),
        }),
      );
      const heartbeats = Array.from({ length: 2 }, (_, h) =>
        as(request(ctx.app).post("/api/v1/tenant/compute/heartbeats")).send({ resource_ids: shuffled(ids, 1000 + round * 2 + h), timestamp: at(round, h) }),
      );
      // Writer 0's batch re-sent twice meanwhile (an agent retrying), each copy in an order of its own.
      const resends = Array.from({ length: 2 }, (_, c) =>
        as(request(ctx.app).post("/api/v1/tenant/compute/metrics")).send({
          samples: shuffled(ids, 3000 + round * 2 + c).map((id) => ({ resource_id: id, timestamp: at(round, 0), cpu_utilization: 20 })),
        }),
      );
      // Inventory upserts of the same rows (attributes unchanged), each in an order of its own.
      const upserts = Array.from({ length: 2 }, (_, u) =>
        as(request(ctx.app).put("/api/v1/tenant/compute/resources")).send({ resources: shuffled(ids, 2000 + round * 2 + u).map((id) => vm(id, "m5.xlarge")) }),
      );
      const analysis = as(request(ctx.app).post("/api/v1/tenant/compute/recommendations/analyze"));
      const answers = await Promise.all([...ingests, ...resends, ...heartbeats, ...upserts, analysis]);
      expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
    }

    // A metric batch moves a heartbeat only once it is HEARTBEAT_RESOLUTION_SECONDS newer than the
    // stored one (repository.ts): each stored heartbeat is the newest or trails it by less than that.
    const newest = await ctx.prisma.$queryRawUnsafe<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM compute_resource_heartbeats WHERE tenant_id = $1
         AND last_heartbeat_at <= $2::timestamptz AND last_heartbeat_at > $2::timestamptz - make_interval(secs => $3)`,
      owner.tenant.id,
      at(ROUNDS - 1, WRITERS - 1),
      HEARTBEAT_RESOLUTION_SECONDS,
    );
    expect(newest[0].n).toBe(RESOURCES);
  });
});

describe("heartbeat storage", () => {
  it("keeps heartbeats in a narrow table of their own, off every index but its key, pages half free, so a bump is a HOT update", async () => {
    // Every metric batch moves the heartbeat of each resource it names. On the resource row an indexed
    // heartbeat made each bump write an entry in every index (ingest of current samples: p50 ~6x
    // slower), and even unindexed each bump left a dead copy of the wide row that the summary then read.
    const columns = await ctx.prisma.$queryRawUnsafe<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM pg_attribute WHERE attrelid = 'compute_resources'::regclass AND attname = 'last_heartbeat_at' AND NOT attisdropped`,
    );
    expect(columns[0].n).toBe(0);
    const rows = await ctx.prisma.$queryRawUnsafe<{ index: string }[]>(
      `SELECT i.indexrelid::regclass::text AS index
       FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey)
       WHERE i.indrelid = 'compute_resource_heartbeats'::regclass AND a.attname = 'last_heartbeat_at'`,
    );
    expect(rows).toEqual([]);
    const options = await ctx.prisma.$queryRawUnsafe<{ options: string[] | null }[]>(
      `SELECT reloptions AS options FROM pg_class WHERE oid = 'compute_resource_heartbeats'::regclass`,
    );
    expect(options[0].options).toEqual(expect.arrayContaining(["fillfactor=50", "autovacuum_vacuum_scale_factor=0"]));
  });
});
