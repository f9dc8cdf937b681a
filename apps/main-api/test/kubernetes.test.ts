import request from "supertest";
import { Allocation, NodePoolRecommendations } from "@cloudcost/contracts";
import { startPricingStub, type PricingStub } from "./helpers/compute-pricing-stub";
import { createTestContext, type TestContext } from "./helpers/context";
import { expectError, signUp } from "./helpers/identity";

let ctx: TestContext;
let stub: PricingStub;
let owner: { token: string; tenant: string };
let other: { token: string; tenant: string };

const as = (who: { token: string; tenant: string }) => ({
  get: (path: string) => request(ctx.app).get(path).set("Authorization", `Bearer ${who.token}`).set("X-Service-Tenant-ID", who.tenant),
  put: (path: string, body: unknown) =>
    request(ctx.app).put(path).set("Authorization", `Bearer ${who.token}`).set("X-Service-Tenant-ID", who.tenant).send(body),
  post: (path: string, body: unknown) =>
    request(ctx.app).post(path).set("Authorization", `Bearer ${who.token}`).set("X-Service-Tenant-ID", who.tenant).send(body),
});
const RESOURCES = "/api/v1/tenant/compute/resources";
const PODS = "/api/v1/tenant/kubernetes/pods";
const ALLOCATION = "/api/v1/tenant/kubernetes/allocation";
const POOLS = "/api/v1/tenant/kubernetes/node-pools/recommendations";

const node = (resource_id: string, instance_type: string, extra: Record<string, unknown> = {}) => ({
  resource_id,
  resource_type: "kubernetes_node",
  provider: "aws",
  region: "us-east-1",
  instance_type,
  ...extra,
});
// The days below are written as in November 2026 and the two months before it. A pod sample may be
// at most 93 days old, so they are moved to the month before the current one and the two before
// that, day for day (a day written as the last of its month stays the last).
const MONTH_SHIFT = (() => {
  const now = new Date();
  return now.getUTCFullYear() * 12 + now.getUTCMonth() - 1 - (2026 * 12 + 10);
})();
const lastDayOf = (month: number) => new Date(Date.UTC(Math.floor(month / 12), (month % 12) + 1, 0)).getUTCDate();
function D(day: string): string {
  const [y, m, d] = day.split("-").map(Number);
  const month = y * 12 + m - 1 + MONTH_SHIFT;
  const moved = d === lastDayOf(y * 12 + m - 1) ? lastDayOf(month) : d;
  return `${Math.floor(month / 12)}-${String((month % 12) + 1).padStart(2, "0")}-${String(moved).padStart(2, "0")}`;
}
const hour = (day: string, h: number) => `${day}T${String(h).padStart(2, "0")}:20:00.000Z`;
const cents = (value: string) => Math.round(Number(value) * 100);
const allocation = async (who: { token: string; tenant: string }, query: string) => {
  const res = await as(who).get(`${ALLOCATION}?${query}`);
  expect(res.status).toBe(200);
  return Allocation.parse(res.body.data);
};
const byGroup = (a: Allocation) => Object.fromEntries(a.rows.map((r) => [r.group, r]));

beforeAll(async () => {
  stub = await startPricingStub(1500);
  ctx = await createTestContext({ PRICING_API_URL: stub.url, PRICING_API_TIMEOUT_MS: "10000", ANALYSIS_INTERVAL_MINUTES: "0" });
  const a = await signUp(ctx, { email: "owner@k8s.test", company: "K8s Co" });
  owner = { token: a.token, tenant: a.tenant.id };
  const b = await signUp(ctx, { email: "owner@k8s-other.test", company: "Other K8s Co" });
  other = { token: b.token, tenant: b.tenant.id };
});
afterAll(async () => {
  await stub?.close();
  await ctx?.close();
});

describe("pod samples", () => {
  it("refuses a node that is unknown, of another tenant or not a kubernetes_node, naming it and storing nothing", async () => {
    expect((await as(other).put(RESOURCES, { resources: [node("their-node", "m5.xlarge", { cluster: "c", node_pool: "p" })] })).status).toBe(200);
    expect((await as(owner).put(RESOURCES, { resources: [{ resource_id: "a-vm", instance_type: "m5.large" }] })).status).toBe(200);
    const sample = (n: string) => ({
      cluster: "c",
      namespace: "x",
      pod: "p",
      node: n,
      timestamp: hour(D("2026-11-01"), 1),
      cpu_request_cores: 1,
      memory_request_gb: 1,
    });
    expectError(await as(owner).post(PODS, { samples: [sample("their-node")] }), 400, /their-node/);
    expectError(await as(owner).post(PODS, { samples: [sample("nowhere")] }), 400, /nowhere/);
    expectError(await as(owner).post(PODS, { samples: [sample("a-vm")] }), 400, /a-vm/);
    expectError(await as(owner).post(PODS, { samples: [] }), 400);
    expectError(await as(owner).post(PODS, { samples: [{ ...sample("their-node"), cpu_request_cores: -1 }] }), 400, /cpu_request_cores/);
    expect((await allocation(owner, `start=${D("2026-11-01")}&end=${D("2026-11-02")}`)).rows).toEqual([]);
  });

  it("keeps names and labels as sent, quotes, backslashes, control characters and non-ASCII included; a NUL is a 400", async () => {
    expect((await as(owner).put(RESOURCES, { resources: [node("labelled", "m5.xlarge", { cluster: "c", node_pool: "p" })] })).status).toBe(200);
    const sample = (labels: Record<string, string>, namespace = "labels") => ({
      cluster: "c",
      namespace,
      pod: "p",
      node: "labelled",
      labels,
      timestamp: hour(D("2026-11-03"), 1),
      cpu_request_cores: 1,
      memory_request_gb: 1,
    });
    expectError(await as(owner).post(PODS, { samples: [sample({ team: "a\u0000b" })] }), 400, /NUL/);
    expectError(await as(owner).post(PODS, { samples: [sample({ team: "a\ud800b" })] }), 400, /surrogate|Unicode/);
    expectError(await as(owner).post(PODS, { samples: [sample({ team: "a" }, "ns\udc00")] }), 400, /surrogate|Unicode/);
    expect((await allocation(owner, `start=${D("2026-11-03")}&end=${D("2026-11-04")}`)).rows).toEqual([]);
    const odd = 'a "quoted" \\ value\u0001\t é 💸 {x,y}';
    expect((await as(owner).post(PODS, { samples: [sample({ team: odd }, 'ns "q" \\ {a,b} é')] })).status).toBe(200);
    expect(Object.keys(byGroup(await allocation(owner, `start=${D("2026-11-03")}&end=${D("2026-11-04")}&aggregate=label:team`)))).toContain(odd);
    expect(Object.keys(byGroup(await allocation(owner, `start=${D("2026-11-03")}&end=${D("2026-11-04")}&aggregate=namespace`)))).toContain('ns "q" \\ {a,b} é');
  });
});

