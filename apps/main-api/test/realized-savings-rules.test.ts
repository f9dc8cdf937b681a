import request from "supertest";
import type { ComputeResourceInput, MetricSample, RealizedSavingsItem, RecommendationItem } from "@cloudcost/contracts";
import { samplesFor, vm } from "./helpers/compute-fleet";
import { createTestContext, TEST_SERVICE_TOKEN_SECRET, type TestContext } from "./helpers/context";
import { signUp } from "./helpers/identity";
import { startPricingApi, type RunningPricingApi } from "./helpers/pricing-api";
import { addDays, dayLine, seedSpend } from "./helpers/spend-seed";

/**
 * Realized savings that are real (docs/api.md, "Realized savings"; docs/commitments.md): a change of
 * a committed resource realizes 0 (`commitment_covered`), only the bill's figures are realized (the
 * catalog's are projected), and a change made before its recommendation was analyzed is not
 * credited to it. Against the real pricing API and its seed catalog (m5.2xlarge 0.384 USD/h =
 * 280.32 a month); the bill lines are written by hand (0.192 USD/h after the resize = 140.16 a month).
 */

let ctx: TestContext;
let pricing: RunningPricingApi;

interface Tenant {
  token: string;
  tenant: string;
  organizationId: string;
}

const api = (t: Tenant, method: "get" | "put" | "post", path: string) =>
  request(ctx.app)[method](path).set("Authorization", `Bearer ${t.token}`).set("X-Service-Tenant-ID", t.tenant);
const upsert = (t: Tenant, resources: ComputeResourceInput[]) => api(t, "put", "/api/v1/tenant/compute/resources").send({ resources });
const send = (t: Tenant, samples: MetricSample[]) => api(t, "post", "/api/v1/tenant/compute/metrics").send({ samples });

async function analyzed(t: Tenant): Promise<Record<string, RecommendationItem>> {
  await api(t, "post", "/api/v1/tenant/compute/recommendations/analyze").expect(200);
  const res = await api(t, "get", "/api/v1/tenant/compute/recommendations").query({ limit: "500" }).expect(200);
  return Object.fromEntries((res.body.data.items as RecommendationItem[]).map((item) => [item.resource_id, item]));
}

type Savings = { items: RealizedSavingsItem[]; totals: { estimated: number; realized: number; projected: number } };
async function savings(t: Tenant, start: string, end: string): Promise<Savings> {
  return (await api(t, "get", "/api/v1/tenant/compute/savings").query({ start, end }).expect(200)).body.data;
}

/** Dates a resource's standing recommendation back to `at` (the analysis happened then). */
async function analyzedOn(t: Tenant, resourceId: string, at: string): Promise<void> {
  await ctx.db.sql.query("UPDATE compute_resources SET analyzed_at = $3 WHERE tenant_id = $1 AND resource_id = $2", [t.tenant, resourceId, at]);
}

const steady = (id: string) =>
  samplesFor(
    id,
    48,
    60,
    () => 20,
    () => 30,
    1,
  );

const today = new Date().toISOString().slice(0, 10);
const changeDay = addDays(today, -14);

/**
 * A tenant with an m5.2xlarge the analysis says to DOWNSIZE, analyzed the day before `changeDay`,
 * then resized to the recommended type at midnight of `changeDay`.
 */
async function downsized(id: string, analyzedBefore = true): Promise<{ t: Tenant; advice: RecommendationItem }> {
  const signedUp = await signUp(ctx);
  const t = { token: signedUp.token, tenant: signedUp.tenant.id, organizationId: signedUp.organization.id };
  await upsert(t, [vm(id, "m5.2xlarge")]).expect(200);
  await send(t, steady(id)).expect(200);
  const advice = (await analyzed(t))[id];
  expect(advice.action).toBe("DOWNSIZE");
  if (analyzedBefore) await analyzedOn(t, id, `${addDays(changeDay, -1)}T00:00:00.000Z`);
  await upsert(t, [vm(id, advice.recommended_instance_type as string, { observed_at: `${changeDay}T00:00:00.000Z` })]).expect(200);
  return { t, advice };
}

beforeAll(async () => {
  pricing = await startPricingApi(TEST_SERVICE_TOKEN_SECRET, { computeCatalog: true });
  ctx = await createTestContext({ PRICING_API_URL: pricing.url });
}, 120_000);
afterAll(async () => {
  await ctx?.close();
  await pricing?.close();
});

