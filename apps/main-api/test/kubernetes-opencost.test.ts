// Kubernetes costs as OpenCost measures them (docs/api.md, "Kubernetes cost allocation" and
// "Kubernetes node pools"): GPUs charged to the pods that request them, idle shared per resource,
// node prices from the bill, ranges of whole hours, node pools with a floor and GPU pools.
import request from "supertest";
import { Allocation, NodePoolRecommendations } from "@cloudcost/contracts";
import { FIXTURE_CATALOG, startPricingStub, type PricingStub } from "./helpers/compute-pricing-stub";
import { createTestContext, type TestContext } from "./helpers/context";
import { focusCsvText } from "./helpers/focus-files";
import { expectError, signUp, type SignedUp } from "./helpers/identity";

let ctx: TestContext;
let stub: PricingStub;
let owner: SignedUp;

const RESOURCES = "/api/v1/tenant/compute/resources";
const PODS = "/api/v1/tenant/kubernetes/pods";
const ALLOCATION = "/api/v1/tenant/kubernetes/allocation";
const POOLS = "/api/v1/tenant/kubernetes/node-pools/recommendations";
const POOL_SETTINGS = "/api/v1/tenant/kubernetes/node-pools/settings";
const REGION = "us-west-2";

const get = (path: string) => request(ctx.app).get(path).set("Authorization", `Bearer ${owner.token}`).set("X-Service-Tenant-ID", owner.tenant.id);
const put = (path: string, body: unknown) =>
  request(ctx.app).put(path).set("Authorization", `Bearer ${owner.token}`).set("X-Service-Tenant-ID", owner.tenant.id).send(body);
const post = (path: string, body: unknown) =>
  request(ctx.app).post(path).set("Authorization", `Bearer ${owner.token}`).set("X-Service-Tenant-ID", owner.tenant.id).send(body);

const node = (resource_id: string, instance_type: string, extra: Record<string, unknown> = {}) => ({
  resource_id,
  resource_type: "kubernetes_node",
  provider: "aws",
  region: REGION,
  instance_type,
  ...extra,
});
const dayOffset = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);
const at = (day: string, h: number) => `${day}T${String(h).padStart(2, "0")}:20:00.000Z`;
const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
const allocation = async (query: string) => {
  const res = await get(`${ALLOCATION}?${query}`);
  expect(res.status).toBe(200);
  return Allocation.parse(res.body.data);
};
const byGroup = (a: Allocation) => Object.fromEntries(a.rows.map((r) => [r.group, r]));
const costs = (a: Allocation) => Object.fromEntries(a.rows.map((r) => [r.group, [r.cpu_cost, r.ram_cost, r.gpu_cost, r.total_cost]]));

const pod = (cluster: string, namespace: string, n: string, timestamp: string, cpu: number, mem: number, gpu?: number) => ({
  cluster,
  namespace,
  pod: `${namespace}-1`,
  node: n,
  timestamp,
  cpu_request_cores: cpu,
  memory_request_gb: mem,
  gpu_request: gpu,
});

beforeAll(async () => {
  // Rows of a region no other suite prices from (each suite has its own copy of the stub's module).
  const row = (instance_type: string, cpu_cores: number, ram_gb: number, price_per_hour: number, extra: Record<string, unknown> = {}) => ({
    provider: "aws",
    region: REGION,
    instance_type,
    cpu_cores,
    ram_gb,
    price_per_hour,
    gpu_count: 0,
    burstable: false,
    architecture: "x86_64" as const,
    ...extra,
  });
  const a10g = { gpu_count: 1, accelerator: { vendor: "nvidia", model: "A10G", count: 1 } };
  FIXTURE_CATALOG.push(
    row("m5.large", 2, 8, 0.096),
    row("m5.xlarge", 4, 16, 0.192),
    row("g5.xlarge", 4, 16, 1.006, a10g),
    row("g5.2xlarge", 8, 32, 1.212, a10g),
    row("g5.4xlarge", 16, 64, 1.624, a10g),
    row("g4dn.2xlarge", 8, 32, 0.752, { gpu_count: 1, accelerator: { vendor: "nvidia", model: "T4", count: 1 } }),
  );
  stub = await startPricingStub(1500);
  ctx = await createTestContext({ PRICING_API_URL: stub.url, PRICING_API_TIMEOUT_MS: "10000", ANALYSIS_INTERVAL_MINUTES: "0" });
  owner = await signUp(ctx, { company: "OpenCost Co" });
});
afterAll(async () => {
  await stub?.close();
  await ctx?.close();
});

