// Budgets: CRUD through the API with the status computed from the ledger's roll-up; thresholds at
// the boundary (actual and forecast), one notification per (budget, threshold, period) across a
// period change, and concurrent checkers (replicas) racing to one notification.
import request from "supertest";
import { buildDeps } from "../src/compose";
import { budgetServiceOver } from "../src/budgets/service";
import { createTestContext, type TestContext } from "./helpers/context";
import { addUser, signUp, type SignedUp } from "./helpers/identity";
import { addDays, dayLine, seedSpend } from "./helpers/spend-seed";
import { startReceiver } from "./helpers/webhook-receiver";

let ctx: TestContext;
let owner: SignedUp;
let tenant: { id: string; organizationId: string };

beforeAll(async () => {
  ctx = await createTestContext();
  owner = await signUp(ctx, { company: "Budget Co" });
  tenant = { id: owner.tenant.id, organizationId: owner.organization.id };
});
afterAll(async () => {
  await ctx?.close();
});

const api = (method: "get" | "post" | "patch" | "delete", path: string, token = owner.token) =>
  request(ctx.app)[method](`/api/v1/tenant/budgets${path}`).set("Authorization", `Bearer ${token}`).set("X-Service-Tenant-ID", tenant.id);

const BODY = {
  name: "EC2 monthly",
  period: "monthly",
  amount: "1000",
  currency: "USD",
  filters: { service_name: ["Amazon EC2"] },
  thresholds: [
    { percent: 50, kind: "actual" },
    { percent: 80, kind: "actual" },
    { percent: 150, kind: "forecast" },
  ],
};

describe("budgets API", () => {
  it("creates, reads, lists, changes and deletes a budget; the status comes from the ledger", async () => {
    const created = await api("post", "").send(BODY);
    expect(created.status).toBe(201);
    const budget = created.body.data;
    expect(budget).toMatchObject({ name: "EC2 monthly", period: "monthly", amount: "1000", currency: "USD", metric: "billed_cost", filters: BODY.filters });
    // No spend at all: no forecast (fewer than 3 days of history).
    expect(budget.status).toMatchObject({ spent: "0.00", forecast: null, percent_used: "0.00", state: "ok", crossed: [] });
    const now = new Date();
    expect(budget.status.period_start).toBe(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString());

    // Spend of today counts (EC2 only; another service and another currency do not).
    const today = now.toISOString().slice(0, 10);
    await seedSpend(ctx, tenant.organizationId, [
      dayLine(tenant.id, today, "123.456"),
      dayLine(tenant.id, today, "999", { serviceName: "Amazon S3" }),
      dayLine(tenant.id, today, "999", { currency: "EUR" }),
    ]);
    const got = await api("get", `/${budget.id}`);
    expect(got.status).toBe(200);
    expect(got.body.data.status).toMatchObject({ spent: "123.46", percent_used: "12.35" });

    // The list computes every budget in one pass: each status is the one a GET of it answers.
    const quarterly = await api("post", "").send({ ...BODY, name: "All quarterly", period: "quarterly", metric: "list_cost", filters: {} });
    const annualEur = await api("post", "").send({ ...BODY, name: "EUR annual", period: "annual", currency: "EUR", filters: { provider: ["aws"] } });
    const list = await api("get", "");
    expect(list.body.data.items.map((b: { id: string }) => b.id)).toEqual([budget.id, quarterly.body.data.id, annualEur.body.data.id]);
    for (const item of list.body.data.items) expect(item.status).toEqual((await api("get", `/${item.id}`)).body.data.status);
    expect(list.body.data.items.map((b: { status: { spent: string } }) => b.status.spent)).toEqual(["123.46", "1122.46", "999.00"]);
    await api("delete", `/${quarterly.body.data.id}`).expect(204);
    await api("delete", `/${annualEur.body.data.id}`).expect(204);

    const patched = await api("patch", `/${budget.id}`).send({ amount: 100.5, filters: {} });
    expect(patched.status).toBe(200);
    // Without the filter S3 counts too: 123.456 + 999 = 1122.456 -> 1122.46 >= 100.5: exceeded.
    expect(patched.body.data).toMatchObject({ amount: "100.5", filters: {}, status: { spent: "1122.46", state: "exceeded" } });

    expect((await api("delete", `/${budget.id}`)).status).toBe(204);
    expect((await api("get", `/${budget.id}`)).status).toBe(404);
    expect((await api("delete", `/${budget.id}`)).status).toBe(404);
  });

  it("refuses bad bodies (400), members writing (403), and another tenant's budget (404)", async () => {
    for (const body of [
      { ...BODY, period: "weekly" },
      { ...BODY, amount: "-1" },
      { ...BODY, amount: "1e3" },
      { ...BODY, amount: 0 },
      { ...BODY, currency: "usd" },
      { ...BODY, thresholds: Array.from({ length: 11 }, (_, i) => ({ percent: i + 1, kind: "actual" })) },
      {
        ...BODY,
        thresholds: [
          { percent: 50, kind: "actual" },
          { percent: 50, kind: "actual" },
        ],
      },
      { ...BODY, thresholds: [{ percent: 50, kind: "sometimes" }] },
      { ...BODY, filters: { tag: ["x"] } },
      { ...BODY, metric: "cost" },
      { ...BODY, name: " " },
    ]) {
      const res = await api("post", "").send(body);
      expect([res.status, JSON.stringify(body)]).toEqual([400, JSON.stringify(body)]);
    }
    const member = await addUser(ctx, { orgId: tenant.organizationId, ownerToken: owner.token, role: "member", tenantIds: [tenant.id] });
    expect((await api("post", "", member.token).send(BODY)).status).toBe(403);
    expect((await api("get", "", member.token)).status).toBe(200);

    const created = await api("post", "").send(BODY);
    const other = await request(ctx.app)
      .post(`/api/v1/organizations/${tenant.organizationId}/tenants`)
      .set("Authorization", `Bearer ${owner.token}`)
      .send({ name: "Other" });
    const res = await request(ctx.app)
      .get(`/api/v1/tenant/budgets/${created.body.data.id}`)
      .set("Authorization", `Bearer ${owner.token}`)
      .set("X-Service-Tenant-ID", other.body.data.id);
    expect(res.status).toBe(404);
  });
});

