import request from "supertest";
import { RecommendationSummary, RecommendationsPage } from "@cloudcost/contracts";
import { samplesFor, shaped, vm } from "./helpers/compute-fleet";
import { startPricingStub, type PricingStub } from "./helpers/compute-pricing-stub";
import { createTestContext, type TestContext } from "./helpers/context";
import { addUser, signUp } from "./helpers/identity";

let ctx: TestContext;
let stub: PricingStub;
let owner: { token: string; tenant: string };
let stranger: { token: string; tenant: string };
let viewerToken: string;
let memberToken: string;

const api = (method: "get" | "put" | "post", path: string, token = owner.token, tenant: string | null = owner.tenant) => {
  let req = request(ctx.app)[method](path).set("Authorization", `Bearer ${token}`);
  if (tenant !== null) req = req.set("X-Service-Tenant-ID", tenant);
  return req;
};
const SUMMARY = "/api/v1/tenant/compute/recommendations/summary";
const LIST = "/api/v1/tenant/compute/recommendations";
const cents = (usd: number) => Math.round(usd * 100);

/** What the test expects of each VM, written down by hand from the fixture prices (not computed by the code under test). */
interface Expected {
  id: string;
  provider: string;
  region: string;
  zone: string;
  type: string;
  arch: string;
  os: string;
  action: string | null;
  savingsCents: number;
  active: boolean;
  recommended?: string;
}
const fleet: Expected[] = [];
const add = (e: Omit<Expected, "provider" | "region" | "zone" | "arch" | "os"> & Partial<Expected>) =>
  fleet.push({ provider: "aws", region: "us-east-1", zone: "us-east-1a", arch: "x86_64", os: "linux", ...e });

const IDLE_TYPES: [string, number][] = [
  ["m5.xlarge", 14016], // 0.192 × 730
  ["m5.large", 7008], // 0.096 × 730
  ["c5.large", 6205], // 0.085 × 730
];
for (let i = 1; i <= 12; i++) {
  const [type, saving] = IDLE_TYPES[i % 3];
  add({ id: `idle-${String(i).padStart(2, "0")}`, type, action: "TERMINATE", savingsCents: saving, active: false, zone: i % 2 ? "us-east-1a" : "us-east-1b" });
}
add({ id: "light", type: "m5.2xlarge", action: "DOWNSIZE", savingsCents: 14016, active: true, recommended: "m5.xlarge" });
add({ id: "hot", type: "c5.large", action: "UPSIZE", savingsCents: -6205, active: true, recommended: "c5.xlarge" });
add({ id: "fit", type: "m5.large", action: "NOOP", savingsCents: 0, active: true, recommended: "m5.large" });
add({ id: "few", type: "m5.large", action: "NO_RECOMMENDATION", savingsCents: 0, active: true });
add({ id: "arm", type: "m6g.large", arch: "arm64", action: "NO_RECOMMENDATION", savingsCents: 0, active: true });
add({ id: "win", type: "m5.large", os: "windows", action: "NO_RECOMMENDATION", savingsCents: 0, active: true });
add({
  id: "azure",
  provider: "azure",
  region: "eastus",
  zone: "eastus-1",
  type: "Standard_D4s_v5",
  action: "DOWNSIZE",
  savingsCents: 7008,
  active: true,
  recommended: "Standard_D2s_v5",
});
add({
  id: "gcp",
  provider: "gcp",
  region: "us-central1",
  zone: "us-central1-a",
  type: "n2-standard-4",
  action: "TERMINATE",
  savingsCents: 14179,
  active: true,
});
add({ id: "pending-hb", type: "m5.large", action: null, savingsCents: 0, active: true });
add({ id: "pending-cold", type: "m5.large", action: null, savingsCents: 0, active: false });