describe("a g5.2xlarge shared by a GPU job, a CPU batch job and a memory-heavy cache", () => {
  const DAY = dayOffset(6);
  beforeAll(async () => {
    expect((await put(RESOURCES, { resources: [node("gpu-1", "g5.2xlarge", { cluster: "ml", node_pool: "gpu" })] })).status).toBe(200);
    const samples = Array.from({ length: 24 }, (_, h) => [
      pod("ml", "ml", "gpu-1", at(DAY, h), 1, 4, 1),
      pod("ml", "batch", "gpu-1", at(DAY, h), 4, 8),
      pod("ml", "cache", "gpu-1", at(DAY, h), 0.5, 16),
    ]).flat();
    expect((await post(PODS, { samples })).status).toBe(200);
  });

  it("charges the GPU to the pod that requests it; idle is the sum of each resource's idle", async () => {
    const a = await allocation(`start=${DAY}&end=${nextDay(DAY)}`);
    // Node: 24 h x 1.212 = 29.088. Weights 8 x 0.031611 = 0.252888 (CPU), 32 x 0.004237 = 0.135584 (memory),
    // 1 x 0.95 = 0.95 (GPU), sum 1.338472. CPU 29.088 x 0.252888 / 1.338472 = 5.495824, GPU 29.088 x 0.95 / 1.338472
    // = 20.645632, memory 29.088 - 5.495824 - 20.645632 = 2.946545.
    // ml (1 core, 4 GB, 1 GPU):   CPU 5.495824/8 = 0.686978, memory 2.946545 x 4/32 = 0.368318, GPU 20.645632.
    // batch (4 cores, 8 GB):      CPU 2.747912, memory 0.736636.
    // cache (0.5 core, 16 GB):    CPU 0.343489, memory 1.473272.
    // Idle: CPU 5.495824 - 3.778379 = 1.717445, memory 2.946545 - 2.578227 = 0.368318, GPU 0.
    // Cents: CPU total 5.50 (floors 5.47; the 3 cents to batch .0079, idle .0074, ml .0070); GPU 20.65;
    // total 29.09, so memory 29.09 - 5.50 - 20.65 = 2.94 (floors 2.92; ml and idle tie at .0083: list order, ml first).
    expect(costs(a)).toEqual({
      ml: ["0.69", "0.37", "20.65", "21.71"],
      batch: ["2.75", "0.73", "0.00", "3.48"],
      cache: ["0.34", "1.47", "0.00", "1.81"],
      __idle__: ["1.72", "0.37", "0.00", "2.09"],
    });
    expect(byGroup(a).ml).toMatchObject({ cpu_core_hours: 24, ram_gb_hours: 96, gpu_hours: 24 });
    expect(a.totals).toMatchObject({ cpu_cost: "5.50", ram_cost: "2.94", gpu_cost: "20.65", total_cost: "29.09", gpu_hours: 24 });
    expect(a.totals.basis).toEqual({ bill_node_days: 0, catalog_node_days: 1 });
    // (Under the CPU and memory split alone the GPU job paid 3.64 and the batch job 12.01 of the node's 29.09.)
  });

  it("shares CPU idle by CPU cost and memory idle by memory cost, not by total cost", async () => {
    const a = await allocation(`start=${DAY}&end=${nextDay(DAY)}&share_idle=true`);
    // CPU idle 1.717445 by CPU cost (0.686978 : 2.747912 : 0.343489 of 3.778379):
    //   ml 0.686978 + 0.312263 = 0.999241, batch 2.747912 + 1.249051 = 3.996963, cache 0.343489 + 0.156131 = 0.499620.
    // Memory idle 0.368318 by memory cost (0.368318 : 0.736636 : 1.473272 of 2.578227):
    //   ml 0.420935, batch 0.841870, cache 1.683740.
    // Cents: CPU 5.50 (floors 5.47; cache .0096, ml .0092, batch .0070 take a cent each), memory 2.94 (floors 2.94), GPU 20.65.
    expect(costs(a)).toEqual({
      ml: ["1.00", "0.42", "20.65", "22.07"],
      batch: ["4.00", "0.84", "0.00", "4.84"],
      cache: ["0.50", "1.68", "0.00", "2.18"],
    });
    // Shared by total cost (2.085763 in proportion to 21.700928 : 3.484548 : 1.816761) the cache would carry 1.96, not 2.18.
  });

  it("answers any range of whole hours, and refuses step=day on one", async () => {
    const a = await allocation(`start=${DAY}T06:00:00Z&end=${DAY}T18:00:00Z`);
    // 12 of the 24 hours: 12 x 1.212 = 14.544 -> 14.54; ml's GPU 14.544 x 0.95 / 1.338472 = 10.322816 -> 10.32.
    expect(a.totals.total_cost).toBe("14.54");
    expect(byGroup(a).ml).toMatchObject({ gpu_hours: 12, gpu_cost: "10.32" });
    expect(a.start).toBe(`${DAY}T06:00:00.000Z`);
    expectError(await get(`${ALLOCATION}?start=${DAY}T06:00:00Z&end=${DAY}T18:00:00Z&step=day`), 400, /step/);
    expectError(await get(`${ALLOCATION}?start=${DAY}T06:30:00Z&end=${DAY}T18:00:00Z`), 400, /start/);
  });
});

