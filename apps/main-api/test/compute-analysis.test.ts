import pino from "pino";
import { IngestMetricsRequest, UpsertResourcesRequest } from "@cloudcost/contracts";
import { AnalysisBusyError, createAnalyzer, type Analyzer } from "../src/compute/analysis";
import { sampleBatch } from "../src/compute/inventory-service";
import { INGEST_SQL } from "../src/compute/sample-repository";
import { PricingUnavailableError } from "../src/compute/catalog-prices";
import { DEFAULT_COMPUTE_SETTINGS } from "../src/compute/settings";
import { analyzerRepositories, createComputeServices } from "../src/compute/services";
import { samplesFor, shaped, vm } from "./helpers/compute-fleet";
import { catalogsAt, refusedUrl, startPricingStub, type PricingStub } from "./helpers/compute-pricing-stub";
import { createTestContext, type TestContext } from "./helpers/context";

let ctx: TestContext;
let stub: PricingStub;
const logger = pino({ level: "silent" });
const tenant = { id: "ten_analysis", organizationId: "org_analysis" };

const analyzerFor = (baseUrl: string, timeoutMs?: number) =>
  createAnalyzer({ prisma: ctx.prisma, db: ctx.db, logger, catalogs: catalogsAt(baseUrl, timeoutMs), repositories: analyzerRepositories });
/** The compute services over ctx (set in beforeAll). */
const compute = () => createComputeServices({ prisma: ctx.prisma, sql: ctx.db.sql });
const upsert = (resources: unknown[]) => compute().inventory.upsertResources(tenant, UpsertResourcesRequest.parse({ resources }).resources);
const ingest = (samples: unknown[]) => compute().inventory.ingestMetrics(tenant, sampleBatch(IngestMetricsRequest.parse({ samples }).samples));
const summary = () => compute().recommendations.recommendationSummary(tenant, { resource_type: "virtual_machine" });
const items = async () =>
  Object.fromEntries(
    (await compute().recommendations.listRecommendations(tenant, { resource_type: "virtual_machine", limit: 500 })).items.map((i) => [i.resource_id, i]),
  );

beforeAll(async () => {
  ctx = await createTestContext();
  stub = await startPricingStub(1500);
  await upsert([
    vm("idle", "m5.xlarge"),
    vm("light", "m5.2xlarge"),
    vm("hot", "c5.large"),
    vm("fit", "m5.large"),
    vm("few", "m5.large"),
    vm("pending", "m5.large"),
    vm("p95", "m5.large"),
    vm("unpriced", "z9.mega", { cpu_cores: 4, ram_gb: 16 }),
    vm("node", "m5.xlarge", { resource_type: "kubernetes_node" }),
  ]);
  await ingest([
    ...shaped("idle", 1.5, 4),
    ...shaped("light", 20, 35, 30),
    ...shaped("hot", 95, 100, 50),
    ...shaped("fit", 60, 80, 70),
    ...samplesFor("few", 11, 180, () => 50),
    ...samplesFor("p95", 20, 80, (i) => i + 1),
    ...shaped("unpriced", 20, 30),
    ...shaped("node", 10, 20),
  ]);
});
afterAll(async () => {
  await stub.close();
  await ctx.close();
});

