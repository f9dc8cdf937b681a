import pino from "pino";
import { IngestMetricsRequest, UpsertResourcesRequest } from "@cloudcost/contracts";
import { AnalysisBusyError, createAnalyzer, type Analyzer } from "../src/compute/analysis";
import { ingestMetrics, upsertResources } from "../src/compute/inventory-service";
import { createPricingClient, PricingUnavailableError } from "../src/compute/pricing-client";
import { DEFAULT_COMPUTE_SETTINGS } from "../src/compute/settings";
import { listRecommendations, recommendationSummary } from "../src/compute/summary";
import { samplesFor, shaped, vm } from "./helpers/compute-fleet";
import { refusedUrl, startPricingStub, type PricingStub } from "./helpers/compute-pricing-stub";
import { createTestContext, type TestContext } from "./helpers/context";

let ctx: TestContext;
let stub: PricingStub;
const logger = pino({ level: "silent" });
const tenant = { id: "ten_analysis", organizationId: "org_analysis" };

const analyzerFor = (baseUrl: string, apiKey: string | null = stub.apiKey, timeoutMs = 300) =>
  createAnalyzer({
    prisma: ctx.prisma,
    db: ctx.db,
    logger,
    pricing: createPricingClient({ baseUrl, apiKey: apiKey ?? undefined, logger, timeoutMs }),
  });
const upsert = (resources: unknown[]) => upsertResources(ctx.prisma, tenant, UpsertResourcesRequest.parse({ resources }).resources);
const ingest = (samples: unknown[]) => ingestMetrics(ctx.db.sql, tenant, IngestMetricsRequest.parse({ samples }).samples);
const summary = () => recommendationSummary(ctx.prisma, tenant.id, { resource_type: "virtual_machine" }, 15);
const items = async () =>
  Object.fromEntries(
    (await listRecommendations(ctx.prisma, tenant.id, { resource_type: "virtual_machine", limit: 500 }, 15)).items.map((i) => [i.resource_id, i]),
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
    expect(byId.idle).toMatchObject({ action: "TERMINATE", recommended_instance_type: "", savings_monthly_usd: 140.16, current_monthly_cost_usd: 140.16, recommended_monthly_cost_usd: 0 });
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
    const nodes = await listRecommendations(ctx.prisma, tenant.id, { resource_type: "kubernetes_node", limit: 10 }, 15);
    // need 4 × 10/70 vCPU and 16 GB (no memory samples) → r5.large (2/16) at 0.126 vs 0.192.
    expect(nodes.items[0]).toMatchObject({ resource_id: "node", action: "DOWNSIZE", recommended_instance_type: "r5.large", savings_monthly_usd: 48.18 });
  });

  it("keeps previous results when the pricing API fails, is slow, refuses or answers garbage", async () => {
    const before = await items();
    await upsert([vm("late", "m5.large")]);
    await ingest(shaped("late", 1, 2));
    for (const mode of ["error500", "slow", "garbage"] as const) {
      stub.mode = mode;
      await expect(analyzerFor(stub.url).analyzeTenant(tenant, DEFAULT_COMPUTE_SETTINGS)).rejects.toBeInstanceOf(PricingUnavailableError);
    }
    stub.mode = "ok";
    await expect(analyzerFor(await refusedUrl()).analyzeTenant(tenant, DEFAULT_COMPUTE_SETTINGS)).rejects.toBeInstanceOf(PricingUnavailableError);
    await expect(analyzerFor(stub.url, null).analyzeTenant(tenant, DEFAULT_COMPUTE_SETTINGS)).rejects.toThrow(/PRICING_API_KEY/);
    await expect(analyzerFor(stub.url, "bl_wrong").analyzeTenant(tenant, DEFAULT_COMPUTE_SETTINGS)).rejects.toThrow(/401/);
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

  it("drops samples older than the lookback window", async () => {
    await ctx.prisma.$executeRawUnsafe(
      `INSERT INTO compute_samples (tenant_id, resource_id, ts, cpu_utilization) VALUES ($1, 'idle', now() - interval '15 days', 99)`,
      tenant.id,
    );
    await analyzer.analyzeTenant(tenant, DEFAULT_COMPUTE_SETTINGS);
    const [{ n }] = await ctx.prisma.$queryRawUnsafe<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM compute_samples WHERE tenant_id = $1 AND ts < now() - interval '14 days'`,
      tenant.id,
    );
    expect(n).toBe(0);
    expect((await items()).idle.action).toBe("TERMINATE");
  });

  it("computes p95 from daily roll-ups equal to the nearest-rank p95 of integer samples, and rebuilds a day a sample is re-sent to", async () => {
    const other = { id: "ten_rollup", organizationId: "org_analysis" };
    await upsertResources(ctx.prisma, other, UpsertResourcesRequest.parse({ resources: [vm("roll", "m5.large")] }).resources);
    // Every 20 minutes from 4 days ago until a minute ago: settled days go through the roll-ups, the
    // window's first hours and today through the raw samples.
    const cpu = (i: number) => (i * 37) % 101;
    const memory = (i: number) => (i * 53) % 97;
    const samples = samplesFor("roll", 4 * 72, 20, cpu, memory);
    const send = (batch: unknown[]) => ingestMetrics(ctx.db.sql, other, IngestMetricsRequest.parse({ samples: batch }).samples);
    await send(samples);
    const nearestRank = (values: number[]) => [...values].sort((a, b) => a - b)[Math.ceil(0.95 * values.length) - 1];
    const statsOf = async () => {
      const page = await listRecommendations(ctx.prisma, other.id, { resource_type: "virtual_machine", limit: 10 }, 15);
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
});
