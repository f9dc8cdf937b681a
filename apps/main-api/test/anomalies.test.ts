// Anomalies through the API: detection on demand over the ledger's roll-up, stored with expected
// cost, impact and score, `anomaly.detected` once per anomaly, feedback, and the organization's floors.
// The v2 rules (weekday baseline, merged ranges, new services, usage only, mutes, currencies, the
// total monitor, re-detection after imports) are in anomalies-v2.test.ts.
import request from "supertest";
import { anomalyServiceOver } from "../src/anomalies/service";
import { buildDeps } from "../src/compose";
import { createTestContext, type TestContext } from "./helpers/context";
import { addUser, signUp, type SignedUp } from "./helpers/identity";
import { addDays, dayLine, seedSpend } from "./helpers/spend-seed";
import { startReceiver } from "./helpers/webhook-receiver";

let ctx: TestContext;
let owner: SignedUp;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
const today = new Date().toISOString().slice(0, 10);
const spikeDay = addDays(today, -2);

beforeAll(async () => {
  ctx = await createTestContext();
  owner = await signUp(ctx, { company: "Anomaly Co" });
  receiver = await startReceiver();
  const hook = await request(ctx.app)
    .post(`/api/v1/organizations/${owner.organization.id}/webhooks`)
    .set("Authorization", `Bearer ${owner.token}`)
    .send({ url: receiver.url, events: ["anomaly.detected"] });
  expect(hook.status).toBe(201);
  // 20 days ending yesterday: EC2 100 a day with 300 two days ago; S3 5 a day with 14 the same day
  // (9 USD over: under the 10 USD floor); today's partial spend is never scored.
  const lines = [];
  for (let d = -20; d < 0; d++) {
    const day = addDays(today, d);
    lines.push(dayLine(owner.tenant.id, day, day === spikeDay ? "300" : "100"));
    lines.push(dayLine(owner.tenant.id, day, day === spikeDay ? "14" : "5", { serviceName: "Amazon S3" }));
  }
  lines.push(dayLine(owner.tenant.id, today, "5000"));
  await seedSpend(ctx, owner.organization.id, lines);
});
afterAll(async () => {
  await receiver?.close();
  await ctx?.close();
});

const api = (method: "get" | "post" | "patch", path: string, token = owner.token) =>
  request(ctx.app)[method](`/api/v1/tenant/spend/anomalies${path}`).set("Authorization", `Bearer ${token}`).set("X-Service-Tenant-ID", owner.tenant.id);

test("detects the spike once per monitor (the service and the tenant's total), stores it with expected cost, impact and score, and emits anomaly.detected once each", async () => {
  const first = await api("post", "/detect").send({});
  expect(first.status).toBe(200);
  const range = { currency: "USD", start: spikeDay, end: spikeDay, days: 1, day: spikeDay, reason: "spike", feedback: null };
  const service = {
    id: expect.stringMatching(/^ano_/),
    monitor: { kind: "service", service_name: "Amazon EC2" },
    service_name: "Amazon EC2",
    ...range,
    cost: "300.00",
    expected: "100.00",
    impact: "200.00",
    // MAD of a flat history is 0: the divisor is floored at 0.01.
    score: "20000.00",
  };
  // EC2 + S3: 105 a day, 314 that day.
  const total = {
    ...service,
    monitor: { kind: "total", service_name: null },
    service_name: null,
    cost: "314.00",
    expected: "105.00",
    impact: "209.00",
    score: "20900.00",
  };
  expect(first.body.data).toEqual({ detected: 2, extended: 0, anomalies: [service, total] });
  const again = await api("post", "/detect").send({ days: 30 });
  expect(again.body.data).toEqual({ detected: 0, extended: 0, anomalies: [] });
  const list = await api("get", "");
  expect(list.status).toBe(200);
  expect(list.body.data.items).toEqual([service, total]);

  await ctx.outbox.drain();
  expect(receiver.received).toHaveLength(2);
  expect(receiver.received.map((r) => JSON.parse(r.body))).toEqual(
    expect.arrayContaining([
      expect.objectContaining({ type: "anomaly.detected", organization_id: owner.organization.id, data: { tenant_id: owner.tenant.id, anomaly: service } }),
      expect.objectContaining({ type: "anomaly.detected", organization_id: owner.organization.id, data: { tenant_id: owner.tenant.id, anomaly: total } }),
    ]),
  );
});

