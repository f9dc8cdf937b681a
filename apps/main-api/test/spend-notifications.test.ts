// The glue between spend and alerts (docs/api.md, "Spend: usage, queries, lines, export" and "Budgets"): a usage ingestion, reprice or
// FOCUS import that crosses a budget threshold notifies once, and an import emits `import.completed`,
// both delivered to a registered receiver.
import request from "supertest";
import { createTestContext, TEST_SERVICE_TOKEN_SECRET, type TestContext } from "./helpers/context";
import { focusCsvText } from "./helpers/focus-files";
import { signUp, type SignedUp } from "./helpers/identity";
import { startPricingApi, type RunningPricingApi } from "./helpers/pricing-api";
import { modelUsage, registerModelPrices } from "./helpers/spend";
import { startReceiver } from "./helpers/webhook-receiver";
import { EVENTUALLY_TIMEOUT_MS } from "@cloudcost/testing";

let pricing: RunningPricingApi;
let ctx: TestContext;
let org: SignedUp;
let prices: Record<string, string>;
let receiver: Awaited<ReturnType<typeof startReceiver>>;

beforeAll(async () => {
  pricing = await startPricingApi(TEST_SERVICE_TOKEN_SECRET);
  ctx = await createTestContext({ PRICING_API_URL: pricing.url, PRICING_API_TIMEOUT_MS: "30000" });
  org = await signUp(ctx, { company: "Glue Co" });
  prices = await registerModelPrices(pricing, org.organization.id, "gpt-4o", [{ bucket: "output", perMtok: 10 }]);
  receiver = await startReceiver();
  const hook = await request(ctx.app)
    .post(`/api/v1/organizations/${org.organization.id}/webhooks`)
    .set("Authorization", `Bearer ${org.token}`)
    .send({ url: receiver.url, events: ["budget.threshold_crossed", "import.completed"] });
  expect(hook.status).toBe(201);
}, 60_000);
afterAll(async () => {
  await ctx?.close();
  await pricing?.close();
  await receiver?.close();
});

const auth = (token = org.token) => ({ Authorization: `Bearer ${token}` });
const tenantPost = (path: string, body: unknown, tenant = org.tenant.id) =>
  request(ctx.app).post(path).set(auth()).set("X-Service-Tenant-ID", tenant).send(body);

/**
 * The events the receiver got, of one type, after every due delivery ran. Spend routes write their
 * events before they answer, so the final drain delivers all of them: waiting for `expected` and
 * then counting also catches an extra (duplicate) event.
 */
