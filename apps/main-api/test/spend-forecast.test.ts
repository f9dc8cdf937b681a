// Forecasts that know fees from usage (docs/api.md, "Spend forecast" and "Budgets"): a monthly fee
// on the 1st counts once and is never extrapolated, the forecast endpoint and a budget's forecast
// agree, no forecast (and no forecast threshold) with fewer than 3 days of history, budgets re-arm
// when their amount or thresholds change, and budgets filter by charge frequency.
import request from "supertest";
import { createTestContext, type TestContext } from "./helpers/context";
import { signUp, type SignedUp } from "./helpers/identity";
import { addDays, dayLine, seedSpend } from "./helpers/spend-seed";

let ctx: TestContext;
let org: SignedUp;
/** Day 2 of December, noon: the scenario's "now". */
const NOW = new Date("2026-12-02T12:00:00.000Z");

beforeAll(async () => {
  ctx = await createTestContext();
  ctx.deps.clock = () => NOW;
  org = await signUp(ctx, { company: "Forecast Co" });
  // 1,000 USD/day of usage since Nov 20, and a 30,000 USD support fee on the 1st of each month.
  const lines = [];
  for (let day = "2026-11-20"; day <= "2026-12-02"; day = addDays(day, 1)) lines.push(dayLine(org.tenant.id, day, "1000"));
  for (const [start, end] of [
    ["2026-11-01", "2026-12-01"],
    ["2026-12-01", "2027-01-01"],
  ]) {
    lines.push(
      dayLine(org.tenant.id, start, "30000", {
        chargePeriodEnd: `${end}T00:00:00.000Z`,
        chargeCategory: "Purchase",
        chargeFrequency: "Recurring",
        serviceName: "AWS Support (Enterprise)",
        skuId: "support",
        billingAccountId: "acct-1",
      }),
    );
  }
  await seedSpend(ctx, org.organization.id, lines);
}, 60_000);
afterAll(async () => {
  await ctx?.close();
});

const tenantApi = (method: "get" | "post" | "patch", path: string, o: SignedUp = org) =>
  request(ctx.app)[method](path).set("Authorization", `Bearer ${o.token}`).set("X-Service-Tenant-ID", o.tenant.id);
const budget = (amount: string, extra: Record<string, unknown> = {}) =>
  tenantApi("post", "/api/v1/tenant/budgets").send({
    name: `budget ${amount}`,
    period: "monthly",
    amount,
    currency: "USD",
    thresholds: [{ percent: 100, kind: "forecast" }],
    ...extra,
  });
const notificationsOf = (budgetId: string) =>
  ctx.prisma.webhookEvent.count({
    where: { organizationId: org.organization.id, type: "budget.threshold_crossed", data: { path: ["budget_id"], equals: budgetId } },
  });

describe("GET /api/v1/tenant/spend/forecast", () => {
  it("day 2 of a month with a 30,000 fee on the 1st and 1,000/day of usage forecasts 61,000, the fee counted once", async () => {
    const res = await tenantApi("get", "/api/v1/tenant/spend/forecast").expect(200);
    const forecast = res.body.data;
    expect(forecast).toMatchObject({
      period_start: "2026-12-01T00:00:00.000Z",
      period_end: "2027-01-01T00:00:00.000Z",
      spent: "32000.00",
      recurring_remaining: "0.00",
      usage_remaining: "29000.00",
      forecast: "61000.00",
      currency: "USD",
      basis: "recent_mean",
    });
    expect(Math.abs(Number(forecast.forecast) - 61000) / 61000).toBeLessThan(0.1);
    expect(forecast.rows).toHaveLength(31);
    expect(forecast.rows[0]).toEqual({ day: "2026-12-01", actual: "31000.00", expected: null, expected_low: null, expected_high: null });
    // Today (Dec 2) already spent its run rate: 1,000 - 1,000 = 0 more expected of it.
    expect(forecast.rows[1]).toEqual({ day: "2026-12-02", actual: "1000.00", expected: "0.00", expected_low: "0.00", expected_high: "0.00" });
    expect(forecast.rows[2]).toEqual({ day: "2026-12-03", actual: null, expected: "1000.00", expected_low: "1000.00", expected_high: "1000.00" });
    expect([forecast.data_through, forecast.forecast_low, forecast.forecast_high]).toEqual(["2026-12-02", "61000.00", "61000.00"]);
  });

  it("an annual forecast adds the 11 fees still to come; filters narrow it like the spend queries", async () => {
    const annual = await tenantApi("get", "/api/v1/tenant/spend/forecast?period=annual").expect(200);
    // Spent in 2026: Nov and Dec fees 60,000 + 13 days of usage; Dec 3-31 usage 29,000; no fee before the year ends.
    expect(annual.body.data).toMatchObject({ spent: "73000.00", recurring_remaining: "0.00", usage_remaining: "29000.00", forecast: "102000.00" });
    const usageOnly = await tenantApi("get", "/api/v1/tenant/spend/forecast?charge_frequency=Usage-Based").expect(200);
    expect(usageOnly.body.data).toMatchObject({ spent: "2000.00", forecast: "31000.00" });
    const feesOnly = await tenantApi("get", "/api/v1/tenant/spend/forecast?service_name=AWS%20Support%20(Enterprise)").expect(200);
    expect(feesOnly.body.data).toMatchObject({ spent: "30000.00", usage_remaining: "0.00", forecast: "30000.00" });
  });

  it("refuses an unknown period or metric (400) and answers a tenant with too little history with no forecast", async () => {
    expect((await tenantApi("get", "/api/v1/tenant/spend/forecast?period=weekly")).status).toBe(400);
    expect((await tenantApi("get", "/api/v1/tenant/spend/forecast?metric=cost")).status).toBe(400);
    const fresh = await signUp(ctx, { company: "Fresh Co" });
    await seedSpend(ctx, fresh.organization.id, [dayLine(fresh.tenant.id, "2026-12-01", "500"), dayLine(fresh.tenant.id, "2026-12-02", "500")]);
    const res = await tenantApi("get", "/api/v1/tenant/spend/forecast", fresh).expect(200);
    expect(res.body.data).toMatchObject({ spent: "1000.00", forecast: null, basis: "none" });
    expect(res.body.data.rows.every((row: { expected: unknown }) => row.expected === null)).toBe(true);
  });
});

