import request from "supertest";
import type { ComputeResourceInput, MetricSample, RealizedSavingsItem, RecommendationItem, RecommendationSummary } from "@cloudcost/contracts";
import { samplesFor, shaped, vm } from "./helpers/compute-fleet";
import { createTestContext, TEST_SERVICE_TOKEN_SECRET, type TestContext } from "./helpers/context";
import { addUser, signUp } from "./helpers/identity";
import { startPricingApi, type RunningPricingApi } from "./helpers/pricing-api";
import { addDays, dayLine, seedSpend } from "./helpers/spend-seed";

/**
 * Recommendations over time (docs/api.md, "Recommendations over time"): resizes start new evidence,
 * retired resources leave the summary, decisions about recommendations persist, commitments take
 * the savings away, and realized savings are measured on the bill. Against the real pricing API and
 * its seed catalog (m5.2xlarge 0.384 USD/h = 280.32 a month, m5.large 0.096 = 70.08).
 */

let ctx: TestContext;
let pricing: RunningPricingApi;

interface Tenant {
  token: string;
  tenant: string;
  organizationId: string;
}

const HOUR = 3600_000;
const DAY = 24 * HOUR;

async function newTenant(): Promise<Tenant> {
  const signedUp = await signUp(ctx);
  return { token: signedUp.token, tenant: signedUp.tenant.id, organizationId: signedUp.organization.id };
}

const api = (t: Tenant, method: "get" | "put" | "post" | "patch" | "delete", path: string, token = t.token) =>
  request(ctx.app)[method](path).set("Authorization", `Bearer ${token}`).set("X-Service-Tenant-ID", t.tenant);

const upsert = (t: Tenant, resources: ComputeResourceInput[]) => api(t, "put", "/api/v1/tenant/compute/resources").send({ resources });
const send = (t: Tenant, samples: MetricSample[]) => api(t, "post", "/api/v1/tenant/compute/metrics").send({ samples });
const retire = (t: Tenant, id: string) => api(t, "delete", `/api/v1/tenant/compute/resources/${encodeURIComponent(id)}`);
const setState = (t: Tenant, id: string, body: object, token?: string) =>
  api(t, "patch", `/api/v1/tenant/compute/recommendations/${encodeURIComponent(id)}`, token).send(body);

async function analyzed(t: Tenant, query: Record<string, string> = {}): Promise<Record<string, RecommendationItem>> {
  await api(t, "post", "/api/v1/tenant/compute/recommendations/analyze").expect(200);
  return items(t, query);
}

async function items(t: Tenant, query: Record<string, string> = {}): Promise<Record<string, RecommendationItem>> {
  const res = await api(t, "get", "/api/v1/tenant/compute/recommendations")
    .query({ limit: "500", ...query })
    .expect(200);
  return Object.fromEntries((res.body.data.items as RecommendationItem[]).map((item) => [item.resource_id, item]));
}

async function summary(t: Tenant): Promise<RecommendationSummary> {
  return (await api(t, "get", "/api/v1/tenant/compute/recommendations/summary").expect(200)).body.data;
}

async function savings(
  t: Tenant,
  start: string,
  end: string,
): Promise<{ items: RealizedSavingsItem[]; totals: { estimated: number; realized: number; projected: number } }> {
  return (await api(t, "get", "/api/v1/tenant/compute/savings").query({ start, end }).expect(200)).body.data;
}

/** Dates a resource's standing recommendation back to `at` (the analysis happened then): realized savings count changes after it. */
async function analyzedOn(t: Tenant, resourceId: string, at: string): Promise<void> {
  await ctx.db.sql.query("UPDATE compute_resources SET analyzed_at = $3 WHERE tenant_id = $1 AND resource_id = $2", [t.tenant, resourceId, at]);
}

/** 48 hourly samples at a constant CPU and memory, the last `endAgoHours` ago. */
const steady = (id: string, cpu: number, memory: number, endAgoHours = 0) =>
  samplesFor(
    id,
    48,
    60,
    () => cpu,
    () => memory,
    endAgoHours * 60 + 1,
  );

beforeAll(async () => {
  pricing = await startPricingApi(TEST_SERVICE_TOKEN_SECRET, { computeCatalog: true });
  ctx = await createTestContext({ PRICING_API_URL: pricing.url });
}, 120_000);
afterAll(async () => {
  await ctx?.close();
  await pricing?.close();
});