describe("retired nodes", () => {
  it("take no more pods until they are upserted again", async () => {
    expect((await as(owner).put(RESOURCES, { resources: [node("drained", "m5.xlarge", { cluster: "c", node_pool: "p" })] })).status).toBe(200);
    const sample = {
      cluster: "c",
      namespace: "x",
      pod: "late",
      node: "drained",
      timestamp: hour(D("2026-11-02"), 3),
      cpu_request_cores: 1,
      memory_request_gb: 1,
    };
    expect(
      (await request(ctx.app).delete(`${RESOURCES}/drained`).set("Authorization", `Bearer ${owner.token}`).set("X-Service-Tenant-ID", owner.tenant)).status,
    ).toBe(204);
    expectError(await as(owner).post(PODS, { samples: [sample] }), 400, /drained/);
    expect((await allocation(owner, `start=${D("2026-11-02")}&end=${D("2026-11-03")}`)).rows).toEqual([]);
    // Upserting it again revives it.
    expect((await as(owner).put(RESOURCES, { resources: [node("drained", "m5.xlarge", { cluster: "c", node_pool: "p" })] })).status).toBe(200);
    expect((await as(owner).post(PODS, { samples: [sample] })).status).toBe(200);
  });

  it("do not stop a re-sent sample from moving a pod off them", async () => {
    const resources = ["leaving", "staying"].map((id) => node(id, "m5.xlarge", { cluster: "c", node_pool: "p" }));
    expect((await as(owner).put(RESOURCES, { resources })).status).toBe(200);
    const sample = (n: string) => ({
      cluster: "c",
      namespace: "moved",
      pod: "m",
      node: n,
      timestamp: hour(D("2026-11-04"), 5),
      cpu_request_cores: 1,
      memory_request_gb: 1,
    });
    expect((await as(owner).post(PODS, { samples: [sample("leaving")] })).status).toBe(200);
    expect(
      (await request(ctx.app).delete(`${RESOURCES}/leaving`).set("Authorization", `Bearer ${owner.token}`).set("X-Service-Tenant-ID", owner.tenant)).status,
    ).toBe(204);
    // The agent corrects the hour: the pod ran on the live node.
    expect((await as(owner).post(PODS, { samples: [sample("staying")] })).status).toBe(200);
    const moved = byGroup(await allocation(owner, `start=${D("2026-11-04")}&end=${D("2026-11-05")}`)).moved;
    expect(moved.cpu_core_hours).toBe(1);
  });
});