describe("analysis cycle", () => {
  let analyzer: Analyzer;
  beforeAll(() => {
    analyzer = analyzerFor(stub.url);
  });

  it("gives every scenario its action and stores stats computed in SQL", async () => {
    const result = await analyzer.analyzeTenant(tenant, DEFAULT_COMPUTE_SETTINGS);
    // Every resource of the tenant, all types; "pending" was upserted before the cycle, so it is analyzed too.
    expect(result.analyzedResources).toBe(9);
    const byId = await items();
    expect(byId.idle).toMatchObject({
      action: "TERMINATE",
      recommended_instance_type: "",
      savings_monthly_usd: 140.16,
      current_monthly_cost_usd: 140.16,
      recommended_monthly_cost_usd: 0,
    });
    // need 8 × 20/70 = 2.29 vCPU, 32 × 30/80 = 12 GB → m5.xlarge (4/16) at 0.192 vs 0.384.
    expect(byId.light).toMatchObject({ action: "DOWNSIZE", recommended_instance_type: "m5.xlarge", savings_monthly_usd: 140.16 });
    // need 2 × 95/70 = 2.71 vCPU, 4 × 50/80 = 2.5 GB → c5.xlarge at 0.17 vs 0.085: (0.085 − 0.17) × 730.
    expect(byId.hot).toMatchObject({ action: "UPSIZE", recommended_instance_type: "c5.xlarge", savings_monthly_usd: -62.05 });
    expect(byId.fit).toMatchObject({ action: "NOOP", recommended_instance_type: "m5.large", savings_monthly_usd: 0 });
    expect(byId.few).toMatchObject({ action: "NO_RECOMMENDATION", savings_monthly_usd: 0 });
    expect(byId.few.stats?.samples).toBe(11);
    expect(byId.unpriced.action).toBe("NO_RECOMMENDATION");
    // Nearest rank: values 1..20, rank ceil(0.95 × 20) = 19.
    expect(byId.p95.stats).toMatchObject({ cpu_p95: 19, cpu_max: 20, memory_p95: null, samples: 20 });
    expect(byId.p95.stats!.window_end).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(byId.light.stats).toMatchObject({ cpu_p95: 20, cpu_max: 35, memory_p95: 30, samples: 48 });
    const nodes = await compute().recommendations.listRecommendations(tenant, { resource_type: "kubernetes_node", limit: 10 });
    // need 4 × 10/70 vCPU and 16 GB (no memory samples) → r5.large (2/16) at 0.126 vs 0.192.
    expect(nodes.items[0]).toMatchObject({ resource_id: "node", action: "DOWNSIZE", recommended_instance_type: "r5.large", savings_monthly_usd: 48.18 });
  });

  it("keeps previous results when the pricing API fails, is slow, refuses or answers garbage", async () => {
    const before = await items();
    await upsert([vm("late", "m5.large")]);
    await ingest(shaped("late", 1, 2));
    for (const mode of ["error500", "slow", "garbage"] as const) {
      stub.mode = mode;
      // "slow" answers after 1.5 s: a 300 ms timeout makes it one (a loaded machine only makes it slower).
      const timeoutMs = mode === "slow" ? 300 : undefined;
      await expect(analyzerFor(stub.url, timeoutMs).analyzeTenant(tenant, DEFAULT_COMPUTE_SETTINGS)).rejects.toBeInstanceOf(PricingUnavailableError);
    }
    stub.mode = "ok";
    await expect(analyzerFor(await refusedUrl()).analyzeTenant(tenant, DEFAULT_COMPUTE_SETTINGS)).rejects.toBeInstanceOf(PricingUnavailableError);
    const after = await items();
    expect(after.late.action).toBeNull();
    expect(after).toEqual({ ...before, late: after.late });
    expect((await summary()).action_counts.pending).toBe(1);
  });

  it("retries a failing call (3 attempts) and caches catalog and prices", async () => {
    stub.mode = "error500";
    stub.requests.length = 0;
    await expect(analyzerFor(stub.url).analyzeTenant(tenant, DEFAULT_COMPUTE_SETTINGS)).rejects.toThrow(/3 attempts/);
    expect(stub.requests).toHaveLength(3);
    stub.mode = "ok";
    stub.requests.length = 0;
    await analyzer.analyzeTenant(tenant, DEFAULT_COMPUTE_SETTINGS);
    // The shared analyzer's client already holds the one catalog; only the new type's price is fetched.
    expect(stub.requests.filter((r) => r.path.endsWith("instance-types"))).toHaveLength(0);
    expect((await items()).late.action).toBe("TERMINATE");
  });

  it("runs one cycle per tenant at a time", async () => {
    const fresh = analyzerFor(stub.url);
    stub.hold();
    const arrived = stub.nextRequest();
    const first = fresh.analyzeTenant(tenant, DEFAULT_COMPUTE_SETTINGS);
    await arrived;
    await expect(fresh.analyzeTenant(tenant, DEFAULT_COMPUTE_SETTINGS)).rejects.toBeInstanceOf(AnalysisBusyError);
    if (ctx.db.kind === "postgres") {
      // Another replica (another analyzer, same database) is kept out by the advisory lock.
      await expect(analyzerFor(stub.url).analyzeTenant(tenant, DEFAULT_COMPUTE_SETTINGS)).rejects.toBeInstanceOf(AnalysisBusyError);
    }
    stub.release();
    await expect(first).resolves.toMatchObject({ analyzedResources: 10 });
  });

  it("drops samples older than the lookback window, at most every retentionEveryMs per tenant", async () => {
    const expired = async () => {
      const [{ n }] = await ctx.prisma.$queryRawUnsafe<{ n: number }[]>(
        `SELECT count(*)::int AS n FROM compute_samples WHERE tenant_id = $1 AND ts < now() - interval '14 days'`,
        tenant.id,
      );
      return n;
    };
    const plant = (daysAgo: number) =>
      ctx.prisma.$executeRawUnsafe(
        `INSERT INTO compute_samples (tenant_id, resource_id, ts, cpu_utilization) VALUES ($1, 'idle', now() - $2 * interval '1 day', 99)`,
        tenant.id,
        daysAgo,
      );
    // A process's first cycle of a tenant drops what expired; its next ones within the interval do not.
    const fresh = analyzerFor(stub.url);
    await plant(15);
    await fresh.analyzeTenant(tenant, DEFAULT_COMPUTE_SETTINGS);
    expect(await expired()).toBe(0);
    await plant(16);
    await fresh.analyzeTenant(tenant, DEFAULT_COMPUTE_SETTINGS);
    expect(await expired()).toBe(1);
    // Kept samples outside the window change no result: the idle resource stays idle despite a 99 % sample.
    expect((await items()).idle.action).toBe("TERMINATE");
    const eager = createAnalyzer({
      prisma: ctx.prisma,
      db: ctx.db,
      logger,
      repositories: analyzerRepositories,
      catalogs: catalogsAt(stub.url),
      retentionEveryMs: 0,
    });
    await eager.analyzeTenant(tenant, DEFAULT_COMPUTE_SETTINGS);
    expect(await expired()).toBe(0);
  });

  it("computes p95 from daily roll-ups equal to the exact nearest-rank p95 of the samples, and rebuilds a day a sample is re-sent to", async () => {
    const other = { id: "ten_rollup", organizationId: "org_analysis" };
    await compute().inventory.upsertResources(other, UpsertResourcesRequest.parse({ resources: [vm("roll", "m5.large")] }).resources);
    // Every 20 minutes from 4 days ago until a minute ago: settled days go through the roll-ups, the
    // window's first hours and today through the raw samples.
    // Hundredths spread over the whole range: the p95 is found by whole percent, then inside it.
    const cpu = (i: number) => ((i * 3737) % 10001) / 100;
    const memory = (i: number) => ((i * 5353) % 9701) / 100;
    const samples = samplesFor("roll", 4 * 72, 20, cpu, memory);
    const send = (batch: unknown[]) => compute().inventory.ingestMetrics(other, sampleBatch(IngestMetricsRequest.parse({ samples: batch }).samples));
    await send(samples);
    const nearestRank = (values: number[]) => [...values].sort((a, b) => a - b)[Math.ceil(0.95 * values.length) - 1];
    const statsOf = async () => {
      const page = await compute().recommendations.listRecommendations(other, { resource_type: "virtual_machine", limit: 10 });
      return page.items[0].stats;
    };
    const settings = { ...DEFAULT_COMPUTE_SETTINGS, lookbackDays: 3 };
    const since = Date.now() - 3 * 86_400_000;
    const inWindow = () => samples.filter((s) => Date.parse(s.timestamp) >= since - 60_000);

    await analyzer.analyzeTenant(other, settings);
    const [{ days }] = await ctx.prisma.$queryRawUnsafe<{ days: number }[]>(
      "SELECT count(*)::int AS days FROM compute_sample_days WHERE tenant_id = $1",
      other.id,
    );
    expect(days).toBeGreaterThanOrEqual(1);
    let expected = inWindow();
    let stats = await statsOf();
    // The window starts when the cycle starts: a sample exactly at the edge may fall either side.
    expect(Math.abs(stats!.samples - expected.length)).toBeLessThanOrEqual(1);
    expected = expected.slice(expected.length - stats!.samples);
    expect(stats).toMatchObject({
      cpu_p95: nearestRank(expected.map((s) => s.cpu_utilization)),
      cpu_max: Math.max(...expected.map((s) => s.cpu_utilization)),
      memory_p95: nearestRank(expected.map((s) => s.memory_utilization!)),
      window_start: expected[0].timestamp,
      window_end: expected[expected.length - 1].timestamp,
    });
    expect(nearestRank(expected.map((s) => s.cpu_utilization))).not.toBe(Math.max(...expected.map((s) => s.cpu_utilization)));

    // Re-send two days ago's samples raised to 100 %: that day's roll-up is rebuilt, nothing counted twice.
    const twoDaysAgo = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10);
    const resent = expected.filter((s) => s.timestamp.startsWith(twoDaysAgo)).map((s) => ({ ...s, cpu_utilization: 100 }));
    expect(resent.length).toBeGreaterThan(10);
    await send(resent);
    await analyzer.analyzeTenant(other, settings);
    const changed = new Map(resent.map((s) => [s.timestamp, s]));
    const after = expected.map((s) => changed.get(s.timestamp) ?? s);
    stats = await statsOf();
    expect(stats).toMatchObject({ samples: after.length, cpu_p95: nearestRank(after.map((s) => s.cpu_utilization)), cpu_max: 100 });
  });
  it("extends the tail roll-up with the samples since the last cycle and the late ones only, and rebuilds it after a re-sent sample", async () => {
    const other = { id: "ten_tail", organizationId: "org_analysis" };
    await compute().inventory.upsertResources(other, UpsertResourcesRequest.parse({ resources: [vm("busy", "m5.large"), vm("quiet", "m5.large")] }).resources);
    const send = (batch: unknown[]) => compute().inventory.ingestMetrics(other, sampleBatch(IngestMetricsRequest.parse({ samples: batch }).samples));
    // Margin 0: the tail ends where each cycle starts, so samples sent just before it are in it.
    const tailAnalyzer = createAnalyzer({
      prisma: ctx.prisma,
      db: ctx.db,
      logger,
      repositories: analyzerRepositories,
      catalogs: catalogsAt(stub.url),
      tailMarginMs: 0,
    });
    const cycle = async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      await tailAnalyzer.analyzeTenant(other, DEFAULT_COMPUTE_SETTINGS);
    };
    const at = (t: number) => new Date(t).toISOString();
    const sample = (id: string, t: number, cpu: number) => ({
      resource_id: id,
      timestamp: at(t),
      cpu_utilization: cpu,
      memory_utilization: Math.floor(cpu / 2),
    });
    const nearestRank = (values: number[]) => [...values].sort((a, b) => a - b)[Math.ceil(0.95 * values.length) - 1];
    const stats = async () =>
      Object.fromEntries(
        (await compute().recommendations.listRecommendations(other, { resource_type: "virtual_machine", limit: 10 })).items.map((i) => [
          i.resource_id,
          i.stats,
        ]),
      );
    const tailRows = () =>
      ctx.prisma.$queryRawUnsafe<{ resource_id: string; samples: number }[]>(
        "SELECT resource_id, samples FROM compute_sample_tail WHERE tenant_id = $1 ORDER BY resource_id",
        other.id,
      );
    const expectStats = (got: { samples: number; cpu_p95: number; cpu_max: number; memory_p95: number | null } | null, sent: { cpu_utilization: number }[]) =>
      expect(got).toMatchObject({
        samples: sent.length,
        cpu_p95: nearestRank(sent.map((s) => s.cpu_utilization)),
        cpu_max: Math.max(...sent.map((s) => s.cpu_utilization)),
        memory_p95: nearestRank(sent.map((s) => Math.floor(s.cpu_utilization / 2))),
      });

    // Cycle 1 builds the tail from 30 samples per resource of the last 10 minutes.
    const start = Date.now() - 600_000;
    const first = Array.from({ length: 30 }, (_, i) => sample("busy", start + i * 10_000, (i * 37) % 90));
    const quiet = Array.from({ length: 30 }, (_, i) => sample("quiet", start + i * 10_000, (i * 13) % 40));
    await send([...first, ...quiet]);
    await cycle();
    expect(await tailRows()).toEqual([
      { resource_id: "busy", samples: 30 },
      { resource_id: "quiet", samples: 30 },
    ]);
    expectStats((await stats()).busy, first);

    // Cycle 2 only adds what arrived since: the quiet resource's row is not even rewritten (a
    // planted wrong maximum stays), the busy one's grows by the 20 new samples.
    await ctx.prisma.$executeRawUnsafe("UPDATE compute_sample_tail SET cpu_max = 77 WHERE tenant_id = $1 AND resource_id = 'quiet'", other.id);
    const after = Date.now();
    const second = Array.from({ length: 20 }, (_, i) => sample("busy", after + i, 95 - i));
    await send(second);
    await cycle();
    expect(await tailRows()).toEqual([
      { resource_id: "busy", samples: 50 },
      { resource_id: "quiet", samples: 30 },
    ]);
    let all = [...first, ...second];
    expectStats((await stats()).busy, all);
    expect((await stats()).quiet!.cpu_max).toBe(77);

    // A re-sent sample behind the fence makes the tail stale: cycle 3 rebuilds it from the raw
    // samples (the planted maximum is gone) and counts the re-sent one once, with its new value.
    await send([{ ...first[3], cpu_utilization: 100, memory_utilization: 50 }]);
    await cycle();
    all = all.map((s, i) => (i === 3 ? { ...s, cpu_utilization: 100 } : s));
    expectStats((await stats()).busy, all);
    expectStats((await stats()).quiet, quiet);

    // A new sample behind the fence (a delayed agent) is queued and added by the next cycle, which
    // extends the tail rather than rebuilding it (a maximum planted again stays).
    await ctx.prisma.$executeRawUnsafe("UPDATE compute_sample_tail SET cpu_max = 77 WHERE tenant_id = $1 AND resource_id = 'quiet'", other.id);
    await send([sample("quiet", start + 5_000, 39)]);
    await cycle();
    const withLate = [...quiet, sample("quiet", start + 5_000, 39)];
    expect((await stats()).quiet).toMatchObject({ samples: 31, cpu_p95: nearestRank(withLate.map((s) => s.cpu_utilization)), cpu_max: 77 });
    expect(await tailRows()).toEqual([
      { resource_id: "busy", samples: 50 },
      { resource_id: "quiet", samples: 31 },
    ]);
    const queued = () => ctx.prisma.$queryRawUnsafe<{ n: number }[]>("SELECT count(*)::int AS n FROM compute_sample_tail_late WHERE tenant_id = $1", other.id);
    expect(await queued()).toEqual([{ n: 0 }]);

    // Counted once across further cycles, and a rebuild (a re-send) agrees with the extended tail.
    await cycle();
    await send([{ ...quiet[0] }]);
    await cycle();
    expectStats((await stats()).quiet, withLate);
    expect(await tailRows()).toEqual([
      { resource_id: "busy", samples: 50 },
      { resource_id: "quiet", samples: 31 },
    ]);
  });
  // Two connections at once: PostgreSQL only (CI runs the suites against the server as well).
  (process.env.TEST_DATABASE_URL ? it : it.skip)(
    "moves the tail's fence only after in-flight ingests commit, and keeps the tail when they hold it too long",
    async () => {
      const other = { id: "ten_fence", organizationId: "org_analysis" };
      await compute().inventory.upsertResources(other, UpsertResourcesRequest.parse({ resources: [vm("f", "m5.large")] }).resources);
      const tailAnalyzer = createAnalyzer({
        prisma: ctx.prisma,
        db: ctx.db,
        logger,
        repositories: analyzerRepositories,
        catalogs: catalogsAt(stub.url),
        tailMarginMs: 0,
      });
      const samplesInTail = async () =>
        (await ctx.prisma.$queryRawUnsafe<{ samples: number }[]>("SELECT samples FROM compute_sample_tail WHERE tenant_id = $1", other.id))[0]?.samples;
      const cut = async () =>
        (await ctx.prisma.$queryRawUnsafe<{ cut: Date }[]>("SELECT cut FROM compute_sample_tail_status WHERE tenant_id = $1", other.id))[0].cut;
      await compute().inventory.ingestMetrics(other, sampleBatch(IngestMetricsRequest.parse({ samples: samplesFor("f", 12, 1, (i) => i) }).samples));
      await tailAnalyzer.analyzeTenant(other, DEFAULT_COMPUTE_SETTINGS);
      expect(await samplesInTail()).toBe(12);

      // An ingest holding the fence (uncommitted) while a cycle starts: the cycle waits for it, so the
      // sample, older than the new fence, is in the tail and not lost between two cycles.
      await ctx.db.sql.withSession(async (session) => {
        await session.query("BEGIN");
        await session.query(INGEST_SQL, [other.id, ["f"], [new Date().toISOString()], [50], [null], [null], [null]]);
        const running = tailAnalyzer.analyzeTenant(other, DEFAULT_COMPUTE_SETTINGS);
        await new Promise((resolve) => setTimeout(resolve, 300));
        await session.query("COMMIT");
        await running;
      });
      expect(await samplesInTail()).toBe(13);

      // Held past the wait: the cycle keeps the fence and the tail where they were, and the next one
      // picks the sample up. (The ingest here is its insert and its share lock alone: the real one also
      // holds the row of the heartbeat it moves, which the cycle's results write would wait for.)
      const before = await cut();
      await ctx.db.sql.withSession(async (session) => {
        await session.query("BEGIN");
        await session.query("SELECT cut FROM compute_sample_tail_status WHERE tenant_id = $1 FOR SHARE", [other.id]);
        await session.query("INSERT INTO compute_samples (tenant_id, resource_id, ts, cpu_utilization) VALUES ($1, 'f', now(), 50)", [other.id]);
        try {
          await tailAnalyzer.analyzeTenant(other, DEFAULT_COMPUTE_SETTINGS);
        } finally {
          await session.query("COMMIT");
        }
      });
      expect(await cut()).toEqual(before);
      expect(await samplesInTail()).toBe(13);
      await new Promise((resolve) => setTimeout(resolve, 20));
      await tailAnalyzer.analyzeTenant(other, DEFAULT_COMPUTE_SETTINGS);
      expect(await samplesInTail()).toBe(14);
    },
    60_000,
  );

  // Ingests that overlap without a gap (many agents of one tenant) used to starve the cycle: each
  // joined the share lock on the fence's row while the cycle's update waited, so the fence only moved
  // once they stopped. Now new ingests queue behind the waiting cycle.
  (process.env.TEST_DATABASE_URL ? it : it.skip)(
    "moves the fence while ingests keep overlapping, without waiting for a gap between them",
    async () => {
      const busy = { id: "ten_overlap", organizationId: "org_analysis" };
      await compute().inventory.upsertResources(busy, UpsertResourcesRequest.parse({ resources: [vm("o1", "m5.large"), vm("o2", "m5.large")] }).resources);
      const tailAnalyzer = createAnalyzer({
        prisma: ctx.prisma,
        db: ctx.db,
        logger,
        repositories: analyzerRepositories,
        catalogs: catalogsAt(stub.url),
        tailMarginMs: 0,
      });
      const cut = async () =>
        (await ctx.prisma.$queryRawUnsafe<{ cut: Date }[]>("SELECT cut FROM compute_sample_tail_status WHERE tenant_id = $1", busy.id))[0].cut;
      await compute().inventory.ingestMetrics(busy, sampleBatch(IngestMetricsRequest.parse({ samples: samplesFor("o1", 12, 1, (i) => i) }).samples));
      await tailAnalyzer.analyzeTenant(busy, DEFAULT_COMPUTE_SETTINGS);
      const before = await cut();

      // Two sessions hand the fence over: each ingests (its own resource) in a transaction that stays
      // open until the other has started its next one, 100 ms later, so one always holds the fence.
      // They go on until the cycle has ended (a loaded machine takes more rounds), within a generous
      // bound: a starved cycle would never end while they overlap.
      const rounds = 200;
      let round = 0;
      let movedInRound: number | null = null;
      let doneInRound: number | null = null;
      await ctx.db.sql.withSession((first) =>
        ctx.db.sql.withSession(async (second) => {
          const open = async (session: typeof first, resource: string) => {
            await session.query("BEGIN");
            await session.query(INGEST_SQL, [busy.id, [resource], [new Date().toISOString()], [50], [null], [null], [null]]);
          };
          let [holder, next] = [
            { session: first, resource: "o1" },
            { session: second, resource: "o2" },
          ];
          await open(holder.session, holder.resource);
          const cycle = tailAnalyzer.analyzeTenant(busy, DEFAULT_COMPUTE_SETTINGS).then(() => {
            doneInRound = round;
          });
          for (; round < rounds && doneInRound === null; round++) {
            const opening = open(next.session, next.resource);
            await new Promise((resolve) => setTimeout(resolve, 100));
            await holder.session.query("COMMIT");
            await opening;
            [holder, next] = [next, holder];
            if (movedInRound === null && (await cut()) > before) movedInRound = round;
          }
          await holder.session.query("COMMIT");
          await cycle;
        }),
      );
      // The fence moved, and the whole cycle (the tail's status row, the results) ended, while they overlapped.
      expect(movedInRound).not.toBeNull();
      expect(doneInRound).not.toBeNull();
      expect(doneInRound!).toBeLessThan(rounds);
      expect(await cut()).not.toEqual(before);
    },
    60_000,
  );
});