describe("a resize starts new evidence", () => {
  it("answers NO_RECOMMENDATION with recently_resized until 12 samples over 24 hours of the new shape, then from them only", async () => {
    const t = await newTenant();
    await upsert(t, [vm("vm-resized", "m5.2xlarge")]).expect(200);
    // CPU 20 % of 8 vCPUs: need 8 x 20 / 70 = 2.29 vCPU; memory 30 % of 32 GB: 32 x 30 / 80 = 12 GB. Ends 50 hours ago.
    await send(t, steady("vm-resized", 20, 30, 50)).expect(200);
    const before = (await analyzed(t))["vm-resized"];
    expect(before.action).toBe("DOWNSIZE");
    expect(before.options[0].cpu_cores).toBe(4);
    const smaller = before.recommended_instance_type as string;

    const resizedAt = new Date(Date.now() - 48 * HOUR).toISOString();
    await upsert(t, [vm("vm-resized", smaller, { observed_at: resizedAt })]).expect(200);
    const waiting = (await analyzed(t))["vm-resized"];
    expect(waiting).toMatchObject({
      action: "NO_RECOMMENDATION",
      finding_reasons: ["insufficient_data", "recently_resized"],
      stats: null,
      current_instance_type: smaller,
      // the new type's price is known already: the recommended cost of the DOWNSIZE
      current_monthly_cost_usd: before.recommended_monthly_cost_usd,
    });

    // 12 samples of the new shape, 2 hours apart: 22 hours, still short of 24.
    await send(
      t,
      samplesFor(
        "vm-resized",
        12,
        120,
        () => 60,
        () => 50,
        25 * 60,
      ),
    ).expect(200);
    expect((await analyzed(t))["vm-resized"].finding_reasons).toEqual(["insufficient_data", "recently_resized"]);

    // A 13th an hour ago: 13 samples over 46 hours, all at 60 % (the 48 at 20 % from before the resize do not count).
    await send(
      t,
      samplesFor(
        "vm-resized",
        1,
        60,
        () => 60,
        () => 50,
      ),
    ).expect(200);
    const after = (await analyzed(t))["vm-resized"];
    expect(after.stats).toMatchObject({ samples: 13, cpu_p95: 60, cpu_max: 60, memory_p95: 50 });
    expect(Date.parse(after.stats!.window_start)).toBeGreaterThanOrEqual(Date.parse(resizedAt));
    expect(after.action).not.toBe("NO_RECOMMENDATION");
    expect(after.finding_reasons).not.toContain("recently_resized");
    expect(after.finding_reasons).not.toContain("insufficient_data");
  });

  it("refuses an observed_at in the future or more than 93 days ago, naming it", async () => {
    const t = await newTenant();
    const future = new Date(Date.now() + DAY).toISOString();
    const old = new Date(Date.now() - 94 * DAY).toISOString();
    for (const observed_at of [future, old, "yesterday"]) {
      const res = await upsert(t, [vm("vm-x", "m5.large", { observed_at })]).expect(400);
      expect(res.body.message).toContain("resources.0.observed_at");
    }
  });
});