describe("budgets on the forecast", () => {
  it("a 70,000 budget's 100 % forecast threshold does not fire; a 55,000 budget's does, once; both show the endpoint's forecast", async () => {
    const high = await budget("70000").expect(201);
    const low = await budget("55000").expect(201);
    expect(high.body.data.status).toMatchObject({ spent: "32000.00", forecast: "61000.00", state: "ok", crossed: [] });
    expect(low.body.data.status).toMatchObject({ forecast: "61000.00", state: "warning", crossed: [{ percent: 100, kind: "forecast" }] });
    expect(await notificationsOf(high.body.data.id)).toBe(0);
    expect(await notificationsOf(low.body.data.id)).toBe(1);
    await tenantApi("get", `/api/v1/tenant/budgets/${low.body.data.id}`).expect(200);
    await budget("1").expect(201); // another budget's check runs the tenant's checks again
    expect(await notificationsOf(low.body.data.id)).toBe(1);
  });

  it("re-arms when the amount or thresholds change, not when only the name does", async () => {
    const created = await budget("58000").expect(201);
    const id = created.body.data.id;
    expect(await notificationsOf(id)).toBe(1);
    await tenantApi("patch", `/api/v1/tenant/budgets/${id}`).send({ name: "renamed" }).expect(200);
    expect(await notificationsOf(id)).toBe(1);
    // Raised, but still under the forecast: the threshold crossed under the new amount notifies again.
    await tenantApi("patch", `/api/v1/tenant/budgets/${id}`).send({ amount: "60000" }).expect(200);
    expect(await notificationsOf(id)).toBe(2);
    await tenantApi("patch", `/api/v1/tenant/budgets/${id}`)
      .send({
        thresholds: [
          { percent: 100, kind: "forecast" },
          { percent: 10, kind: "actual" },
        ],
      })
      .expect(200);
    expect(await notificationsOf(id)).toBe(4);
  });

  it("filters by charge_frequency and charge_category; without a forecast only actual thresholds are evaluated", async () => {
    const usage = await budget("40000", { filters: { charge_frequency: ["Usage-Based"] } }).expect(201);
    expect(usage.body.data.status).toMatchObject({ spent: "2000.00", forecast: "31000.00", state: "ok" });
    const purchases = await budget("40000", { filters: { charge_category: ["Purchase"] } }).expect(201);
    expect(purchases.body.data.status).toMatchObject({ spent: "30000.00", forecast: "30000.00" });

    const fresh = await signUp(ctx, { company: "Fresh budgets" });
    await seedSpend(ctx, fresh.organization.id, [dayLine(fresh.tenant.id, "2026-12-02", "900")]);
    const res = await tenantApi("post", "/api/v1/tenant/budgets", fresh)
      .send({
        name: "new",
        period: "monthly",
        amount: "1000",
        currency: "USD",
        thresholds: [
          { percent: 50, kind: "actual" },
          { percent: 100, kind: "forecast" },
        ],
      })
      .expect(201);
    expect(res.body.data.status).toMatchObject({ spent: "900.00", forecast: null, state: "warning", crossed: [{ percent: 50, kind: "actual" }] });
  });
});
