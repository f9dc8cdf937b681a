// FOCUS 1.2 export (docs/api.md, "Spend: usage, queries, lines, export"): streamed CSV of the caller's lines; re-imported into
// another organization it gives the same totals.
import request from "supertest";
import { TRANSACTION_OPTIONS } from "@cloudcost/db";
import { insertLines, type LedgerLineInput } from "../src/spend/lines-repository";
import { createTestContext, type TestContext } from "./helpers/context";
import { addUser, signUp, type SignedUp } from "./helpers/identity";

let ctx: TestContext;
let org: SignedUp;
let tenant2: string;

const line = (overrides: Partial<LedgerLineInput>): LedgerLineInput => ({
  tenantId: null,
  source: "focus_import",
  chargePeriodStart: "2026-10-01T00:00:00.000Z",
  chargePeriodEnd: "2026-10-02T00:00:00.000Z",
  chargeCategory: "Usage",
  provider: "AWS",
  serviceName: "Amazon EC2",
  serviceCategory: "Compute",
  billedCost: "1",
  effectiveCost: "0.9",
  listCost: "1.2",
  currency: "USD",
  billingAccountId: "acct-1",
  billingPeriodStart: "2026-10-01T00:00:00.000Z",
  billingPeriodEnd: "2026-11-01T00:00:00.000Z",
  priced: true,
  ...overrides,
});

beforeAll(async () => {
  ctx = await createTestContext();
  org = await signUp(ctx);
  tenant2 = (
    await request(ctx.app).post(`/api/v1/organizations/${org.organization.id}/tenants`).set("Authorization", `Bearer ${org.token}`).send({ name: "Two" })
  ).body.data.id;
  const t1 = org.tenant.id;
  const tiny = Array.from({ length: 3 }, (_, i) =>
    line({ tenantId: t1, billedCost: "0.0000000001", effectiveCost: "0.0000000001", listCost: "0.0000000001", resourceId: `r-${i}` }),
  );
  await ctx.prisma.$transaction(
    (tx) =>
      insertLines(tx, org.organization.id, [
        line({ tenantId: t1, billedCost: "12.3456789012", tags: { team: 'web, "edge"' } }),
        line({
          tenantId: t1,
          chargePeriodStart: "2026-10-15T10:00:00.000Z",
          chargePeriodEnd: "2026-10-15T11:00:00.000Z",
          currency: "EUR",
          billedCost: "3",
          effectiveCost: "2.5",
          listCost: "4",
        }),
        ...tiny,
        line({
          tenantId: t1,
          source: "usage",
          provider: null,
          serviceName: "Model usage",
          serviceCategory: "AI and Machine Learning",
          model: "gpt-4o",
          resourceId: "gpt-4o",
          pricingId: "mpr_1",
          billingAccountId: null,
          billingPeriodStart: null,
          billingPeriodEnd: null,
          chargePeriodStart: "2026-10-20T10:30:00.000Z",
          chargePeriodEnd: "2026-10-20T11:00:00.000Z",
          consumedQuantity: "1500",
          consumedUnit: "Tokens",
          billedCost: "0.015",
          effectiveCost: "0.015",
          listCost: "0.015",
        }),
        line({ tenantId: tenant2, billedCost: "100", serviceName: "Amazon RDS", billingAccountId: "acct-2" }),
        line({ tenantId: null, billedCost: "1000", serviceName: "Support", subAccountId: "999" }),
      ]),
    TRANSACTION_OPTIONS,
  );
}, 60_000);
afterAll(async () => {
  await ctx?.close();
});

const totals = async (token: string, orgId: string, metric: string) => {
  const res = await request(ctx.app)
    .get(`/api/v1/organizations/${orgId}/spend?start=2026-10-01&end=2026-11-01&granularity=none&metric=${metric}`)
    .set("Authorization", `Bearer ${token}`);
  expect(res.status).toBe(200);
  return res.body.data.totals;
};

describe("spend export", () => {
  it("streams the tenant's lines as FOCUS 1.2 CSV with our columns", async () => {
    const res = await request(ctx.app)
      .get("/api/v1/tenant/spend/export?start=2026-10-01&end=2026-11-01")
      .set("Authorization", `Bearer ${org.token}`)
      .set("X-Service-Tenant-ID", org.tenant.id);
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^text\/csv/);
    expect(res.headers["content-disposition"]).toMatch(/attachment; filename="spend-ten_/);
    const [header, ...rows] = res.text.trim().split(/\r?\n/);
    for (const column of ["BilledCost", "BillingCurrency", "ChargePeriodStart", "ServiceName", "x_TenantId", "x_Source", "x_PricingId", "x_UnpricedReason"]) {
      expect(header.split(",")).toContain(column);
    }
    expect(rows).toHaveLength(6);
    expect(res.text).not.toContain("Amazon RDS");
    expect(res.text).not.toContain("Support");
  });

  it("gives members of the organization view only their tenants' lines, owners also the unallocated ones", async () => {
    const member = await addUser(ctx, { orgId: org.organization.id, ownerToken: org.token, role: "viewer", tenantIds: [tenant2] });
    const mine = await request(ctx.app)
      .get(`/api/v1/organizations/${org.organization.id}/spend/export?start=2026-10-01&end=2026-11-01`)
      .set("Authorization", `Bearer ${member.token}`);
    expect(mine.status).toBe(200);
    expect(mine.text.trim().split(/\r?\n/)).toHaveLength(2);
    expect(mine.text).toContain("Amazon RDS");
    const all = await request(ctx.app)
      .get(`/api/v1/organizations/${org.organization.id}/spend/export?start=2026-10-01&end=2026-11-01`)
      .set("Authorization", `Bearer ${org.token}`);
    expect(all.text.trim().split(/\r?\n/)).toHaveLength(9);
  });

  it("re-imported into another organization gives the same totals for every metric", async () => {
    const exported = await request(ctx.app)
      .get(`/api/v1/organizations/${org.organization.id}/spend/export?start=2026-10-01&end=2026-11-01`)
      .set("Authorization", `Bearer ${org.token}`);
    expect(exported.status).toBe(200);
    const other = await signUp(ctx);
    const imported = await request(ctx.app)
      .post(`/api/v1/organizations/${other.organization.id}/spend/imports`)
      .set("Authorization", `Bearer ${other.token}`)
      .set("Content-Type", "text/csv")
      .send(exported.text);
    expect(`${imported.status} ${imported.text}`).toMatch(/^201/);
    expect(imported.body.data.import.rows).toBe(8);
    for (const metric of ["billed_cost", "effective_cost", "list_cost"]) {
      const before = await totals(org.token, org.organization.id, metric);
      expect(before.length).toBe(2);
      expect(await totals(other.token, other.organization.id, metric)).toEqual(before);
    }
  });
});