describe("allocation of one node", () => {
  const DAY = D("2026-11-10");
  beforeAll(async () => {
    expect((await as(owner).put(RESOURCES, { resources: [node("solo", "m5.xlarge", { cluster: "one", node_pool: "solo-pool" })] })).status).toBe(200);
    // 10 hours; the pod requests 1 core and 4 GB and uses 0.5 core and 6 GB.
    const samples = Array.from({ length: 10 }, (_, h) => ({
      cluster: "one",
      namespace: "web",
      pod: "web-1",
      node: "solo",
      controller_kind: "Deployment",
      controller_name: "web",
      labels: { team: "blue" },
      timestamp: hour(DAY, h),
      cpu_request_cores: 1,
      memory_request_gb: 4,
      cpu_usage_cores: 0.5,
      memory_usage_gb: 6,
    }));
    // Sent twice, the second time with other values and then the real ones again: a re-sent sample replaces.
    expect((await as(owner).post(PODS, { samples: samples.map((s) => ({ ...s, cpu_request_cores: 3 })) })).body.data).toEqual({ accepted: 10 });
    expect((await as(owner).post(PODS, { samples })).status).toBe(200);
  });

  it("charges the pod max(request, usage) of the node's CPU and memory cost; the rest is idle", async () => {
    const a = await allocation(owner, `start=${DAY}&end=${D("2026-11-11")}&aggregate=namespace`);
    expect(a.nodes_without_pods).toEqual([]);
    // Node: 10 h x 0.192 = 1.92. CPU weight 4 x 0.031611 = 0.126444, memory 16 x 0.004237 = 0.067792 (sum 0.194236).
    // CPU cost 1.92 x 0.126444 / 0.194236 = 1.249884..., memory 1.92 - 1.249884... = 0.670115...
    // Pod CPU: max(1, 0.5) = 1 of 4 cores: 1.249884 / 4 = 0.312471 -> 0.31
    // Pod memory: max(4, 6) = 6 of 16 GB: 0.670115 x 6 / 16 = 0.251293 -> 0.25
    // Idle CPU 1.249884 - 0.312471 = 0.937413, memory 0.670115 - 0.251293 = 0.418822.
    // Cents: CPU total 1.25 = 0.31 + 0.94 (the idle's remainder .0074 beats .0025); memory 0.67 = 0.25 + 0.42.
    expect(byGroup(a).web).toMatchObject({ cpu_core_hours: 10, ram_gb_hours: 60, cpu_cost: "0.31", ram_cost: "0.25", total_cost: "0.56" });
    expect(byGroup(a).__idle__).toMatchObject({ cpu_cost: "0.94", ram_cost: "0.42", total_cost: "1.36", efficiency: null });
    // Efficiency: usage cost (1.249884 x 0.5/4 + 0.251293) = 0.407529 over allocated 0.563764 = 0.7229.
    expect(byGroup(a).web.efficiency).toBeCloseTo(0.7229, 4);
    expect(a.totals).toMatchObject({ cpu_cost: "1.25", ram_cost: "0.67", total_cost: "1.92" });
    expect(a.rows.map((r) => r.group)).toEqual(["web", "__idle__"]);
  });

  it("with share_idle the pod carries the whole node", async () => {
    const a = await allocation(owner, `start=${DAY}&end=${D("2026-11-11")}&aggregate=namespace&share_idle=true`);
    // The only group of the cluster: CPU 1.249884 -> 1.25, memory 0.670115 -> 0.67, total 1.92.
    expect(a.rows).toEqual([expect.objectContaining({ group: "web", cpu_cost: "1.25", ram_cost: "0.67", total_cost: "1.92" })]);
    expect(a.rows[0].efficiency).toBeCloseTo(0.7229, 4);
  });

  it("aggregates by cluster, controller, pod and label the same way", async () => {
    const range = `start=${DAY}&end=${D("2026-11-11")}`;
    expect(byGroup(await allocation(owner, `${range}&aggregate=cluster`)).one.total_cost).toBe("0.56");
    expect(byGroup(await allocation(owner, `${range}&aggregate=controller`))["Deployment/web"].total_cost).toBe("0.56");
    expect(byGroup(await allocation(owner, `${range}&aggregate=pod`))["web/web-1"].total_cost).toBe("0.56");
    expect(byGroup(await allocation(owner, `${range}&aggregate=label:team`)).blue.total_cost).toBe("0.56");
    expect(byGroup(await allocation(owner, `${range}&aggregate=label:nope`)).__unallocated__.total_cost).toBe("0.56");
  });

  it("rejects bad ranges and aggregates naming the parameter", async () => {
    expectError(await as(owner).get(`${ALLOCATION}?start=${DAY}&end=${DAY}`), 400, /end/);
    expectError(await as(owner).get(`${ALLOCATION}?start=${DAY}T01:30:00Z&end=${D("2026-11-11")}`), 400, /start/);
    expectError(await as(owner).get(`${ALLOCATION}?start=${DAY}T01:00:00Z&end=${D("2026-11-11")}&step=day`), 400, /step/);
    expectError(await as(owner).get(`${ALLOCATION}?start=${DAY}&end=${D("2026-11-11")}&aggregate=node`), 400, /aggregate/);
    expectError(await as(owner).get(`${ALLOCATION}?start=${D("2026-11-12")}&end=${D("2026-11-11")}`), 400, /end/);
  });

  it("never shows one tenant's allocation to another", async () => {
    const theirs = await allocation(other, `start=${DAY}&end=${D("2026-11-11")}`);
    expect(theirs.rows).toEqual([]);
    expect(theirs.totals.total_cost).toBe("0.00");
  });
});