describe("node prices from the bill", () => {
  const DAY = dayOffset(5);
  beforeAll(async () => {
    const resources = [node("reserved-1", "m5.xlarge", { cluster: "billed" }), node("ondemand-1", "m5.xlarge", { cluster: "billed" })];
    expect((await put(RESOURCES, { resources })).status).toBe(200);
    // Each node runs hours 0-11 with one pod of a quarter of it (1 of 4 cores, 4 of 16 GB).
    const samples = Array.from({ length: 12 }, (_, h) => [
      pod("billed", "web", "reserved-1", at(DAY, h), 1, 4),
      pod("billed", "api", "ondemand-1", at(DAY, h), 1, 4),
    ]).flat();
    expect((await post(PODS, { samples })).status).toBe(200);
    // The bill: reserved-1 costs 2.40 that day (its reservation's effective cost), in two lines; nothing for ondemand-1.
    await request(ctx.app)
      .put(`/api/v1/organizations/${owner.organization.id}/spend/allocation-rules`)
      .set("Authorization", `Bearer ${owner.token}`)
      .send({ rules: [{ tenant_id: owner.tenant.id }] })
      .expect(200);
    const month = `${DAY.slice(0, 7)}-01`;
    const nextMonth = new Date(Date.UTC(Number(DAY.slice(0, 4)), Number(DAY.slice(5, 7)), 1)).toISOString().slice(0, 10);
    const line = (start: string, end: string, cost: string) => ({
      BillingPeriodStart: `${month}T00:00:00Z`,
      BillingPeriodEnd: `${nextMonth}T00:00:00Z`,
      ChargePeriodStart: start,
      ChargePeriodEnd: end,
      BilledCost: "0",
      EffectiveCost: cost,
      ListCost: "2.304",
      ContractedCost: cost,
      ResourceId: "reserved-1",
    });
    const csv = focusCsvText([line(`${DAY}T00:00:00Z`, `${DAY}T06:00:00Z`, "1.00"), line(`${DAY}T06:00:00Z`, `${DAY}T12:00:00Z`, "1.40")], ["ResourceId"]);
    const res = await request(ctx.app)
      .post(`/api/v1/organizations/${owner.organization.id}/spend/imports`)
      .set("Authorization", `Bearer ${owner.token}`)
      .set("Content-Type", "text/csv")
      .send(csv);
    expect(res.status).toBe(201);
  });

  it("prices a node-day with bill lines at their effective cost, the others at the catalog", async () => {
    const a = await allocation(`start=${DAY}&end=${nextDay(DAY)}`);
    // reserved-1: the bill's 1.00 + 1.40 = 2.40 over its 12 hours (the catalog would say 12 x 0.192 = 2.304);
    // web holds a quarter of each resource: 2.40 / 4 = 0.60.
    // ondemand-1: 12 x 0.192 = 2.304 from the catalog; api a quarter: 0.576.
    // CPU (0.650981 of each node): web 0.390589, api 0.374965, idle 2.296662; total 3.062216 -> 3.06 (the cent to idle, .0067).
    // Memory: total 4.704 -> 4.70, less 3.06 = 1.64: web 0.209411, api 0.201035, idle 1.231338 (the cent to web, .0094).
    expect(costs(a)).toEqual({
      web: ["0.39", "0.21", "0.00", "0.60"],
      api: ["0.37", "0.20", "0.00", "0.57"],
      __idle__: ["2.30", "1.23", "0.00", "3.53"],
    });
    expect(a.totals.total_cost).toBe("4.70");
    expect(a.totals.basis).toEqual({ bill_node_days: 1, catalog_node_days: 1 });
  });

  it("spreads a bill day over the hours the node ran, also for a range of hours", async () => {
    // Hours 0-5 of reserved-1's 12: 2.40 x 6 / 12 = 1.20; ondemand-1 6 x 0.192 = 1.152; 2.352 -> 2.35.
    const a = await allocation(`start=${DAY}T00:00:00Z&end=${DAY}T06:00:00Z&aggregate=cluster`);
    expect(a.totals.total_cost).toBe("2.35");
    // The pods hold a quarter of each: CPU 2.352 x 0.650981 / 4 = 0.382777, memory 2.352 x 0.349019 / 4 = 0.205223 (0.588);
    // idle CPU 1.148331, memory 0.615669. Cents: CPU 1.531108 -> 1.53 (floors 1.52: the cent to idle, .0083 against .0028),
    // memory 2.35 - 1.53 = 0.82 (floors 0.81: the cent to idle, .0057 against .0052): the pods 0.38 + 0.20 = 0.58.
    expect(byGroup(a).billed).toMatchObject({ cpu_cost: "0.38", ram_cost: "0.20", total_cost: "0.58" });
  });
});