async function receivedOf(type: string, expected: number): Promise<{ id: string; type: string; data: Record<string, unknown> }[]> {
  const of = () => receiver.received.map((r) => JSON.parse(r.body)).filter((event) => event.type === type);
  const deadline = Date.now() + EVENTUALLY_TIMEOUT_MS;
  while (of().length < expected && Date.now() < deadline) {
    await ctx.outbox.drain();
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  await ctx.outbox.drain();
  return of();
}

async function createBudget(tenant: string, name: string, amount: string) {
  const res = await tenantPost(
    "/api/v1/tenant/budgets",
    { name, period: "monthly", amount, currency: "USD", thresholds: [{ percent: 50, kind: "actual" }] },
    tenant,
  );
  expect(res.status).toBe(201);
  expect(res.body.data.status.crossed).toEqual([]);
  return res.body.data.id as string;
}

const nowIso = () => new Date().toISOString();

it("a usage ingestion that crosses a threshold sends exactly one budget.threshold_crossed; a reprice that crosses one too", async () => {
  const budgetId = await createBudget(org.tenant.id, "usage", "1");
  // 40,000 output tokens at 10 USD per million: 0.40 USD, under 50% of 1 USD.
  const under = await tenantPost("/api/v1/tenant/spend/usage", {
    usage: [modelUsage(prices.output, { output: 40_000 }, { event_id: "u-1", timestamp: nowIso() })],
  });
  expect(under.status).toBe(200);
  expect(await receivedOf("budget.threshold_crossed", 0)).toHaveLength(0);
  // +0.20 USD: 0.60 USD crosses 50%.
  const over = await tenantPost("/api/v1/tenant/spend/usage", {
    usage: [modelUsage(prices.output, { output: 20_000 }, { event_id: "u-2", timestamp: nowIso() })],
  });
  expect(over.status).toBe(200);
  const crossed = await receivedOf("budget.threshold_crossed", 1);
  expect(crossed).toHaveLength(1);
  expect(crossed[0].data).toMatchObject({
    budget_id: budgetId,
    tenant_id: org.tenant.id,
    threshold: { percent: 50, kind: "actual" },
    spent: "0.60",
    amount: "1",
  });
  // More spend in the same period notifies nothing more.
  await tenantPost("/api/v1/tenant/spend/usage", { usage: [modelUsage(prices.output, { output: 20_000 }, { event_id: "u-3", timestamp: nowIso() })] }).expect(
    200,
  );
  expect(await receivedOf("budget.threshold_crossed", 1)).toHaveLength(1);

  // A second tenant: usage of a bucket without a price stays unpriced; the reprice after the price is registered crosses its budget.
  const second = await request(ctx.app).post(`/api/v1/organizations/${org.organization.id}/tenants`).set(auth()).send({ name: "Repriced" }).expect(201);
  const tenant2 = second.body.data.id as string;
  const budget2 = await createBudget(tenant2, "reprice", "1");
  const claude = await registerModelPrices(pricing, org.organization.id, "claude", [{ bucket: "input", perMtok: 1 }]);
  const unpriced = await tenantPost(
    "/api/v1/tenant/spend/usage",
    { usage: [modelUsage(claude.input, { output: 100_000 }, { event_id: "r-1", timestamp: nowIso(), resource_id: "claude" })] },
    tenant2,
  );
  expect(unpriced.body.data).toMatchObject({ accepted: 1, unpriced: 1 });
  expect(await receivedOf("budget.threshold_crossed", 1)).toHaveLength(1);
  await registerModelPrices(pricing, org.organization.id, "claude", [{ bucket: "output", perMtok: 10 }]);
  const reprice = await tenantPost("/api/v1/tenant/spend/usage/reprice", {}, tenant2);
  expect(reprice.status).toBe(200);
  expect(reprice.body.data).toMatchObject({ repriced: 1, still_unpriced: 0 });
  const after = await receivedOf("budget.threshold_crossed", 2);
  expect(after).toHaveLength(2);
  expect(after[1].data).toMatchObject({ budget_id: budget2, tenant_id: tenant2, spent: "1.00" });
}, 60_000);

it("an import emits one import.completed with the import of the answer, and a threshold it crosses notifies once", async () => {
  const budgetId = await createBudget(org.tenant.id, "import", "10");
  const rules = await request(ctx.app)
    .put(`/api/v1/organizations/${org.organization.id}/spend/allocation-rules`)
    .set(auth())
    .send({ rules: [{ tenant_id: org.tenant.id, sub_account_ids: ["prod"] }] });
  expect(rules.status).toBe(200);
  const now = new Date();
  const day = (offset: number) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + offset)).toISOString();
  const month = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString();
  const nextMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString();
  const csv = focusCsvText(
    [
      {
        SubAccountId: "prod",
        BilledCost: "7.5",
        EffectiveCost: "7.5",
        ListCost: "7.5",
        ChargePeriodStart: day(0),
        ChargePeriodEnd: day(1),
        BillingPeriodStart: month,
        BillingPeriodEnd: nextMonth,
      },
    ],
    ["SubAccountId"],
  );
  const before = (await receivedOf("budget.threshold_crossed", 0)).length;
  const res = await request(ctx.app)
    .post(`/api/v1/organizations/${org.organization.id}/spend/imports`)
    .set(auth())
    .set("Content-Type", "text/csv")
    .send(Buffer.from(csv));
  expect(res.status).toBe(201);
  const completed = await receivedOf("import.completed", 1);
  expect(completed).toHaveLength(1);
  expect(completed[0].data).toEqual(res.body.data.import);
  const crossed = (await receivedOf("budget.threshold_crossed", before + 1)).slice(before);
  expect(crossed).toHaveLength(1);
  expect(crossed[0].data).toMatchObject({ budget_id: budgetId, threshold: { percent: 50, kind: "actual" } });
}, 60_000);