describe("allocation of two namespaces on two nodes", () => {
  const DAY = D("2026-11-12");
  beforeAll(async () => {
    const resources = [node("n-a", "m5.xlarge", { cluster: "two" }), node("n-b", "c5.large", { cluster: "two" })];
    expect((await as(owner).put(RESOURCES, { resources })).status).toBe(200);
    const pod = (namespace: string, pod: string, n: string, h: number, cpu: number, mem: number, use?: number) => ({
      cluster: "two",
      namespace,
      pod,
      node: n,
      timestamp: hour(DAY, h),
      cpu_request_cores: cpu,
      memory_request_gb: mem,
      cpu_usage_cores: use,
    });
    const samples = [
      // n-a (m5.xlarge, 0.192/h) for hours 0-4: web 1.3 cores / 5 GB and db 0.7 / 3.
      ...[0, 1, 2, 3, 4].flatMap((h) => [pod("web", "w", "n-a", h, 1.3, 5), pod("db", "d1", "n-a", h, 0.7, 3)]),
      // n-b (c5.large, 0.085/h) for hours 3-9: db 1 core / 3 GB, using 1.2 cores.
      ...[3, 4, 5, 6, 7, 8, 9].map((h) => pod("db", "d2", "n-b", h, 1, 3, 1.2)),
    ];
    expect((await as(owner).post(PODS, { samples })).status).toBe(200);
  });

  it("adds up to the nodes' cost to the cent, with and without shared idle, overall and per day", async () => {
    // 5 h x 0.192 + 7 h x 0.085 = 0.96 + 0.595 = 1.555, half-up 1.56.
    for (const share of ["false", "true"]) {
      const a = await allocation(owner, `start=${DAY}&end=${D("2026-11-13")}&aggregate=namespace&share_idle=${share}&step=day`);
      expect(a.totals.total_cost).toBe("1.56");
      expect(a.rows.reduce((sum, r) => sum + cents(r.total_cost), 0)).toBe(156);
      expect(a.rows.reduce((sum, r) => sum + cents(r.cpu_cost), 0)).toBe(cents(a.totals.cpu_cost));
      for (const r of a.rows) expect(cents(r.cpu_cost) + cents(r.ram_cost)).toBe(cents(r.total_cost));
      expect(a.days?.map((d) => [d.date, d.totals.total_cost])).toEqual([[DAY, "1.56"]]);
    }
    const plain = byGroup(await allocation(owner, `start=${DAY}&end=${D("2026-11-13")}`));
    // web on n-a: CPU weight 0.126444 of 0.194236 -> 0.96 x 0.650981 = 0.624942; 1.3 of 4 cores = 0.203106;
    // memory 0.96 - 0.624942 = 0.335058; 5 of 16 GB = 0.104706; total 0.307812 -> 0.31.
    expect(plain.web.total_cost).toBe("0.31");
    expect(plain.web.cpu_core_hours).toBeCloseTo(6.5, 6);
    // db on n-b: max(1, 1.2) = 1.2 core-hours each of 7 hours.
    expect(plain.db.cpu_core_hours).toBeCloseTo(0.7 * 5 + 1.2 * 7, 6);
  });
});