/** The summary the test expects for a subset of the fleet, in integer cents. */
function expectedSummary(rows: Expected[]) {
  const count = (a: string | null) => rows.filter((r) => r.action === a).length;
  const actionable = rows.filter((r) => ["DOWNSIZE", "UPSIZE", "TERMINATE"].includes(r.action ?? ""));
  const monthlyCents = actionable.reduce((sum, r) => sum + r.savingsCents, 0);
  const top = actionable
    .filter((r) => r.savingsCents > 0)
    .sort((a, b) => b.savingsCents - a.savingsCents || (a.id < b.id ? -1 : 1))
    .slice(0, 10);
  const total = rows.length;
  return {
    total_resources: total,
    analyzed_resources: total - count(null),
    analysis_coverage: total === 0 ? 0 : (total - count(null)) / total,
    action_counts: {
      downsize: count("DOWNSIZE"),
      upsize: count("UPSIZE"),
      terminate: count("TERMINATE"),
      noop: count("NOOP"),
      no_recommendation: count("NO_RECOMMENDATION"),
      pending: count(null),
    },
    actionable_count: actionable.length,
    monthlyCents,
    annualCents: monthlyCents * 12,
    top: top.map((r) => [r.id, r.savingsCents]),
  };
}

async function summaryOf(query: string, tenant = owner.tenant, token = owner.token) {
  const res = await api("get", `${SUMMARY}${query}`, token, tenant).expect(200);
  const data = RecommendationSummary.parse(res.body.data);
  const { potential_savings_monthly_usd, potential_savings_annual_usd, top_savers, ...rest } = data;
  return {
    ...rest,
    monthlyCents: cents(potential_savings_monthly_usd),
    annualCents: cents(potential_savings_annual_usd),
    top: top_savers.map((t) => [t.resource_id, cents(t.savings_monthly_usd)]),
    raw: data,
  };
}

beforeAll(async () => {
  stub = await startPricingStub(1500);
  ctx = await createTestContext({
    PRICING_API_URL: stub.url,
    // Generous: the stub answers at once; a loaded machine may not within a few hundred ms.
    PRICING_API_TIMEOUT_MS: "10000",
    ANALYSIS_INTERVAL_MINUTES: "0",
  });
  const a = await signUp(ctx, { email: "owner@compute.test", company: "Compute Co" });
  owner = { token: a.token, tenant: a.tenant.id };
  const b = await signUp(ctx, { email: "owner@other.test", company: "Other Co" });
  stranger = { token: b.token, tenant: b.tenant.id };
  memberToken = (await addUser(ctx, { orgId: a.organization.id, ownerToken: a.token, email: "m@compute.test", role: "member", tenantIds: [a.tenant.id] }))
    .token;
  viewerToken = (await addUser(ctx, { orgId: a.organization.id, ownerToken: a.token, email: "v@compute.test", role: "viewer", tenantIds: [a.tenant.id] }))
    .token;

  const toInput = (e: Expected) =>
    vm(e.id, e.type, {
      provider: e.provider,
      region: e.region,
      availability_zone: e.zone,
      architecture: e.arch as "x86_64",
      operating_system: e.os as "linux",
    });
  const resources = fleet.filter((e) => e.action !== null).map(toInput);
  resources.push(vm("node", "m5.xlarge", { resource_type: "kubernetes_node" }));
  await api("put", "/api/v1/tenant/compute/resources", memberToken)
    .send({ resources })
    .expect(200, { message: `Upserted ${resources.length} resources`, status: "success", data: { upserted: resources.length } });
  const samples = [
    ...fleet.filter((e) => e.id.startsWith("idle")).flatMap((e) => shaped(e.id, 1.5, 4, undefined, 120)),
    ...shaped("light", 20, 35, 30),
    ...shaped("hot", 95, 100, 50),
    ...shaped("fit", 60, 80, 70),
    ...samplesFor("few", 11, 180, () => 50),
    ...samplesFor("arm", 5, 60, () => 50),
    ...shaped("win", 40, 60),
    ...shaped("azure", 20, 35, 30),
    ...shaped("gcp", 1, 2),
    ...shaped("node", 10, 20),
  ];
  await api("post", "/api/v1/tenant/compute/metrics", memberToken).send({ samples }).expect(200);
  // Analyze, then add the pending ones (never analyzed); one of them sends a heartbeat.
  const cycle = await api("post", "/api/v1/tenant/compute/recommendations/analyze").expect(200);
  expect(cycle.body.data).toEqual({ analyzed_resources: resources.length, duration_ms: expect.any(Number) });
  const pending = fleet.filter((e) => e.action === null).map(toInput);
  await api("put", "/api/v1/tenant/compute/resources").send({ resources: pending }).expect(200);
  await api("post", "/api/v1/tenant/compute/heartbeats")
    .send({ resource_ids: ["pending-hb"] })
    .expect(200);
  await api("put", "/api/v1/tenant/compute/resources").send({ resources: [] }).expect(400);
});
afterAll(async () => {
  await stub.close();
  await ctx.close();
});