describe("realized savings", () => {
  it("measures a followed DOWNSIZE on the bill: 14 days at 0.384 USD/h, 14 at 0.192 USD/h", async () => {
    const t = await newTenant();
    await upsert(t, [vm("vm-billed", "m5.2xlarge")]).expect(200);
    await send(t, steady("vm-billed", 20, 30)).expect(200);
    const advice = (await analyzed(t))["vm-billed"];
    expect(advice.action).toBe("DOWNSIZE");

    // Resized at midnight 14 days ago to the recommended type, bill lines a day each on both sides.
    // The recommendation was analyzed before that (a change made before the analysis is not its doing).
    const today = new Date().toISOString().slice(0, 10);
    const changeDay = addDays(today, -14);
    await analyzedOn(t, "vm-billed", `${addDays(changeDay, -1)}T00:00:00.000Z`);
    await upsert(t, [vm("vm-billed", advice.recommended_instance_type as string, { observed_at: `${changeDay}T00:00:00.000Z` })]).expect(200);
    const line = (day: string, cost: string) => dayLine(t.tenant, day, cost, { resourceId: "vm-billed" });
    await seedSpend(ctx, t.organizationId, [
      // 0.384 x 24 = 9.216 a day before the change, 0.192 x 24 = 4.608 a day after
      ...Array.from({ length: 14 }, (_, i) => line(addDays(changeDay, i - 14), "9.216")),
      ...Array.from({ length: 14 }, (_, i) => line(addDays(changeDay, i), "4.608")),
      // another resource's line the same days does not count
      dayLine(t.tenant, changeDay, "1000", { resourceId: "someone-else" }),
    ]);

    const result = await savings(t, addDays(changeDay, -1), today);
    expect(result.items).toHaveLength(1);
    expect(result.items[0]).toMatchObject({
      resource_id: "vm-billed",
      recommendation: {
        action: "DOWNSIZE",
        recommended_instance_type: advice.recommended_instance_type,
        savings_monthly_usd: advice.savings_monthly_usd,
      },
      change: {
        at: `${changeDay}T00:00:00.000Z`,
        from: { instance_type: "m5.2xlarge", cpu_cores: null, ram_gb: null },
        to: { instance_type: advice.recommended_instance_type, cpu_cores: null, ram_gb: null },
      },
      followed: true,
      basis: "bill",
      // median day 9.216 x 730 / 24 = 280.32; 4.608 x 730 / 24 = 140.16
      before_monthly_usd: 280.32,
      after_monthly_usd: 140.16,
      // 280.32 - 140.16
      realized_savings_monthly_usd: 140.16,
      days_observed: 14,
    });
    expect(result.totals).toEqual({ estimated: advice.savings_monthly_usd, realized: 140.16, projected: 0 });
    // Outside the range: nothing.
    expect((await savings(t, addDays(today, -3), today)).items).toEqual([]);
  });

  it("answers 400 for a range that ends before it starts", async () => {
    const t = await newTenant();
    const res = await api(t, "get", "/api/v1/tenant/compute/savings").query({ start: "2026-11-10", end: "2026-11-01" }).expect(400);
    expect(res.body.message).toContain("end");
  });
});

describe("retiring a resource", () => {
  it("takes a TERMINATE out of the summary and the list, keeps it for include_retired, refuses its samples, counts it as followed", async () => {
    const t = await newTenant();
    await upsert(t, [vm("vm-idle", "m5.large"), vm("vm-busy", "m5.large")]).expect(200);
    await send(t, [...shaped("vm-idle", 1, 2, 20), ...shaped("vm-busy", 60, 80, 70)]).expect(200);
    const before = await analyzed(t);
    // m5.large 0.096 x 730 = 70.08, all of it saved by terminating
    expect(before["vm-idle"]).toMatchObject({ action: "TERMINATE", current_monthly_cost_usd: 70.08, savings_monthly_usd: 70.08 });
    expect((await summary(t)).action_counts.terminate).toBe(1);

    await retire(t, "vm-idle").expect(204);
    const after = await summary(t);
    expect(after.total_resources).toBe(1);
    expect(after.action_counts.terminate).toBe(0);
    expect(after.potential_savings_monthly_usd).toBe(0 + (before["vm-busy"].action === "NOOP" ? 0 : (before["vm-busy"].savings_monthly_usd ?? 0)));
    expect(Object.keys(await analyzed(t))).toEqual(["vm-busy"]);
    const all = await items(t, { include_retired: "true" });
    expect(Object.keys(all).sort()).toEqual(["vm-busy", "vm-idle"]);
    expect(all["vm-idle"].retired_at).not.toBeNull();

    const refused = await send(t, shaped("vm-idle", 1, 2)).expect(400);
    expect(refused.body.message).toContain("'vm-idle'");

    const result = await savings(t, new Date(Date.now() - DAY).toISOString(), new Date(Date.now() + 60_000).toISOString());
    expect(result.items).toHaveLength(1);
    expect(result.items[0]).toMatchObject({
      resource_id: "vm-idle",
      change: { from: { instance_type: "m5.large" }, to: null },
      followed: true,
      basis: "catalog",
      before_monthly_usd: 70.08,
      after_monthly_usd: 0,
      // 70.08 - 0: the whole monthly cost, by the catalog: projected, not realized
      realized_savings_monthly_usd: 70.08,
      days_observed: 0,
    });
    expect(result.totals).toEqual({ estimated: 70.08, realized: 0, projected: 70.08 });

    // Retiring again is fine; an unknown resource is a 404; upserting revives it.
    await retire(t, "vm-idle").expect(204);
    await retire(t, "no-such-vm").expect(404);
    await upsert(t, [vm("vm-idle", "m5.large")]).expect(200);
    expect(Object.keys(await items(t)).sort()).toEqual(["vm-busy", "vm-idle"]);
    await send(t, shaped("vm-idle", 1, 2)).expect(200);
  });
});