describe("billed hours and over-commitment", () => {
  it("bills a node for the hours of its heartbeats and utilization samples, with nothing claimed as idle", async () => {
    expect((await as(owner).put(RESOURCES, { resources: [node("quiet", "m5.xlarge", { cluster: "three" })] })).status).toBe(200);
    expect((await as(owner).post("/api/v1/tenant/compute/heartbeats", { resource_ids: ["quiet"], timestamp: `${D("2026-11-14")}T05:10:00Z` })).status).toBe(
      200,
    );
    expect((await as(owner).post("/api/v1/tenant/compute/heartbeats", { resource_ids: ["quiet"], timestamp: `${D("2026-11-14")}T05:50:00Z` })).status).toBe(
      200,
    );
    const metric = { resource_id: "quiet", timestamp: `${D("2026-11-14")}T07:30:00Z`, cpu_utilization: 3 };
    expect((await as(owner).post("/api/v1/tenant/compute/metrics", { samples: [metric] })).status).toBe(200);
    const a = await allocation(owner, `start=${D("2026-11-14")}&end=${D("2026-11-15")}`);
    // Hours 05:00 (two heartbeats) and 07:00 (a sample): 2 x 0.192 = 0.384 -> 0.38, all idle.
    expect(a.rows).toEqual([expect.objectContaining({ group: "__idle__", total_cost: "0.38", efficiency: null })]);
    expect(a.totals.total_cost).toBe("0.38");
    // Named as billed with no pod sampled on it: through its heartbeats' node-day, and through its
    // utilization samples alone (on the 8th it sent only a sample); not where it was not billed.
    expect(a.nodes_without_pods).toEqual(["quiet"]);
    expect((await as(owner).post("/api/v1/tenant/compute/metrics", { samples: [{ ...metric, timestamp: `${D("2026-11-08")}T03:30:00Z` }] })).status).toBe(200);
    expect((await allocation(owner, `start=${D("2026-11-08")}&end=${D("2026-11-09")}`)).nodes_without_pods).toEqual(["quiet"]);
    expect((await allocation(owner, `start=${D("2026-11-07")}&end=${D("2026-11-08")}`)).nodes_without_pods).toEqual([]);
  });

  it("scales claims that exceed a node's capacity so the node is charged once", async () => {
    expect((await as(owner).put(RESOURCES, { resources: [node("tight", "c5.large", { cluster: "four" })] })).status).toBe(200);
    const pod = (namespace: string, cpu: number) => ({
      cluster: "four",
      namespace,
      pod: namespace,
      node: "tight",
      timestamp: `${D("2026-11-15")}T03:00:00Z`,
      cpu_request_cores: cpu,
      memory_request_gb: 1,
    });
    expect((await as(owner).post(PODS, { samples: [pod("alpha", 2), pod("beta", 1)] })).status).toBe(200);
    const a = byGroup(await allocation(owner, `start=${D("2026-11-15")}&end=${D("2026-11-16")}`));
    // c5.large, 1 h at 0.085: CPU 0.085 x 0.063222 / 0.080170 = 0.067031, memory 0.017969.
    // 3 cores claimed of 2: each claim x 2/3 -> alpha 4/3 cores (0.044687), beta 2/3 (0.022344), CPU idle 0.
    // Memory: 1 GB each of 4: 0.004492 each, idle 0.008985.
    // Cents: total 0.085 -> 0.09; CPU 0.067031 -> 0.07 = 0.05 + 0.02 + 0.00; memory 0.09 - 0.07 = 0.02:
    // floors 0, 0, 0; the largest remainders are idle's (.008985) then alpha's (.004492, before beta in byte order).
    expect(a.alpha).toMatchObject({ cpu_cost: "0.05", ram_cost: "0.01", total_cost: "0.06" });
    expect(a.alpha.cpu_core_hours).toBeCloseTo(4 / 3, 6);
    expect(a.beta).toMatchObject({ cpu_cost: "0.02", ram_cost: "0.00", total_cost: "0.02" });
    expect(a.beta.cpu_core_hours).toBeCloseTo(2 / 3, 6);
    expect(a.__idle__).toMatchObject({ cpu_cost: "0.00", ram_cost: "0.01", total_cost: "0.01" });
  });

  it("answers a range with its days' figures summed, over a whole month and over-committed days included", async () => {
    expect((await as(owner).put(RESOURCES, { resources: [node("mixed", "c5.large", { cluster: "seven" })] })).status).toBe(200);
    const pod = (day: string, namespace: string, cpu: number, use: number) => ({
      cluster: "seven",
      namespace,
      pod: namespace,
      node: "mixed",
      controller_kind: "Deployment",
      controller_name: namespace,
      timestamp: hour(day, 1),
      cpu_request_cores: cpu,
      memory_request_gb: 1,
      cpu_usage_cores: use,
    });
    // An over-committed day claims 3 cores of 2 (each claim scaled by 2/3); a plain one 1.5 of 2
    // (beta uses 1 core, requesting 0.5). October is whole in the range, read from the month roll-up.
    const over = (day: string) => [pod(day, "alpha", 2, 1), pod(day, "beta", 1, 0.5)];
    const plain = (day: string) => [pod(day, "alpha", 0.5, 0.2), pod(day, "beta", 0.5, 1)];
    const samples = [...over(D("2026-09-30")), ...plain(D("2026-10-01")), ...over(D("2026-10-31")), ...plain(D("2026-11-01"))];
    expect((await as(owner).post(PODS, { samples })).status).toBe(200);
    for (const aggregate of ["namespace", "controller", "cluster"]) {
      const range = `start=${D("2026-09-30")}&end=${D("2026-11-02")}&aggregate=${aggregate}`;
      const [whole, daily] = [await allocation(owner, range), await allocation(owner, `${range}&step=day`)];
      expect(whole.rows).toEqual(daily.rows);
      expect(whole.totals).toEqual(daily.totals);
      expect(daily.days?.map((d) => d.date)).toEqual([D("2026-09-30"), D("2026-10-01"), D("2026-10-31"), D("2026-11-01")]);
    }
    const a = byGroup(await allocation(owner, `start=${D("2026-09-30")}&end=${D("2026-11-02")}`));
    // alpha: 2 x (2 x 2/3) + 2 x 0.5 core-hours; beta: 2 x (1 x 2/3) + 2 x max(0.5, 1).
    expect(a.alpha.cpu_core_hours).toBeCloseTo(8 / 3 + 1, 6);
    expect(a.beta.cpu_core_hours).toBeCloseTo(4 / 3 + 2, 6);
    // c5.large, 4 h at 0.085 = 0.34.
    expect(cents(a.alpha.total_cost) + cents(a.beta.total_cost) + cents(a.__idle__.total_cost)).toBe(34);
    // October alone: its month row; the same as its two days.
    const october = await allocation(owner, `start=${D("2026-10-01")}&end=${D("2026-11-01")}`);
    expect(october.rows).toEqual((await allocation(owner, `start=${D("2026-10-01")}&end=${D("2026-11-01")}&step=day`)).rows);
    expect(byGroup(october).alpha.cpu_core_hours).toBeCloseTo(4 / 3 + 0.5, 6);
    // Another tenant's node of the same id, billed in the same month, sees none of these claims,
    // from the month roll-up or from the days.
    expect((await as(other).put(RESOURCES, { resources: [node("mixed", "c5.large", { cluster: "seven" })] })).status).toBe(200);
    expect((await as(other).post(PODS, { samples: [{ ...pod(D("2026-10-15"), "theirs", 1, 0.5), pod: "theirs" }] })).status).toBe(200);
    for (const query of [
      `start=${D("2026-09-30")}&end=${D("2026-11-02")}`,
      `start=${D("2026-10-01")}&end=${D("2026-11-01")}`,
      `start=${D("2026-09-30")}&end=${D("2026-11-02")}&step=day`,
    ]) {
      expect((await allocation(other, query)).rows.map((r) => r.group)).toEqual(["theirs", "__idle__"]);
    }
  });

  it("counts a batch sent twice at once once", async () => {
    expect((await as(owner).put(RESOURCES, { resources: [node("twice", "m5.xlarge", { cluster: "five" })] })).status).toBe(200);
    // Large enough that the two statements overlap in the database.
    const samples = Array.from({ length: 24 * 200 }, (_, i) => ({
      cluster: "five",
      namespace: "batch",
      pod: `job-${i % 200}`,
      node: "twice",
      timestamp: hour(D("2026-11-16"), Math.floor(i / 200)),
      cpu_request_cores: 0.01,
      memory_request_gb: 0.05,
    }));
    const [first, second] = await Promise.all([as(owner).post(PODS, { samples }), as(owner).post(PODS, { samples })]);
    expect([first.status, second.status]).toEqual([200, 200]);
    // 4800 pod-hours x 0.01 cores = 48 core-hours, not twice that.
    expect(byGroup(await allocation(owner, `start=${D("2026-11-16")}&end=${D("2026-11-17")}`)).batch.cpu_core_hours).toBe(48);
  });

  it("moves the roll-ups by what a re-sent sample changes, in a batch that also adds a new hour", async () => {
    expect((await as(owner).put(RESOURCES, { resources: [node("again", "m5.xlarge", { cluster: "six" })] })).status).toBe(200);
    const pod = (h: number, cpu: number) => ({
      cluster: "six",
      namespace: "resent",
      pod: "p",
      node: "again",
      timestamp: hour(D("2026-11-17"), h),
      cpu_request_cores: cpu,
      memory_request_gb: 1,
    });
    expect((await as(owner).post(PODS, { samples: [pod(2, 1), pod(3, 1), pod(4, 1)] })).status).toBe(200);
    // Hour 03 re-sent with 2 cores (between hours 02 and 06 of this batch), hour 06 new with 0.5.
    expect((await as(owner).post(PODS, { samples: [pod(6, 0.5), pod(3, 2)] })).status).toBe(200);
    const a = await allocation(owner, `start=${D("2026-11-17")}&end=${D("2026-11-18")}`);
    // 1 (02) + 2 (03, replacing 1) + 1 (04) + 0.5 (06) = 4.5 core-hours; 4 GB-hours.
    expect(byGroup(a).resent.cpu_core_hours).toBeCloseTo(4.5, 6);
    expect(byGroup(a).resent.ram_gb_hours).toBeCloseTo(4, 6);
    // Billed hours 02, 03, 04 and 06 (03 once): 4 x 0.192 = 0.768 -> 0.77.
    expect(a.totals.total_cost).toBe("0.77");
  });
});