describe("realized savings", () => {
  it("a resize whose lines after the change are Committed realizes 0 with reason commitment_covered", async () => {
    const { t } = await downsized("vm-plan");
    const line = (day: string, cost: string, pricingCategory: "Standard" | "Committed") =>
      dayLine(t.tenant, day, cost, { resourceId: "vm-plan", pricingCategory });
    await seedSpend(ctx, t.organizationId, [
      // Before: 9.216 a day on demand (280.32 a month); after: 4.608 a day, under the Savings Plan.
      ...Array.from({ length: 14 }, (_, i) => line(addDays(changeDay, i - 14), "9.216", "Standard")),
      ...Array.from({ length: 14 }, (_, i) => line(addDays(changeDay, i), "4.608", "Committed")),
    ]);
    const result = await savings(t, addDays(changeDay, -1), today);
    // The bill's own difference would be 280.32 - 140.16 = 140.16, but the plan's fee did not change:
    // what the VM stopped using is now the plan's unused part. Realized 0.
    expect(result.items).toHaveLength(1);
    expect(result.items[0]).toMatchObject({
      basis: "bill",
      before_monthly_usd: 280.32,
      after_monthly_usd: 140.16,
      realized_savings_monthly_usd: 0,
      reason: "commitment_covered",
    });
    expect(result.totals).toMatchObject({ realized: 0, projected: 0 });
  });

  it("a resize of a resource covered in the week before the change realizes 0; covered lines older than that week do not count", async () => {
    const { t } = await downsized("vm-week");
    const line = (day: string, cost: string, pricingCategory: "Standard" | "Committed") =>
      dayLine(t.tenant, day, cost, { resourceId: "vm-week", pricingCategory });
    await seedSpend(ctx, t.organizationId, [
      // Days -14 to -8 before the change on demand, -7 to -1 under a commitment: covered when it changed.
      ...Array.from({ length: 14 }, (_, i) => line(addDays(changeDay, i - 14), "9.216", i < 7 ? "Standard" : "Committed")),
      ...Array.from({ length: 14 }, (_, i) => line(addDays(changeDay, i), "4.608", "Standard")),
    ]);
    const [covered] = (await savings(t, addDays(changeDay, -1), today)).items;
    expect(covered).toMatchObject({ basis: "bill", realized_savings_monthly_usd: 0, reason: "commitment_covered" });

    const { t: older } = await downsized("vm-older");
    const olderLine = (day: string, cost: string, pricingCategory: "Standard" | "Committed") =>
      dayLine(older.tenant, day, cost, { resourceId: "vm-older", pricingCategory });
    await seedSpend(ctx, older.organizationId, [
      // Only days -14 to -8 covered (the plan expired a week before the change): not covered when it changed.
      ...Array.from({ length: 14 }, (_, i) => olderLine(addDays(changeDay, i - 14), "9.216", i < 7 ? "Committed" : "Standard")),
      ...Array.from({ length: 14 }, (_, i) => olderLine(addDays(changeDay, i), "4.608", "Standard")),
    ]);
    const result = await savings(older, addDays(changeDay, -1), today);
    // median day before 9.216 x 730 / 24 = 280.32; after 4.608 x 730 / 24 = 140.16; realized 280.32 - 140.16 = 140.16
    expect(result.items[0]).toMatchObject({ basis: "bill", realized_savings_monthly_usd: 140.16 });
    expect(result.items[0]).not.toHaveProperty("reason");
    expect(result.totals).toMatchObject({ realized: 140.16, projected: 0 });
  });

  it("counts catalog figures (fewer than 3 days of lines on a side) as projected, never as realized", async () => {
    const { t, advice } = await downsized("vm-catalog");
    // Two days of lines after the change: the catalog decides, 280.32 (m5.2xlarge) - the recommended type's
    // monthly price = the recommendation's own estimate, projected.
    const after = advice.recommended_monthly_cost_usd as number;
    const projected = Math.round((280.32 - after) * 100) / 100;
    expect(projected).toBe(advice.savings_monthly_usd);
    await seedSpend(ctx, t.organizationId, [
      dayLine(t.tenant, changeDay, "4.608", { resourceId: "vm-catalog" }),
      dayLine(t.tenant, addDays(changeDay, 1), "4.608", { resourceId: "vm-catalog" }),
    ]);
    const result = await savings(t, addDays(changeDay, -1), today);
    expect(result.items[0]).toMatchObject({ basis: "catalog", days_observed: 2, before_monthly_usd: 280.32, after_monthly_usd: after });
    expect(result.items[0].realized_savings_monthly_usd).toBe(projected);
    expect(result.totals).toEqual({ estimated: advice.savings_monthly_usd, realized: 0, projected });
  });

  it("does not credit a change made before the recommendation was analyzed", async () => {
    // Analyzed now, but the resize was observed 14 days ago: the change was not the recommendation's doing.
    const { t } = await downsized("vm-earlier", false);
    await seedSpend(ctx, t.organizationId, [
      ...Array.from({ length: 14 }, (_, i) => dayLine(t.tenant, addDays(changeDay, i - 14), "9.216", { resourceId: "vm-earlier" })),
      ...Array.from({ length: 14 }, (_, i) => dayLine(t.tenant, addDays(changeDay, i), "4.608", { resourceId: "vm-earlier" })),
    ]);
    expect(await savings(t, addDays(changeDay, -1), today)).toEqual({ items: [], totals: { estimated: 0, realized: 0, projected: 0 } });
  });
});