describe("compute recommendations over HTTP", () => {
  it("gives each scenario its action (list endpoint)", async () => {
    const res = await api("get", `${LIST}?limit=500&resource_type=virtual_machine`).expect(200);
    const page = RecommendationsPage.parse(res.body.data);
    for (const e of fleet) {
      const item = page.items.find((i) => i.resource_id === e.id)!;
      expect({ id: e.id, action: item.action, savings: item.savings_monthly_usd === null ? 0 : cents(item.savings_monthly_usd) }).toEqual({
        id: e.id,
        action: e.action,
        savings: e.savingsCents,
      });
      if (e.recommended) expect(item.recommended_instance_type).toBe(e.recommended);
      expect(item.active).toBe(e.active);
    }
    const pending = page.items.find((i) => i.resource_id === "pending-cold")!;
    expect(pending).toMatchObject({ action: null, stats: null, analyzed_at: null, recommended_instance_type: null });
    const node = await api("get", `${LIST}?resource_type=kubernetes_node`).expect(200);
    expect(node.body.data.items).toMatchObject([
      { resource_id: "node", action: "DOWNSIZE", recommended_instance_type: "r5.large", savings_monthly_usd: 48.18 },
    ]);
  });

  it("summary of the whole fleet: counts, coverage, arithmetic to the cent, top savers", async () => {
    const got = await summaryOf("");
    const want = expectedSummary(fleet);
    expect(got).toMatchObject(want);
    expect(got.top).toHaveLength(10);
    expect(Object.values(got.action_counts).reduce((a, b) => a + b, 0)).toBe(got.total_resources);
    expect(got.raw.top_savers[0]).toEqual({
      resource_id: "gcp",
      name: "name of gcp",
      resource_type: "virtual_machine",
      current_instance_type: "n2-standard-4",
      recommended_instance_type: "",
      savings_monthly_usd: 141.79,
    });
  });

  it.each([
    ["?provider=aws", (e: Expected) => e.provider === "aws"],
    ["?provider=azure,gcp", (e: Expected) => e.provider !== "aws"],
    ["?provider=azure&provider=gcp", (e: Expected) => e.provider !== "aws"],
    ["?provider=%20azure%20,,&provider=gcp", (e: Expected) => e.provider !== "aws"],
    ["?region=us-east-1", (e: Expected) => e.region === "us-east-1"],
    ["?availability_zone=us-east-1b", (e: Expected) => e.zone === "us-east-1b"],
    ["?instance_type=m5.large,c5.large", (e: Expected) => ["m5.large", "c5.large"].includes(e.type)],
    ["?architecture=arm64", (e: Expected) => e.arch === "arm64"],
    ["?operating_system=windows", (e: Expected) => e.os === "windows"],
    ["?active=true", (e: Expected) => e.active],
    ["?active=FALSE", (e: Expected) => !e.active],
    [
      "?provider=aws&instance_type=m5.large&active=true&operating_system=linux",
      (e: Expected) => e.provider === "aws" && e.type === "m5.large" && e.active && e.os === "linux",
    ],
    [
      "?provider=aws,azure&region=us-east-1,eastus&architecture=x86_64&availability_zone=us-east-1a&availability_zone=eastus-1",
      (e: Expected) => e.provider !== "gcp" && e.arch === "x86_64" && ["us-east-1a", "eastus-1"].includes(e.zone),
    ],
    ["?provider=nowhere", () => false],
  ])("filter %s", async (query, keep) => {
    expect(await summaryOf(query)).toMatchObject(expectedSummary(fleet.filter(keep)));
  });

  it("kubernetes nodes are summarised apart", async () => {
    const got = await summaryOf("?resource_type=kubernetes_node");
    expect(got).toMatchObject({ total_resources: 1, analyzed_resources: 1, action_counts: { downsize: 1 }, monthlyCents: 4818, annualCents: 4818 * 12 });
  });

  it("an empty tenant answers zeros", async () => {
    const got = await summaryOf("", stranger.tenant, stranger.token);
    expect(got.raw).toEqual({
      total_resources: 0,
      analyzed_resources: 0,
      analysis_coverage: 0,
      action_counts: { downsize: 0, upsize: 0, terminate: 0, noop: 0, no_recommendation: 0, pending: 0 },
      actionable_count: 0,
      potential_savings_monthly_usd: 0,
      potential_savings_annual_usd: 0,
      top_savers: [],
    });
  });

  it("rejects bad parameters (400), missing credentials (401), foreign tenants (403)", async () => {
    for (const query of [
      "?resource_type=database",
      "?active=yes",
      "?active=",
      "?architecture=amd64",
      "?resource_type=virtual_machine&resource_type=kubernetes_node",
    ]) {
      const res = await api("get", `${SUMMARY}${query}`).expect(400);
      expect(res.body).toEqual({ message: expect.any(String), status: "error" });
    }
    await api("get", SUMMARY, owner.token, null).expect(400);
    await api("get", SUMMARY, owner.token, "").expect(400);
    await request(ctx.app).get(SUMMARY).set("X-Service-Tenant-ID", owner.tenant).expect(401);
    await api("get", SUMMARY, owner.token, stranger.tenant).expect(403);
    await api("get", LIST, stranger.token, owner.tenant).expect(403);
    await api("get", `${LIST}?cursor=not-a-cursor`).expect(400);
    await api("get", `${LIST}?limit=501`).expect(400);
    await api("get", `${LIST}?action=SHUTDOWN`).expect(400);
  });

  it("lists with the action filter and keyset pages in byte order", async () => {
    const pending = await api("get", `${LIST}?action=PENDING`).expect(200);
    expect(pending.body.data.items.map((i: { resource_id: string }) => i.resource_id)).toEqual(["pending-cold", "pending-hb"]);
    const some = await api("get", `${LIST}?action=UPSIZE,PENDING&action=NOOP`).expect(200);
    expect(some.body.data.items.map((i: { resource_id: string }) => i.resource_id)).toEqual(["fit", "hot", "pending-cold", "pending-hb"]);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res: request.Response = await api("get", `${LIST}?limit=7${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`).expect(200);
      seen.push(...res.body.data.items.map((i: { resource_id: string }) => i.resource_id));
      cursor = res.body.data.next_cursor;
    } while (cursor);
    expect(seen).toEqual(fleet.map((e) => e.id).sort((a, b) => (Buffer.from(a) < Buffer.from(b) ? -1 : 1)));
  });

  it("only owners and admins analyze; viewers write nothing; members send inventory", async () => {
    await api("post", "/api/v1/tenant/compute/recommendations/analyze", memberToken).expect(403);
    await api("put", "/api/v1/tenant/compute/resources", viewerToken)
      .send({ resources: [vm("v1", "m5.large")] })
      .expect(403);
    await api("post", "/api/v1/tenant/compute/heartbeats", viewerToken)
      .send({ resource_ids: ["fit"] })
      .expect(403);
    await api("get", SUMMARY, viewerToken).expect(200);
    await api("post", "/api/v1/tenant/compute/recommendations/analyze", owner.token, stranger.tenant).expect(403);
  });

  it("fails soft when the pricing API is down: 503, previous results kept, summary still answers", async () => {
    // A region the app's catalog cache has not seen yet, so the cycle must call the pricing API.
    await api("put", "/api/v1/tenant/compute/resources")
      .send({ resources: [vm("fresh", "m5.2xlarge", { provider: "azure", region: "westeurope" })] })
      .expect(200);
    await api("post", "/api/v1/tenant/compute/metrics")
      .send({ samples: shaped("fresh", 1, 2) })
      .expect(200);
    const before = await summaryOf("");
    stub.mode = "error500";
    try {
      const res = await api("post", "/api/v1/tenant/compute/recommendations/analyze").expect(503);
      expect(res.body).toEqual({ message: expect.stringMatching(/pricing API is unavailable/), status: "error" });
      expect(res.headers["x-error-code"]).toBe("pricing_unavailable");
      expect(await summaryOf("")).toEqual(before);
    } finally {
      stub.mode = "ok";
    }
  });
});

