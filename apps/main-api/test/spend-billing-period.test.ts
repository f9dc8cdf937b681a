// An invoice is one query (docs/api.md, "Spend: usage, queries, lines, export"): billing_period and
// invoice_id are spend dimensions, so a period's invoice, late charges of the month before included,
// is a filter on billing_period over any range that holds its charges.
import request from "supertest";
import { createTestContext, type TestContext } from "./helpers/context";
import { focusCsvText } from "./helpers/focus-files";
import { signUp, type SignedUp } from "./helpers/identity";

let ctx: TestContext;
let org: SignedUp;

const SEPTEMBER = { BillingPeriodStart: "2024-09-01T00:00:00Z", BillingPeriodEnd: "2024-10-01T00:00:00Z", InvoiceId: "OCI-2024-09" };
const OCTOBER = { BillingPeriodStart: "2024-10-01T00:00:00Z", BillingPeriodEnd: "2024-11-01T00:00:00Z", InvoiceId: "OCI-2024-10" };
const cost = (amount: string) => ({ BilledCost: amount, EffectiveCost: amount, ListCost: amount, ContractedCost: amount });
const at = (start: string, end: string) => ({ ChargePeriodStart: start, ChargePeriodEnd: end });
const oracle = { ProviderName: "Oracle", PublisherName: "Oracle", InvoiceIssuerName: "Oracle", BillingAccountId: "ocid1.tenancy.oc1..aaaa" };

/** September's invoice: 12.5 + 7.78 = 20.28. October's: the late row charged 2024-09-30 (0.0625) + 10 = 10.0625. */
const ROWS = [
  { ...oracle, ...SEPTEMBER, ...at("2024-09-03T00:00:00Z", "2024-09-04T00:00:00Z"), ...cost("12.5"), ServiceName: "COMPUTE" },
  { ...oracle, ...SEPTEMBER, ...at("2024-09-20T00:00:00Z", "2024-09-21T00:00:00Z"), ...cost("7.78"), ServiceName: "BLOCK_STORAGE", ServiceCategory: "Storage" },
  // Charged on the last hour of September, invoiced with October.
  { ...oracle, ...OCTOBER, ...at("2024-09-30T23:00:00Z", "2024-10-01T00:00:00Z"), ...cost("0.0625"), ServiceName: "COMPUTE" },
  { ...oracle, ...OCTOBER, ...at("2024-10-05T00:00:00Z", "2024-10-06T00:00:00Z"), ...cost("10"), ServiceName: "COMPUTE" },
];

beforeAll(async () => {
  ctx = await createTestContext();
  org = await signUp(ctx, { company: "Invoices" });
  await request(ctx.app)
    .put(`/api/v1/organizations/${org.organization.id}/spend/allocation-rules`)
    .set("Authorization", `Bearer ${org.token}`)
    .send({ rules: [{ tenant_id: org.tenant.id }] })
    .expect(200);
  const res = await request(ctx.app)
    .post(`/api/v1/organizations/${org.organization.id}/spend/imports`)
    .set("Authorization", `Bearer ${org.token}`)
    .set("Content-Type", "text/csv")
    .send(focusCsvText(ROWS, ["InvoiceId"]));
  expect(res.status).toBe(201);
}, 60_000);
afterAll(async () => {
  await ctx?.close();
});

const tenantGet = (path: string) => request(ctx.app).get(path).set("Authorization", `Bearer ${org.token}`).set("X-Service-Tenant-ID", org.tenant.id);
const spend = async (query: string) => (await tenantGet(`/api/v1/tenant/spend?${query}`).expect(200)).body.data;

describe("billing_period and invoice_id", () => {
  test("the September invoice over the calendar range is 20.28; the calendar month by charge is 20.3425 (the late row)", async () => {
    const invoice = await spend("start=2024-09-01&end=2024-10-01&granularity=none&billing_period=2024-09-01");
    expect(invoice.totals).toEqual([{ currency: "USD", cost: "20.28" }]);
    const calendar = await spend("start=2024-09-01&end=2024-10-01&granularity=none");
    expect(calendar.totals).toEqual([{ currency: "USD", cost: "20.3425" }]);
  });

  test("the October invoice is one query over a range that holds its late September row: 0.0625 + 10 = 10.0625", async () => {
    const invoice = await spend("start=2024-09-01&end=2024-11-01&granularity=none&billing_period=2024-10-01");
    expect(invoice.totals).toEqual([{ currency: "USD", cost: "10.0625" }]);
    // The same by invoice id, and the range of October alone misses the late row (10).
    expect((await spend("start=2024-09-01&end=2024-11-01&granularity=none&invoice_id=OCI-2024-10")).totals).toEqual([{ currency: "USD", cost: "10.0625" }]);
    expect((await spend("start=2024-10-01&end=2024-11-01&granularity=none&billing_period=2024-10-01")).totals).toEqual([{ currency: "USD", cost: "10" }]);
  });

  test("group_by billing_period and invoice_id: one row per invoice; by month, the late row in September's charges", async () => {
    const byInvoice = await spend("start=2024-09-01&end=2024-11-01&granularity=none&group_by=billing_period,invoice_id");
    expect(byInvoice.rows.map((row: { group: unknown; cost: string }) => [row.group, row.cost])).toEqual([
      [{ billing_period: "2024-09-01", invoice_id: "OCI-2024-09" }, "20.28"],
      [{ billing_period: "2024-10-01", invoice_id: "OCI-2024-10" }, "10.0625"],
    ]);
    const byMonth = await spend("start=2024-09-01&end=2024-11-01&granularity=month&group_by=billing_period");
    expect(byMonth.rows.map((row: { period_start: string; group: unknown; cost: string }) => [row.period_start.slice(0, 10), row.group, row.cost])).toEqual([
      ["2024-09-01", { billing_period: "2024-09-01" }, "20.28"],
      ["2024-09-01", { billing_period: "2024-10-01" }, "0.0625"],
      ["2024-10-01", { billing_period: "2024-10-01" }, "10"],
    ]);
  });

  test("the lines and the organization view take the same filters", async () => {
    const lines = (await tenantGet("/api/v1/tenant/spend/lines?start=2024-09-01&end=2024-11-01&billing_period=2024-10-01").expect(200)).body.data.items;
    expect(lines.map((line: { charge_period_start: string; invoice_id: string }) => [line.charge_period_start, line.invoice_id])).toEqual([
      ["2024-09-30T23:00:00.000Z", "OCI-2024-10"],
      ["2024-10-05T00:00:00.000Z", "OCI-2024-10"],
    ]);
    const orgView = await request(ctx.app)
      .get(`/api/v1/organizations/${org.organization.id}/spend?start=2024-09-01&end=2024-11-01&granularity=none&invoice_id=OCI-2024-09`)
      .set("Authorization", `Bearer ${org.token}`)
      .expect(200);
    expect(orgView.body.data.totals).toEqual([{ currency: "USD", cost: "20.28" }]);
  });
});