describe("roll-ups", () => {
  // Each roll-up as the ingest keeps it, beside the same figures recomputed from the stored samples
  // (rows whose samples were all replaced away are kept at zero: left out on both sides).
  const compare = async (tenant: string) => {
    const q = <T>(sql: string) => ctx.prisma.$queryRawUnsafe<T[]>(sql, tenant);
    const claim = "greatest(cpu_request, coalesce(cpu_usage, 0))";
    const memClaim = "greatest(memory_request, coalesce(memory_usage, 0))";
    return {
      nodeHours: {
        kept: await q(`SELECT node, hour, pods, cpu_request::text, memory_request::text FROM kubernetes_node_hours
                       WHERE tenant_id = $1 AND pods <> 0 ORDER BY 1, 2`),
        recomputed: await q(`SELECT node, hour, count(*)::int AS pods, sum(cpu_request)::text AS cpu_request, sum(memory_request)::text AS memory_request
                             FROM kubernetes_pod_samples WHERE tenant_id = $1 GROUP BY 1, 2 ORDER BY 1, 2`),
      },
      nodeDays: {
        kept: await q(`SELECT node, day::text, cpu_claim::text, memory_claim::text FROM kubernetes_node_days
                       WHERE tenant_id = $1 AND (cpu_claim <> 0 OR memory_claim <> 0) ORDER BY 1, 2`),
        recomputed: await q(`SELECT node, (hour AT TIME ZONE 'UTC')::date::text AS day, sum(${claim})::text AS cpu_claim, sum(${memClaim})::text AS memory_claim
                             FROM kubernetes_pod_samples WHERE tenant_id = $1 GROUP BY 1, 2 ORDER BY 1, 2`),
      },
      claimDays: {
        kept: await q(`SELECT day::text, node, cluster, namespace, controller, samples, cpu_claim::text, memory_claim::text, cpu_usage::text, memory_usage::text
                       FROM kubernetes_claim_days WHERE tenant_id = $1 AND samples <> 0 ORDER BY 1, 2, 3, 4, 5`),
        recomputed: await q(`SELECT (hour AT TIME ZONE 'UTC')::date::text AS day, node, cluster, namespace, controller, count(*)::int AS samples,
                               sum(${claim})::text AS cpu_claim, sum(${memClaim})::text AS memory_claim,
                               sum(coalesce(cpu_usage, 0))::text AS cpu_usage, sum(coalesce(memory_usage, 0))::text AS memory_usage
                             FROM kubernetes_pod_samples WHERE tenant_id = $1 GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5`),
      },
      claimMonths: {
        kept: await q(`SELECT month::text, node, cluster, namespace, controller, samples, cpu_claim::text, memory_claim::text, cpu_usage::text, memory_usage::text
                       FROM kubernetes_claim_months WHERE tenant_id = $1 AND samples <> 0 ORDER BY 1, 2, 3, 4, 5`),
        recomputed:
          await q(`SELECT date_trunc('month', hour AT TIME ZONE 'UTC')::date::text AS month, node, cluster, namespace, controller, count(*)::int AS samples,
                               sum(${claim})::text AS cpu_claim, sum(${memClaim})::text AS memory_claim,
                               sum(coalesce(cpu_usage, 0))::text AS cpu_usage, sum(coalesce(memory_usage, 0))::text AS memory_usage
                             FROM kubernetes_pod_samples WHERE tenant_id = $1 GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5`),
      },
    };
  };
  const same = (pair: { kept: unknown[]; recomputed: unknown[] }) => {
    // Numerics compare by value (a kept sum may carry trailing zeros a fresh sum does not).
    const norm = (rows: unknown[]) =>
      JSON.stringify(rows, (_k, v) => (typeof v === "string" && /^-?\d+\.\d+$/.test(v) ? String(Number(v)) : v instanceof Date ? v.toISOString() : v));
    expect(norm(pair.kept)).toBe(norm(pair.recomputed));
    expect(pair.recomputed.length).toBeGreaterThan(0);
  };

  it("equal the stored samples after re-sent samples move pods between nodes and controllers", async () => {
    const fresh = await signUp(ctx, { email: "owner@k8s-rollups.test", company: "Rollups Co" });
    const who = { token: fresh.token, tenant: fresh.tenant.id };
    const nodes = ["r-a", "r-b", "r-c"].map((id) => node(id, "m5.xlarge", { cluster: "roll", node_pool: "p" }));
    expect((await as(who).put(RESOURCES, { resources: nodes })).status).toBe(200);
    const sample = (pod: number, h: number, shift: number) => ({
      cluster: "roll",
      // The namespace is part of a pod's key: a re-sent pod keeps it, and moves to another node and controller.
      namespace: `ns-${pod % 3}`,
      pod: `pod-${pod}`,
      node: `r-${"abc"[(pod + shift) % 3]}`,
      controller_kind: "Deployment",
      controller_name: `app-${(pod + shift) % 2}`,
      timestamp: hour(h < 24 ? D("2026-10-31") : D("2026-11-01"), h % 24),
      cpu_request_cores: 0.25 + ((pod + shift) % 4) * 0.5,
      memory_request_gb: 1 + ((pod * 3 + shift) % 5),
      ...(pod % 3 === 0 ? {} : { cpu_usage_cores: ((pod * 7 + h + shift) % 10) / 4, memory_usage_gb: ((pod + h * shift) % 7) * 1.5 }),
    });
    const batch = (hours: number[], pods: number, shift: number) => hours.flatMap((h) => Array.from({ length: pods }, (_, p) => sample(p, h, shift)));
    // Two days (hours 22 to 25 cross midnight and a month's end), then the same keys re-sent with every pod elsewhere,
    // then a batch mixing new hours with replacements of a part of the pods.
    expect((await as(who).post(PODS, { samples: batch([22, 23, 24, 25], 12, 0) })).status).toBe(200);
    expect((await as(who).post(PODS, { samples: batch([23, 24], 12, 1) })).status).toBe(200);
    expect((await as(who).post(PODS, { samples: [...batch([26], 12, 2), ...batch([22], 5, 2)] })).status).toBe(200);
    const rollups = await compare(who.tenant);
    same(rollups.nodeHours);
    same(rollups.nodeDays);
    same(rollups.claimDays);
    same(rollups.claimMonths);
  });

  it("stay equal to the samples when one request carries two clusters, hour after hour", async () => {
    const fresh = await signUp(ctx, { email: "owner@k8s-two-in-one.test", company: "Two In One Co" });
    const who = { token: fresh.token, tenant: fresh.tenant.id };
    const nodes = ["y-1", "z-1"].map((id) => node(id, "m5.xlarge", { cluster: id[0], node_pool: "p" }));
    expect((await as(who).put(RESOURCES, { resources: nodes })).status).toBe(200);
    const batch = (h: number, cpu: number) =>
      ["y", "z"].flatMap((cluster) =>
        [0, 1, 2].map((p) => ({
          cluster,
          namespace: "ns",
          pod: `pod-${p}`,
          node: `${cluster}-1`,
          timestamp: hour(D("2026-11-23"), h),
          cpu_request_cores: cpu,
          memory_request_gb: 1,
        })),
      );
    // The second and third hours update both clusters' claim rows of the day and month; the last re-sends one.
    for (const [h, cpu] of [
      [1, 0.5],
      [2, 0.25],
      [3, 1],
      [2, 2],
    ])
      expect((await as(who).post(PODS, { samples: batch(h, cpu) })).status).toBe(200);
    const rollups = await compare(who.tenant);
    same(rollups.claimDays);
    same(rollups.claimMonths);
    // Per cluster: 3 pods x (0.5 + 2 + 1) core-hours.
    const byCluster = byGroup(await allocation(who, `start=${D("2026-11-23")}&end=${D("2026-11-24")}&aggregate=cluster`));
    expect([byCluster.y.cpu_core_hours, byCluster.z.cpu_core_hours]).toEqual([10.5, 10.5]);
  });

  it("stay equal to the samples when batches of two clusters land at once, also on a node both name", async () => {
    const fresh = await signUp(ctx, { email: "owner@k8s-clusters.test", company: "Clusters Co" });
    const who = { token: fresh.token, tenant: fresh.tenant.id };
    const nodes = ["x-1", "x-2", "shared"].map((id) => node(id, "m5.xlarge", { cluster: "x", node_pool: "p" }));
    expect((await as(who).put(RESOURCES, { resources: nodes })).status).toBe(200);
    // Each cluster's agent sends 24 hours of 150 pods, a third of them on the node both name.
    const batch = (cluster: string, own: string) =>
      Array.from({ length: 24 * 150 }, (_, i) => ({
        cluster,
        namespace: "ns",
        pod: `pod-${i % 150}`,
        node: i % 3 === 0 ? "shared" : own,
        timestamp: hour(D("2026-11-22"), Math.floor(i / 150)),
        cpu_request_cores: 0.01,
        memory_request_gb: 0.02,
        cpu_usage_cores: (i % 7) / 100,
      }));
    const answers = await Promise.all([as(who).post(PODS, { samples: batch("east", "x-1") }), as(who).post(PODS, { samples: batch("west", "x-2") })]);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    const rollups = await compare(who.tenant);
    same(rollups.nodeHours);
    same(rollups.nodeDays);
    same(rollups.claimDays);
    same(rollups.claimMonths);
    // 2 x 3,600 samples, 2,400 of them on the shared node.
    const [{ n }] = await ctx.prisma.$queryRawUnsafe<{ n: number }[]>(
      "SELECT sum(pods)::int AS n FROM kubernetes_node_hours WHERE tenant_id = $1 AND node = 'shared'",
      who.tenant,
    );
    expect(n).toBe(2400);
  });
});