describe("inventory validation", () => {
  const metrics = "/api/v1/tenant/compute/metrics";
  const sampleCount = async () =>
    (await ctx.prisma.$queryRawUnsafe<{ n: number }[]>("SELECT count(*)::int AS n FROM compute_samples WHERE tenant_id = $1", owner.tenant))[0].n;

  it("rejects oversized, unknown, out-of-range and badly dated input, storing nothing", async () => {
    const before = await sampleCount();
    const tooMany = Array.from({ length: 1001 }, (_, i) => ({ resource_id: `x-${i}` }));
    await api("put", "/api/v1/tenant/compute/resources").send({ resources: tooMany }).expect(400);
    const sample = { resource_id: "fit", timestamp: new Date().toISOString(), cpu_utilization: 10 };
    await api("post", metrics)
      .send({ samples: Array(10_001).fill(sample) })
      .expect(400);
    const unknown = await api("post", metrics)
      .send({ samples: [sample, { ...sample, resource_id: "ghost-1" }] })
      .expect(400);
    expect(unknown.body.message).toContain("ghost-1");
    await api("post", metrics)
      .send({ samples: [{ ...sample, cpu_utilization: 101 }] })
      .expect(400);
    await api("post", metrics)
      .send({ samples: [{ ...sample, memory_utilization: -1 }] })
      .expect(400);
    await api("post", metrics)
      .send({ samples: [{ ...sample, timestamp: "yesterday" }] })
      .expect(400);
    await api("post", metrics)
      .send({ samples: [{ ...sample, timestamp: "2026-11-21T25:00:00Z" }] })
      .expect(400);
    await api("post", metrics)
      .send({ samples: [{ ...sample, timestamp: new Date(Date.now() + 3600_000).toISOString() }] })
      .expect(400);
    await api("post", "/api/v1/tenant/compute/heartbeats")
      .send({ resource_ids: ["ghost-2"] })
      .expect(400);
    expect(await sampleCount()).toBe(before);
    const stored = await ctx.prisma.$queryRawUnsafe<{ n: number }[]>("SELECT count(*)::int AS n FROM compute_resources WHERE resource_id LIKE 'x-%'");
    expect(stored[0].n).toBe(0);
  });

  it("a duplicate timestamp overwrites; a sample and a heartbeat bump last_heartbeat_at, an upsert does not", async () => {
    await api("put", "/api/v1/tenant/compute/resources")
      .send({ resources: [vm("beat", "m5.large")] })
      .expect(200);
    const summaryActive = async () => (await summaryOf("?active=true&instance_type=m5.large")).total_resources;
    const activeBefore = await summaryActive();
    await api("put", "/api/v1/tenant/compute/resources")
      .send({ resources: [vm("beat", "m5.large", { name: "renamed" })] })
      .expect(200);
    expect(await summaryActive()).toBe(activeBefore);
    const ts = new Date(Date.now() - 60_000).toISOString();
    const body = {
      samples: [
        { resource_id: "beat", timestamp: ts, cpu_utilization: 10 },
        { resource_id: "beat", timestamp: ts, cpu_utilization: 20 },
      ],
    };
    await api("post", metrics, memberToken)
      .send(body)
      .expect(200, { message: "Accepted 2 samples", status: "success", data: { accepted: 2 } });
    const rows = await ctx.prisma.$queryRawUnsafe<{ cpu: number }[]>(
      "SELECT cpu_utilization AS cpu FROM compute_samples WHERE tenant_id = $1 AND resource_id = 'beat'",
      owner.tenant,
    );
    expect(rows).toEqual([{ cpu: 20 }]);
    expect(await summaryActive()).toBe(activeBefore + 1);
    const hb = await api("post", "/api/v1/tenant/compute/heartbeats", memberToken)
      .send({ resource_ids: ["pending-hb", "pending-hb"] })
      .expect(200);
    expect(hb.body.data).toEqual({ accepted: 1 });
  });

  it("stores samples of ids that an array literal would misread, offsets as sent, utilization rounded half-up to 0.01", async () => {
    // Quotes, backslashes, separators, braces, blanks, the word NULL and non-ASCII text: each must
    // reach its own resource (the batch travels as PostgreSQL array literals, inventory-service.ts).
    const ids = ['q"uote', "back\\slash", "a,b", "{brace}", " padded ", "NULL", "", "zürich-✓"].map((id) => `lit-${id}`);
    await api("put", "/api/v1/tenant/compute/resources")
      .send({ resources: ids.map((id) => vm(id, "m5.large")) })
      .expect(200);
    const at = Date.now() - 120_000;
    // Rounded half-up from the decimal the client wrote (2.675 is 2.67499... as a double, and still 2.68).
    const memory = [1e-7, 10.005, 35.905, 0.125, 99.995, 50, 2.675, 35.904];
    const stored = [0, 10.01, 35.91, 0.13, 100, 50, 2.68, 35.9];
    const samples = ids.flatMap((id, i) => [
      { resource_id: id, timestamp: new Date(at - i * 1000).toISOString(), cpu_utilization: i + 0.25, memory_utilization: memory[i] },
      // Another offset and second precision: normalised to the same kind of UTC instant.
      { resource_id: id, timestamp: new Date(at - i * 1000 - 60_000).toISOString().replace(/\.\d{3}Z$/, "+00:00"), cpu_utilization: 100 },
    ]);
    await api("post", metrics).send({ samples }).expect(200);
    const rows = await ctx.prisma.$queryRawUnsafe<{ id: string; ts: Date; cpu: number; mem: number | null }[]>(
      `SELECT resource_id AS id, ts, cpu_utilization AS cpu, memory_utilization AS mem FROM compute_samples
       WHERE tenant_id = $1 AND resource_id LIKE 'lit-%' ORDER BY resource_id COLLATE "C", ts`,
      owner.tenant,
    );
    const expected = samples
      .map((s) => ({
        id: s.resource_id,
        ts: new Date(s.timestamp),
        cpu: s.cpu_utilization,
        mem: s.memory_utilization === undefined ? null : stored[memory.indexOf(s.memory_utilization)],
      }))
      .sort((a, b) => (a.id === b.id ? a.ts.getTime() - b.ts.getTime() : a.id < b.id ? -1 : 1));
    expect(rows).toEqual(expected);
  });
});