describe("node pools", () => {
  const DAY = dayOffset(3);
  beforeAll(async () => {
    const resources = [
      ...["web-1", "web-2", "web-3"].map((id) => node(id, "m5.xlarge", { cluster: "prod", node_pool: "web" })),
      node("train-1", "g5.2xlarge", { cluster: "prod", node_pool: "train" }),
    ];
    expect((await put(RESOURCES, { resources })).status).toBe(200);
    const samples = Array.from({ length: 4 }, (_, h) => [
      pod("prod", "site", "web-1", at(DAY, h), 1, 2),
      pod("prod", "train", "train-1", at(DAY, h), 7, 20, 1),
    ]).flat();
    expect((await post(PODS, { samples })).status).toBe(200);
  });
  const pool = async (name: string) => {
    const res = await get(POOLS);
    expect(res.status).toBe(200);
    return NodePoolRecommendations.parse(res.body.data).items.find((i) => i.cluster === "prod" && i.node_pool === name);
  };

  it("keeps at least min_nodes nodes: 2 by default, or the pool's setting", async () => {
    // 1 core and 2 GB requested; m5.large allocatable 2 - 0.07 = 1.93 cores, 8 - 1.8 - 0.1 = 6.1 GB: one node would do
    // (1 / (1.93 x 0.85) = 0.61), but the pool keeps 2: 2 x 0.096 x 730 = 140.16; current 3 x 140.16 = 420.48.
    expect(await pool("web")).toMatchObject({
      min_nodes: 2,
      current: { instance_type: "m5.xlarge", nodes: 3, monthly_cost_usd: 420.48 },
      recommended: { instance_type: "m5.large", nodes: 2, monthly_cost_usd: 140.16 },
      savings_monthly_usd: 280.32,
    });
    expect((await put(POOL_SETTINGS, { cluster: "prod", node_pool: "web", min_nodes: 3 })).status).toBe(200);
    // 3 x 70.08 = 210.24; 420.48 - 210.24 = 210.24.
    expect(await pool("web")).toMatchObject({ min_nodes: 3, recommended: { instance_type: "m5.large", nodes: 3, monthly_cost_usd: 210.24 } });
    expect((await put(POOL_SETTINGS, { cluster: "prod", node_pool: "web", min_nodes: null })).status).toBe(200);
    expect((await pool("web"))?.min_nodes).toBe(2);
    expectError(await put(POOL_SETTINGS, { cluster: "prod", node_pool: "web", min_nodes: 0 }), 400, /min_nodes/);
  });

  it("holds floors on at most 1000 node pools of a tenant: the next is a 409 limit_reached, nothing written; changing or clearing one still works", async () => {
    // 999 floors of another cluster (written as the route stores them), beside none on "prod" after the test above.
    await ctx.db.sql.query(
      `INSERT INTO kubernetes_node_pool_settings (tenant_id, cluster, node_pool, min_nodes)
       SELECT $1, 'many', 'pool-' || i, 2 FROM generate_series(1, 999) AS i`,
      [owner.tenant.id],
    );
    const held = async () =>
      (await ctx.db.sql.query<{ n: number }>("SELECT count(*)::int AS n FROM kubernetes_node_pool_settings WHERE tenant_id = $1", [owner.tenant.id]))[0].n;
    expect((await put(POOL_SETTINGS, { cluster: "prod", node_pool: "web", min_nodes: 4 })).status).toBe(200); // the 1000th
    expectError(await put(POOL_SETTINGS, { cluster: "prod", node_pool: "api", min_nodes: 2 }), 409, /at most 1000/);
    expect(await held()).toBe(1000);
    expect((await put(POOL_SETTINGS, { cluster: "prod", node_pool: "web", min_nodes: 5 })).status).toBe(200); // a change, not a new floor
    expect((await put(POOL_SETTINGS, { cluster: "many", node_pool: "pool-1", min_nodes: null })).status).toBe(200);
    expect((await put(POOL_SETTINGS, { cluster: "prod", node_pool: "api", min_nodes: 2 })).status).toBe(200);
    expect(await held()).toBe(1000);
    await ctx.db.sql.query("DELETE FROM kubernetes_node_pool_settings WHERE tenant_id = $1", [owner.tenant.id]);
  });

  it("packs a GPU pool by its GPUs among types of its accelerator, not upsizing it for CPU", async () => {
    // One g5.2xlarge (1 A10G), 7 cores / 20 GB / 1 GPU requested: 7 of 7.91 allocatable cores, 20 of 28.34 GB, 1 of 1 GPU:
    // one node (min_nodes 1 for a pool of one). g5.xlarge's 3.92 cores do not fit the 7-core pod; g5.4xlarge costs
    // 1.624 x 730 = 1185.52 > 884.76; g4dn.2xlarge (0.752/h) has a T4, another accelerator: not a candidate.
    expect(await pool("train")).toMatchObject({
      min_nodes: 1,
      current: { instance_type: "g5.2xlarge", nodes: 1, monthly_cost_usd: 884.76 },
      recommended: { instance_type: "g5.2xlarge", nodes: 1, monthly_cost_usd: 884.76 },
      savings_monthly_usd: 0,
      requests: { cpu_cores: 7, memory_gb: 20, gpus: 1 },
      largest_pod: { cpu_cores: 7, memory_gb: 20, gpus: 1 },
    });
  });

  it("lists nodes with their cluster, node pool and GPUs", async () => {
    expect((await put(RESOURCES, { resources: [node("stated", "m5.xlarge", { cluster: "prod", node_pool: "web", gpu_count: 0 })] })).status).toBe(200);
    const res = await get("/api/v1/tenant/compute/recommendations?limit=100&resource_type=kubernetes_node");
    expect(res.status).toBe(200);
    const items = Object.fromEntries((res.body.data.items as { resource_id: string }[]).map((i) => [i.resource_id, i]));
    expect(items["train-1"]).toMatchObject({ cluster: "prod", node_pool: "train", gpu_count: null });
    expect(items.stated).toMatchObject({ cluster: "prod", node_pool: "web", gpu_count: 0 });
  });
});
