// Anomaly monitors per value of a dimension (docs/api.md, "Anomalies by dimension"): each value's
// usage cost after the dimension's splits is scored as a tenant's total is; a spike of a shared
// platform shows on the teams it is split to; the list takes a dimension:<key> filter.
import request from "supertest";
import { createTestContext, type TestContext } from "./helpers/context";
import { expectError, type SignedUp, signUp } from "./helpers/identity";
import { addDays, dayLine, seedSpend } from "./helpers/spend-seed";

let ctx: TestContext;
let owner: SignedUp;
const today = new Date().toISOString().slice(0, 10);
const day = (n: number) => addDays(today, n);

const TEAM = {
  name: "Team",
  rules: [{ value_from: "tag:team", match: { field: "tag:team", op: "present" } }],
  splits: [{ source: "platform", targets: ["web", "data"], method: "proportional" }],
};

interface Anomaly {
  id: string;
  monitor: { kind: string; service_name: string | null; dimension?: string; value?: string | null };
  service_name: string | null;
  start: string;
  end: string;
  cost: string;
  expected: string;
  impact: string;
  reason: string;
}

const anomalies = (query: string) =>
  request(ctx.app)
    .get(`/api/v1/tenant/spend/anomalies?start=${day(-40)}${query}`)
    .set("Authorization", `Bearer ${owner.token}`)
    .set("X-Service-Tenant-ID", owner.tenant.id);
const ofDimension = (items: Anomaly[]) => items.filter((a) => a.monitor.kind === "dimension");

beforeAll(async () => {
  ctx = await createTestContext();
  owner = await signUp(ctx, { company: "Dimension Monitors Co" });
  const tenant = owner.tenant.id;
  // 35 days: web 100, data 50 and the shared platform 30 a day; yesterday the platform costs 330.
  const lines = Array.from({ length: 35 }, (_, i) => day(-35 + i)).flatMap((d) => [
    dayLine(tenant, d, "100", { tags: { team: "web" } }),
    dayLine(tenant, d, "50", { serviceName: "Amazon S3", tags: { team: "data" } }),
    dayLine(tenant, d, d === day(-1) ? "330" : "30", { serviceName: "Amazon EKS", tags: { team: "platform" } }),
  ]);
  await seedSpend(ctx, owner.organization.id, lines);
  await request(ctx.app)
    .put(`/api/v1/organizations/${owner.organization.id}/dimensions/team`)
    .set("Authorization", `Bearer ${owner.token}`)
    .send(TEAM)
    .expect(200);
  await ctx.deps.dimensionApply.runNow();
});
afterAll(async () => {
  await ctx?.close();
});

test("a shared platform's spike is an anomaly of each team it is split to, in proportion to their direct cost", async () => {
  const res = await request(ctx.app)
    .post("/api/v1/tenant/spend/anomalies/detect")
    .set("Authorization", `Bearer ${owner.token}`)
    .set("X-Service-Tenant-ID", owner.tenant.id)
    .send({ days: 10 });
  expect(res.status).toBe(200);
  const found = ofDimension(res.body.data.anomalies).sort((a, b) => (a.monitor.value ?? "").localeCompare(b.monitor.value ?? ""));
  // Normal day: the platform's 30 split by direct cost (web 100 : data 50): web 100 + 20 = 120, data 50 + 10 = 60.
  // Yesterday: 330 split the same way: web 100 + 220 = 320, data 50 + 110 = 160. The expected cost is the
  // median of the same weekday of the 4 weeks before (120 and 60): impacts 200 and 100, above both floors
  // (10, and 30 % of 120 = 36 / of 60 = 18), scores 200 / 0.01 and 100 / 0.01 (a flat history: MAD 0).
  expect(found).toEqual([
    expect.objectContaining({
      monitor: { kind: "dimension", service_name: null, dimension: "team", value: "data" },
      service_name: null,
      start: day(-1),
      end: day(-1),
      cost: "160.00",
      expected: "60.00",
      impact: "100.00",
      reason: "spike",
    }),
    expect.objectContaining({
      monitor: { kind: "dimension", service_name: null, dimension: "team", value: "web" },
      cost: "320.00",
      expected: "120.00",
      impact: "200.00",
    }),
  ]);
  // The platform's own value keeps nothing after its split: no monitor. The service (EKS) and the total still see the spike.
  const kinds = res.body.data.anomalies.map((a: Anomaly) => `${a.monitor.kind}:${a.monitor.service_name ?? a.monitor.value ?? ""}`).sort();
  expect(kinds).toEqual(["dimension:data", "dimension:web", "service:Amazon EKS", "total:"]);
  const events = await ctx.prisma.webhookEvent.findMany({ where: { organizationId: owner.organization.id, type: "anomaly.detected" } });
  expect(events).toHaveLength(4);

  const again = await request(ctx.app)
    .post("/api/v1/tenant/spend/anomalies/detect")
    .set("Authorization", `Bearer ${owner.token}`)
    .set("X-Service-Tenant-ID", owner.tenant.id)
    .send({ days: 10 });
  expect(again.body.data).toMatchObject({ detected: 0, extended: 0 });
});

test("the list takes dimension:<key> with values, none (every value) or __unallocated__", async () => {
  const web = await anomalies("&dimension:team=web");
  expect(web.status).toBe(200);
  expect(web.body.data.items.map((a: Anomaly) => a.monitor)).toEqual([{ kind: "dimension", service_name: null, dimension: "team", value: "web" }]);
  const every = await anomalies("&dimension:team=");
  expect(every.body.data.items.map((a: Anomaly) => a.monitor.value).sort()).toEqual(["data", "web"]);
  const unallocated = await anomalies("&dimension:team=__unallocated__");
  expect(unallocated.body.data.items).toEqual([]);
  // Without a filter: the services and the total first, then the dimension's values.
  const all = await anomalies("");
  expect(all.body.data.items.map((a: Anomaly) => a.monitor.kind)).toEqual(["service", "total", "dimension", "dimension"]);
});

test("an unknown dimension, a malformed key and two dimensions are 400s naming the parameter", async () => {
  expectError(await anomalies("&dimension:nope=a"), 400, /dimension:nope: no dimension nope/);
  expectError(await anomalies("&dimension:Team=a"), 400, /dimension:Team/);
  expectError(await anomalies("&dimension:team=a&dimension:other=b"), 400, /dimension:other: one dimension per query/);
});