describe("recommendation states", () => {
  it("counts a dismissed DOWNSIZE in the action counts but not in the savings, and reopens it when the recommended type changes", async () => {
    const t = await newTenant();
    await upsert(t, [vm("vm-dismissed", "m5.2xlarge")]).expect(200);
    await send(t, steady("vm-dismissed", 20, 30, 48)).expect(200);
    const first = (await analyzed(t))["vm-dismissed"];
    expect(first.action).toBe("DOWNSIZE");
    expect(first.state).toBe("open");
    expect((await summary(t)).potential_savings_monthly_usd).toBe(first.savings_monthly_usd);

    const res = await setState(t, "vm-dismissed", { state: "dismissed", reason: "runs the month-end batch" }).expect(200);
    expect(res.body.data).toMatchObject({ state: "dismissed", state_reason: "runs the month-end batch", snoozed_until: null });
    const dismissed = await summary(t);
    expect(dismissed.action_counts.downsize).toBe(1);
    expect(dismissed.actionable_count).toBe(1);
    // 1 DOWNSIZE, dismissed: 0 of its savings
    expect(dismissed.potential_savings_monthly_usd).toBe(0);
    expect(dismissed.top_savers).toEqual([]);
    expect(Object.keys(await items(t, { state: "dismissed" }))).toEqual(["vm-dismissed"]);
    expect(Object.keys(await items(t, { state: "open" }))).toEqual([]);

    // The same evidence again: same action and type, the decision stands.
    expect((await analyzed(t))["vm-dismissed"]).toMatchObject({ state: "dismissed", state_reason: "runs the month-end batch" });

    // Memory now at 60 %: 96 samples, p95 60, need 32 x 60 / 80 = 24 GB: another type is recommended.
    await send(t, steady("vm-dismissed", 20, 60)).expect(200);
    const reopened = (await analyzed(t))["vm-dismissed"];
    expect(reopened.recommended_instance_type).not.toBe(first.recommended_instance_type);
    expect(reopened).toMatchObject({ state: "open", state_reason: null });
    expect((await summary(t)).potential_savings_monthly_usd).toBe(reopened.savings_monthly_usd);
  });

  it("snoozes until a time in the future, lets members decide, and refuses what makes no sense", async () => {
    const t = await newTenant();
    await upsert(t, [vm("vm-snoozed", "m5.2xlarge")]).expect(200);
    await send(t, steady("vm-snoozed", 20, 30)).expect(200);
    await analyzed(t);
    const member = await addUser(ctx, { orgId: t.organizationId, ownerToken: t.token, role: "member", tenantIds: [t.tenant] });
    const viewer = await addUser(ctx, { orgId: t.organizationId, ownerToken: t.token, role: "viewer", tenantIds: [t.tenant] });

    const until = new Date(Date.now() + 7 * DAY).toISOString();
    const snoozed = await setState(t, "vm-snoozed", { state: "snoozed", snoozed_until: until }, member.token).expect(200);
    expect(snoozed.body.data).toMatchObject({ state: "snoozed", snoozed_until: until });
    expect((await summary(t)).potential_savings_monthly_usd).toBe(0);
    await setState(t, "vm-snoozed", { state: "open" }, viewer.token).expect(403);
    // A viewer cannot retire either; the resource stays listed.
    const asViewer = { ...t, token: viewer.token };
    await retire(asViewer, "vm-snoozed").expect(403);
    expect(Object.keys(await items(t))).toContain("vm-snoozed");

    const bad = [
      [{ state: "snoozed" }, "snoozed_until"],
      [{ state: "snoozed", snoozed_until: new Date(Date.now() - 60_000).toISOString() }, "snoozed_until"],
      [{ state: "snoozed", snoozed_until: new Date(Date.now() + 400 * DAY).toISOString() }, "snoozed_until"],
      [{ state: "dismissed", snoozed_until: until }, "snoozed_until"],
      [{ state: "dismissed", reason: "x".repeat(1001) }, "reason"],
      [{ state: "closed" }, "state"],
    ] as const;
    for (const [body, field] of bad) {
      const res = await setState(t, "vm-snoozed", body).expect(400);
      expect(res.body.message).toContain(field);
    }
    await setState(t, "no-such-vm", { state: "accepted" }).expect(404);

    const accepted = await setState(t, "vm-snoozed", { state: "accepted", reason: "next maintenance window" }).expect(200);
    expect(accepted.body.data).toMatchObject({ state: "accepted", snoozed_until: null });
    const s = await summary(t);
    expect(s.potential_savings_monthly_usd).toBe((await items(t))["vm-snoozed"].savings_monthly_usd);
  });
});