describe("node-pool right-sizing", () => {
  beforeAll(async () => {
    const nodes = Array.from({ length: 10 }, (_, i) => node(`pool-${i}`, "m5.2xlarge", { cluster: "prod", node_pool: "general" }));
    expect((await as(owner).put(RESOURCES, { resources: nodes })).status).toBe(200);
    const now = Date.now();
    const at = (hoursAgo: number) => new Date(Math.floor(now / 3_600_000 - hoursAgo) * 3_600_000).toISOString();
    const samples = [];
    // 20 hours: each with 4 pods of 2 cores / 8 GB and 4 of 1 core / 2 GB (12 cores, 40 GB), spread over the nodes.
    for (let h = 1; h <= 20; h++) {
      for (let p = 0; p < 8; p++) {
        const big = p < 4;
        samples.push({
          cluster: "prod",
          namespace: "apps",
          pod: `pod-${p}`,
          node: `pool-${p}`,
          timestamp: at(h),
          cpu_request_cores: big ? 2 : 1,
          memory_request_gb: big ? 8 : 2,
        });
      }
    }
    // One spike hour with an extra pod (13.5 cores, 44 GB): the highest of 20, above the 95th percentile (rank 19).
    samples.push({ cluster: "prod", namespace: "apps", pod: "spike", node: "pool-9", timestamp: at(1), cpu_request_cores: 1.5, memory_request_gb: 4 });
    expect((await as(owner).post(PODS, { samples })).status).toBe(200);
  });

  it("recommends the cheapest (type, count) fitting the p95 requests at 85% and the largest pod", async () => {
    const res = await as(owner).get(POOLS);
    expect(res.status).toBe(200);
    const { items } = NodePoolRecommendations.parse(res.body.data);
    const general = items.find((i) => i.cluster === "prod" && i.node_pool === "general");
    // Candidates of m5.2xlarge (x86_64, not burstable, no GPU) whose allocatable capacity fits a 2-core / 8 GB pod,
    // at 12 cores and 40 GB, 85% of allocatable (CPU less 6% of core 1, 1% of core 2, 0.5% of cores 3-4, 0.25% of the rest;
    // memory less 25% of the first 4 GB, 20% of the next 4, 10% of the next 8, 6% of the next 112, then 0.1 GB), min_nodes 2:
    //   m5.xlarge  (4/16): 3.92 cores, 13.3 GB:   max(ceil(12/3.332)=4, ceil(40/11.305)=4)    = 4 x 140.16 = 560.64
    //   m5.2xlarge (8/32): 7.91 cores, 28.34 GB:  max(ceil(12/6.7235)=2, ceil(40/24.089)=2)   = 2 x 280.32 = 560.64
    //   r5.large   (2/16): 1.93 cores, 13.3 GB:   max(ceil(12/1.6405)=8, ceil(40/11.305)=4)   = 8 x 91.98  = 735.84
    //   (m5.large, c5.xlarge and c5.large have 6.1, 6.1 and 2.9 GB allocatable, below the 8 GB pod; t3 is burstable,
    //   m6g arm64, g4dn has a GPU.)
    // A tie at 560.64: the current type wins. Current 10 x 0.384 x 730 = 10 x 280.32 = 2803.20.
    expect(general).toEqual({
      cluster: "prod",
      node_pool: "general",
      current: { instance_type: "m5.2xlarge", nodes: 10, monthly_cost_usd: 2803.2 },
      recommended: { instance_type: "m5.2xlarge", nodes: 2, monthly_cost_usd: 560.64 },
      savings_monthly_usd: 2242.56,
      requests: { cpu_cores: 12, memory_gb: 40, gpus: 0 },
      largest_pod: { cpu_cores: 2, memory_gb: 8, gpus: 0 },
      min_nodes: 2,
      hours: 20,
    });
    // The other tenant sees none of these pools.
    const theirs = NodePoolRecommendations.parse((await as(other).get(POOLS)).body.data);
    expect(theirs.items.map((i) => i.node_pool)).toEqual(["p"]);
  });

  it("counts only the pool's live nodes as current, its retired nodes' past requests still counting", async () => {
    for (const id of ["pool-8", "pool-9"]) {
      expect(
        (await request(ctx.app).delete(`${RESOURCES}/${id}`).set("Authorization", `Bearer ${owner.token}`).set("X-Service-Tenant-ID", owner.tenant)).status,
      ).toBe(204);
    }
    const { items } = NodePoolRecommendations.parse((await as(owner).get(POOLS)).body.data);
    const general = items.find((i) => i.cluster === "prod" && i.node_pool === "general");
    // 8 live nodes: 8 x 280.32 = 2242.56; the requests (12 cores, 40 GB) and the winner are unchanged: 2242.56 - 560.64 = 1681.92.
    expect(general?.current).toEqual({ instance_type: "m5.2xlarge", nodes: 8, monthly_cost_usd: 2242.56 });
    expect(general?.requests).toEqual({ cpu_cores: 12, memory_gb: 40, gpus: 0 });
    expect(general?.savings_monthly_usd).toBe(1681.92);
  });
});
