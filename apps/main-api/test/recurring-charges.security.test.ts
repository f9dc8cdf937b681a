// A Recurring bill line shorter than a day cannot hang the service (docs/api.md, "Spend forecast"):
// one imported line with ChargePeriodStart = ChargePeriodEnd (or 1 ms later) is still importable,
// is counted once where it was billed and never repeated, and the import (which checks the
// budgets), the forecast and the budget status all answer with the arithmetic below. Before, the
// forecast stepped forward by the charge's length: the first of these requests never answered (the
// loop never yields, so not even this test's own timeout could fire).
import request from "supertest";
import { createTestContext, type TestContext } from "./helpers/context";
import { focusCsvText } from "./helpers/focus-files";
import { signUp, type SignedUp } from "./helpers/identity";

let ctx: TestContext;
/** Dec 10, 09:00 UTC: "tomorrow 12:00" is Dec 11, 12:00. */
const NOW = new Date("2026-12-10T09:00:00.000Z");

beforeAll(async () => {
  ctx = await createTestContext();
  ctx.deps.clock = () => NOW;
}, 60_000);
afterAll(async () => {
  await ctx?.close();
});

const tenantApi = (o: SignedUp, method: "get" | "post", path: string) =>
  request(ctx.app)[method](path).set("Authorization", `Bearer ${o.token}`).set("X-Service-Tenant-ID", o.tenant.id);

const BILLING = { BillingPeriodStart: "2026-12-01T00:00:00Z", BillingPeriodEnd: "2027-01-01T00:00:00Z" };

/** 1,000/day of usage Dec 1-9, a daily 10 fee billed Dec 9, and a 500 Recurring line from tomorrow 12:00 to `end`. */
function bill(end: string): string {
  const rows: Record<string, string>[] = [];
  for (let day = 1; day <= 9; day++) {
    const start = `2026-12-0${day}T00:00:00Z`;
    const next = new Date(Date.parse(start) + 86_400_000).toISOString();
    const cost = { BilledCost: "1000", EffectiveCost: "1000", ListCost: "1000", ContractedCost: "1000" };
    rows.push({ ...BILLING, ...cost, ChargePeriodStart: start, ChargePeriodEnd: next, ChargeFrequency: "Usage-Based", SkuId: "vm" });
  }
  const fee = (cost: string) => ({ BilledCost: cost, EffectiveCost: cost, ListCost: cost, ContractedCost: cost, ChargeCategory: "Purchase" });
  rows.push({
    ...BILLING,
    ...fee("10"),
    ChargePeriodStart: "2026-12-09T00:00:00Z",
    ChargePeriodEnd: "2026-12-10T00:00:00Z",
    ChargeFrequency: "Recurring",
    ServiceName: "Support",
    SkuId: "daily-fee",
  });
  rows.push({
    ...BILLING,
    ...fee("500"),
    ChargePeriodStart: "2026-12-11T12:00:00.000Z",
    ChargePeriodEnd: end,
    ChargeFrequency: "Recurring",
    ServiceName: "Marketplace",
    SkuId: "blip",
  });
  return focusCsvText(rows, ["ChargeFrequency", "SkuId"]);
}

// spent: 9 x 1,000 of usage + the 10 fee + the 500 line (its day, Dec 11, is in the period) = 9,510.
// Days left: Dec 10-31 (22; the last day with data is Dec 9), usage at the mean of the last 7 days: 22,000.
// Recurring to come: the daily fee on each of those 22 days = 220; the 500 line is never repeated.
// forecast = 9,510 + 220 + 22,000 = 31,730.
describe.each([
  ["zero length", "2026-12-11T12:00:00.000Z"],
  ["1 ms", "2026-12-11T12:00:00.001Z"],
])("a %s Recurring line billed tomorrow 12:00", (name, end) => {
  let org: SignedUp;
  let budgetId: string;

  beforeAll(async () => {
    org = await signUp(ctx, { company: `Blip ${name}` });
    await request(ctx.app)
      .put(`/api/v1/organizations/${org.organization.id}/spend/allocation-rules`)
      .set("Authorization", `Bearer ${org.token}`)
      .send({ rules: [{ tenant_id: org.tenant.id }] })
      .expect(200);
    const budget = await tenantApi(org, "post", "/api/v1/tenant/budgets")
      .send({ name: "December", period: "monthly", amount: "30000", currency: "USD", thresholds: [{ percent: 100, kind: "forecast" }] })
      .expect(201);
    budgetId = budget.body.data.id;
  }, 30_000);

  it("is imported beside the rest of the bill (the import checks the budget and answers)", async () => {
    const res = await request(ctx.app)
      .post(`/api/v1/organizations/${org.organization.id}/spend/imports`)
      .set("Authorization", `Bearer ${org.token}`)
      .set("Content-Type", "text/csv")
      .send(Buffer.from(bill(end)))
      .expect(201);
    expect(res.body.data.import).toMatchObject({ rows: 11, allocated_rows: 11 });
  }, 30_000);

  it("the forecast counts it once: spent 9,510, recurring to come 220 (the daily fee only), forecast 31,730", async () => {
    const res = await tenantApi(org, "get", "/api/v1/tenant/spend/forecast").expect(200);
    expect(res.body.data).toMatchObject({
      period_start: "2026-12-01T00:00:00.000Z",
      spent: "9510.00",
      recurring_remaining: "220.00",
      usage_remaining: "22000.00",
      forecast: "31730.00",
      basis: "recent_mean",
    });
    // Dec 11: the run rate and the daily fee, nothing for the 500 line; every reference day alike, so its interval is that one figure.
    expect(res.body.data.rows.find((row: { day: string }) => row.day === "2026-12-11")).toEqual({
      day: "2026-12-11",
      actual: null,
      expected: "1010.00",
      expected_low: "1010.00",
      expected_high: "1010.00",
    });
    await request(ctx.app).get("/healthz").expect(200);
  }, 30_000);

  it("the budget status shows the same forecast, its 100 % forecast threshold crossed", async () => {
    const res = await tenantApi(org, "get", `/api/v1/tenant/budgets/${budgetId}`).expect(200);
    expect(res.body.data.status).toMatchObject({ spent: "9510.00", forecast: "31730.00", state: "warning", crossed: [{ percent: 100, kind: "forecast" }] });
  }, 30_000);
});