describe("thresholds and notifications", () => {
  let checkTenant: { id: string; organizationId: string };
  let budgetId: string;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  beforeAll(async () => {
    receiver = await startReceiver();
    const created = await request(ctx.app)
      .post(`/api/v1/organizations/${tenant.organizationId}/tenants`)
      .set("Authorization", `Bearer ${owner.token}`)
      .send({ name: "Checked" });
    checkTenant = { id: created.body.data.id, organizationId: tenant.organizationId };
    const hook = await request(ctx.app)
      .post(`/api/v1/organizations/${tenant.organizationId}/webhooks`)
      .set("Authorization", `Bearer ${owner.token}`)
      .send({ url: receiver.url, events: ["budget.threshold_crossed"] });
    expect(hook.status).toBe(201);
    // A budget created directly (its API check would run with today's date).
    budgetId = "bud_check";
    await ctx.prisma.budget.create({
      data: {
        organizationId: checkTenant.organizationId,
        tenantId: checkTenant.id,
        id: budgetId,
        name: "check",
        period: "monthly",
        amount: "1000",
        currency: "USD",
        metric: "billed_cost",
        filters: {},
        thresholds: BODY.thresholds,
      },
    });
    // November 2026: Nov 1 49.99, Nov 2-10 50 each -> spent 499.99; Nov 4-10 = 350 -> mean 50/day.
    const lines = [dayLine(checkTenant.id, "2026-11-01", "49.99")];
    for (let d = 1; d < 10; d++) lines.push(dayLine(checkTenant.id, addDays("2026-11-01", d), "50"));
    await seedSpend(ctx, checkTenant.organizationId, lines);
  });
  afterAll(async () => {
    await receiver.close();
  });

  const NOV_11 = new Date("2026-11-11T00:00:00.000Z");
  const notifications = () => ctx.prisma.budgetNotification.findMany({ where: { budgetId }, orderBy: [{ periodStart: "asc" }, { thresholdKind: "asc" }] });

  it("just below the boundary nothing is crossed: spent 499.99 (< 500), forecast 499.99 + 50 x 20 = 1499.99 (< 1500)", async () => {
    const budget = await budgetServiceOver(ctx.prisma).getBudget(checkTenant, budgetId, NOV_11);
    expect(budget.status).toMatchObject({ spent: "499.99", forecast: "1499.99", percent_used: "50.00", state: "ok", crossed: [] });
    expect(await budgetServiceOver(ctx.prisma).notifyThresholds(checkTenant, NOV_11)).toBe(0);
  });

  it("one cent more crosses the actual 50 % and the forecast 150 % thresholds, and notifies each once", async () => {
    await seedSpend(ctx, checkTenant.organizationId, [dayLine(checkTenant.id, "2026-11-01", "0.01")]);
    const budget = await budgetServiceOver(ctx.prisma).getBudget(checkTenant, budgetId, NOV_11);
    expect(budget.status).toMatchObject({
      spent: "500.00",
      forecast: "1500.00",
      state: "warning",
      crossed: [
        { percent: 50, kind: "actual" },
        { percent: 150, kind: "forecast" },
      ],
    });
    expect(await budgetServiceOver(ctx.prisma).notifyThresholds(checkTenant, NOV_11)).toBe(2);
    expect(await budgetServiceOver(ctx.prisma).notifyThresholds(checkTenant, new Date("2026-11-20T12:00:00.000Z"))).toBe(0);
    expect((await notifications()).map((n) => [n.periodStart.toISOString(), n.thresholdKind, n.thresholdPercent.toNumber()])).toEqual([
      ["2026-11-01T00:00:00.000Z", "actual", 50],
      ["2026-11-01T00:00:00.000Z", "forecast", 150],
    ]);
    await ctx.outbox.drain();
    const bodies = receiver.received.map((r) => JSON.parse(r.body));
    expect(bodies).toHaveLength(2);
    expect(bodies.find((b) => b.data.threshold.kind === "actual")).toMatchObject({
      type: "budget.threshold_crossed",
      organization_id: checkTenant.organizationId,
      data: {
        budget_id: budgetId,
        tenant_id: checkTenant.id,
        threshold: { percent: 50, kind: "actual" },
        period_start: "2026-11-01T00:00:00.000Z",
        period_end: "2026-12-01T00:00:00.000Z",
        spent: "500.00",
        forecast: "1500.00",
        amount: "1000",
        currency: "USD",
      },
    });
  });

  it("a new period starts from zero (nothing carried over) and notifies again once", async () => {
    const DEC_2 = new Date("2026-12-02T00:00:00.000Z");
    // Spent 0 in December. The data still ends on Nov 10: the days after it are late, not zeros, so the
    // run rate is the mean of the last 7 complete days with data (Nov 4-10, 50 a day; 10 days of usage
    // history, under 28): Dec 1-31 = 31 x 50 = 1,550 >= 1,500, the forecast 150 % of this period notifies.
    expect((await budgetServiceOver(ctx.prisma).getBudget(checkTenant, budgetId, DEC_2)).status).toMatchObject({
      spent: "0.00",
      forecast: "1550.00",
      state: "warning",
      crossed: [{ percent: 150, kind: "forecast" }],
    });
    expect(await budgetServiceOver(ctx.prisma).notifyThresholds(checkTenant, DEC_2)).toBe(1);
    // Dec 1 (a Tuesday): 600 -> spent 600 (>= 500). History since Nov 1 (31 days): each weekday's run rate is the
    // median of its last 4: Tuesdays Dec 1, Nov 24, 17, 10 = 600, 0, 0, 50 -> 25; every other weekday 0 (Nov 11-30
    // has no spend, and is now before the last day with data). Dec 2-31 holds 4 Tuesdays: forecast 600 + 4 x 25 = 700
    // (< 1500): only the actual 50 % notifies (the forecast 150 % of this period already has).
    await seedSpend(ctx, checkTenant.organizationId, [dayLine(checkTenant.id, "2026-12-01", "600")]);
    expect((await budgetServiceOver(ctx.prisma).getBudget(checkTenant, budgetId, DEC_2)).status).toMatchObject({
      spent: "600.00",
      forecast: "700.00",
      state: "warning",
    });
    expect(await budgetServiceOver(ctx.prisma).notifyThresholds(checkTenant, DEC_2)).toBe(1);
    expect(await budgetServiceOver(ctx.prisma).notifyThresholds(checkTenant, DEC_2)).toBe(0);
    expect((await notifications()).map((n) => n.periodStart.toISOString())).toEqual([
      "2026-11-01T00:00:00.000Z",
      "2026-11-01T00:00:00.000Z",
      "2026-12-01T00:00:00.000Z",
      "2026-12-01T00:00:00.000Z",
    ]);
  });

  it("two replicas checking at once send one notification per threshold", async () => {
    // A second app over the same database: another replica with its own client.
    const replica = buildDeps({ config: ctx.config, db: ctx.db, logger: ctx.deps.logger });
    const JAN_2 = new Date("2027-01-02T00:00:00.000Z");
    await seedSpend(ctx, checkTenant.organizationId, [dayLine(checkTenant.id, "2027-01-01", "900")]);
    const events = () => ctx.prisma.webhookEvent.count({ where: { organizationId: checkTenant.organizationId, type: "budget.threshold_crossed" } });
    const before = await events();
    const results = await Promise.all([
      budgetServiceOver(ctx.prisma).notifyThresholds(checkTenant, JAN_2),
      budgetServiceOver(replica.prisma).notifyThresholds(checkTenant, JAN_2),
      budgetServiceOver(ctx.prisma).notifyThresholds(checkTenant, JAN_2),
      budgetServiceOver(replica.prisma).notifyThresholds(checkTenant, JAN_2),
    ]);
    // 900 crosses actual 50 % and 80 %; the forecast (900 + Fridays' median of 900, 0, 0, 0 = 0) crosses nothing more.
    expect(results.reduce((a, b) => a + b, 0)).toBe(2);
    expect(await events()).toBe(before + 2);
    expect((await notifications()).filter((n) => n.periodStart.toISOString() === "2027-01-01T00:00:00.000Z")).toHaveLength(2);
    await replica.prisma.$disconnect();
  });
});