describe("the organization's active window", () => {
  it("decides `active` in the summary filter and the list, and follows a settings change", async () => {
    const org = await signUp(ctx, { email: "window-owner@example.com" });
    const as = (r: request.Test) => r.set("Authorization", `Bearer ${org.token}`).set("X-Service-Tenant-ID", org.tenant.id);
    await as(request(ctx.app).put("/api/v1/tenant/compute/resources"))
      .send({ resources: [vm("w-20", "m5.large"), vm("w-05", "m5.large")] })
      .expect(200);
    for (const [id, minutes] of [
      ["w-20", 20],
      ["w-05", 5],
    ] as const) {
      await as(request(ctx.app).post("/api/v1/tenant/compute/heartbeats"))
        .send({ resource_ids: [id], timestamp: new Date(Date.now() - minutes * 60_000).toISOString() })
        .expect(200);
    }
    const totals = async () => {
      const count = async (active: boolean) => (await as(request(ctx.app).get(`${SUMMARY}?active=${active}`)).expect(200)).body.data.total_resources;
      const items = (await as(request(ctx.app).get(LIST)).expect(200)).body.data.items as { resource_id: string; active: boolean }[];
      return { active: await count(true), inactive: await count(false), listed: Object.fromEntries(items.map((i) => [i.resource_id, i.active])) };
    };
    expect(await totals()).toEqual({ active: 1, inactive: 1, listed: { "w-05": true, "w-20": false } });
    await request(ctx.app)
      .patch(`/api/v1/organizations/${org.organization.id}/settings`)
      .set("Authorization", `Bearer ${org.token}`)
      .send({ active_window_minutes: 30 })
      .expect(200);
    expect(await totals()).toEqual({ active: 2, inactive: 0, listed: { "w-05": true, "w-20": true } });
  });
});