test("feedback, and who may do what", async () => {
  const [anomaly] = (await api("get", "")).body.data.items;
  const res = await api("patch", `/${anomaly.id}`).send({ feedback: "planned_activity" });
  expect([res.status, res.body.data.feedback]).toEqual([200, "planned_activity"]);
  expect((await api("patch", `/${anomaly.id}`).send({ feedback: "maybe" })).status).toBe(400);
  expect((await api("patch", "/ano_unknown").send({ feedback: "no" })).status).toBe(404);
  const viewer = await addUser(ctx, { orgId: owner.organization.id, ownerToken: owner.token, role: "viewer", tenantIds: [owner.tenant.id] });
  expect((await api("get", "", viewer.token)).status).toBe(200);
  expect((await api("post", "/detect", viewer.token).send({})).status).toBe(403);
  expect((await api("patch", `/${anomaly.id}`, viewer.token).send({ feedback: "no" })).status).toBe(403);
  expect((await api("get", `?start=${today}&end=${addDays(today, -1)}`)).status).toBe(400);
  expect((await api("get", `?start=${addDays(today, -1)}&end=${today}`)).body.data.items).toEqual([]);
});

test("the organization's floors decide: with 3 USD the S3 spike (+9 USD, +180 %) is an anomaly", async () => {
  const settings = await request(ctx.app)
    .patch(`/api/v1/organizations/${owner.organization.id}/settings`)
    .set("Authorization", `Bearer ${owner.token}`)
    .send({ anomaly_min_usd: 3 });
  expect(settings.body.data).toMatchObject({ anomaly_min_usd: 3, anomaly_min_percent: 30 });
  const res = await api("post", "/detect").send({});
  expect(res.body.data.anomalies).toEqual([
    expect.objectContaining({ day: spikeDay, service_name: "Amazon S3", cost: "14.00", expected: "5.00", impact: "9.00" }),
  ]);
  await request(ctx.app)
    .patch(`/api/v1/organizations/${owner.organization.id}/settings`)
    .set("Authorization", `Bearer ${owner.token}`)
    .send({ anomaly_min_usd: 10 });
});

test("concurrent detections (two replicas) store and announce a new anomaly once", async () => {
  const replica = buildDeps({ config: ctx.config, db: ctx.db, logger: ctx.deps.logger });
  const day = addDays(today, -1);
  await seedSpend(ctx, owner.organization.id, [dayLine(owner.tenant.id, day, "500", { serviceName: "Amazon RDS" })]);
  // RDS needs 14 days of history before the spike: give it a flat 50.
  const history = Array.from({ length: 14 }, (_, i) => dayLine(owner.tenant.id, addDays(day, -14 + i), "50", { serviceName: "Amazon RDS" }));
  await seedSpend(ctx, owner.organization.id, history);
  const tenant = { id: owner.tenant.id, organizationId: owner.organization.id };
  const results = await Promise.all([
    anomalyServiceOver(ctx.prisma).detectTenantAnomalies(tenant, { days: 3 }),
    anomalyServiceOver(replica.prisma).detectTenantAnomalies(tenant, { days: 3 }),
    anomalyServiceOver(ctx.prisma).detectTenantAnomalies(tenant, { days: 3 }),
  ]);
  expect(results.map((r) => r.detected).reduce((a, b) => a + b, 0)).toBe(1);
  expect(await ctx.prisma.spendAnomaly.count({ where: { tenantId: tenant.id, serviceName: "Amazon RDS" } })).toBe(1);
  // The total's anomaly of the day before is open: the RDS day extends it, once.
  expect(results.map((r) => r.extended).reduce((a, b) => a + b, 0)).toBe(1);
  const events = await ctx.prisma.webhookEvent.findMany({ where: { organizationId: tenant.organizationId, type: "anomaly.detected" } });
  expect(events.filter((e) => JSON.stringify(e.data).includes("Amazon RDS"))).toHaveLength(1);
});