describe("commitments", () => {
  it("keeps a reserved idle m5.2xlarge's TERMINATE but with savings 0 and commitment_covered", async () => {
    const t = await newTenant();
    await upsert(t, [vm("vm-reserved", "m5.2xlarge", { purchase_option: "reserved" })]).expect(200);
    // p95 2 %, max 5 %: idle
    await send(t, shaped("vm-reserved", 2, 5)).expect(200);
    expect((await analyzed(t))["vm-reserved"]).toMatchObject({
      action: "TERMINATE",
      current_monthly_cost_usd: 280.32,
      savings_monthly_usd: 0,
      finding_reasons: ["idle", "memory_unknown", "commitment_covered"],
    });
    const s = await summary(t);
    expect(s.action_counts.terminate).toBe(1);
    expect(s.potential_savings_monthly_usd).toBe(0);
  });

  it("takes the savings of a resource whose last week's bill lines are Committed", async () => {
    const t = await newTenant();
    await upsert(t, [vm("vm-covered", "m5.2xlarge"), vm("vm-uncovered", "m5.2xlarge")]).expect(200);
    await send(t, [...steady("vm-covered", 20, 30), ...steady("vm-uncovered", 20, 30)]).expect(200);
    const today = new Date().toISOString().slice(0, 10);
    await seedSpend(ctx, t.organizationId, [
      dayLine(t.tenant, addDays(today, -2), "4.608", { resourceId: "vm-covered", pricingCategory: "Committed" }),
      // Committed, but 10 days ago: older than the week that counts
      dayLine(t.tenant, addDays(today, -10), "4.608", { resourceId: "vm-uncovered", pricingCategory: "Committed" }),
      dayLine(t.tenant, addDays(today, -2), "9.216", { resourceId: "vm-uncovered", pricingCategory: "Standard" }),
    ]);
    const result = await analyzed(t);
    expect(result["vm-covered"]).toMatchObject({ action: "DOWNSIZE", savings_monthly_usd: 0 });
    expect(result["vm-covered"].finding_reasons).toContain("commitment_covered");
    expect(result["vm-uncovered"].action).toBe("DOWNSIZE");
    expect(result["vm-uncovered"].savings_monthly_usd).toBeGreaterThan(0);
    expect(result["vm-uncovered"].finding_reasons).not.toContain("commitment_covered");
  });
});

describe("burstable credits (rule version 3)", () => {
  it("does not upsize a t3.medium at p95 15 % whose mean is 5 %, and upsizes one whose mean is above its 20 % baseline", async () => {
    const t = await newTenant();
    await upsert(t, [vm("t3-credits", "t3.medium"), vm("t3-drained", "t3.medium")]).expect(200);
    // 45 samples at 4.33 and 3 at 15: nearest-rank p95 (rank 46 of 48) = 15, mean (45 x 4.33 + 3 x 15) / 48 = 4.997
    const credits = samplesFor(
      "t3-credits",
      48,
      60,
      (i) => (i % 16 === 0 ? 15 : 4.33),
      () => 50,
    );
    // every sample at 25: mean 25 > the 20 % baseline (2 x 25 > 2 x 20), even though p95 25 is within 70 % of 2 vCPUs
    await send(t, [...credits, ...steady("t3-drained", 25, 50)]).expect(200);
    const result = await analyzed(t);
    expect(result["t3-credits"].stats).toMatchObject({ cpu_p95: 15, samples: 48 });
    expect(result["t3-credits"].action).not.toBe("UPSIZE");
    expect(result["t3-credits"].finding_reasons).not.toContain("cpu_under_provisioned");
    expect(result["t3-drained"].action).toBe("UPSIZE");
    expect(result["t3-drained"].finding_reasons).toContain("cpu_under_provisioned");
  });
});
