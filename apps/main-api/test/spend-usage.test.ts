// Usage priced at ingestion (docs/api.md, "Spend: usage, queries, lines, export"): exact decimals, unpriced lines with their
// reason, dedupe by event_id under concurrency, all or nothing, 503 when the pricing API is down,
// and reprice.
import request from "supertest";
import { createTestContext, TEST_SERVICE_TOKEN_SECRET, type TestContext } from "./helpers/context";
import { addUser, expectError, signUp, type SignedUp } from "./helpers/identity";
import { startPricingApi, type RunningPricingApi } from "./helpers/pricing-api";
import { modelUsage, registerModelPrices } from "./helpers/spend";

let pricing: RunningPricingApi;
let ctx: TestContext;
let org: SignedUp;
let prices: Record<string, string>;
beforeAll(async () => {
  pricing = await startPricingApi(TEST_SERVICE_TOKEN_SECRET);
  ctx = await createTestContext({ PRICING_API_URL: pricing.url, PRICING_API_TIMEOUT_MS: "30000" });
  org = await signUp(ctx);
  prices = await registerModelPrices(pricing, org.organization.id, "gpt-4o", [
    { bucket: "input", perMtok: 0.1 },
    { bucket: "output", perMtok: 10.0000000001 },
  ]);
}, 60_000);
afterAll(async () => {
  await ctx?.close();
  await pricing?.close();
});

const post = (path: string, body: unknown, token = org.token, tenant = org.tenant.id) =>
  request(ctx.app).post(path).set("Authorization", `Bearer ${token}`).set("X-Service-Tenant-ID", tenant).send(body);
const get = (path: string, token = org.token, tenant = org.tenant.id) =>
  request(ctx.app).get(path).set("Authorization", `Bearer ${token}`).set("X-Service-Tenant-ID", tenant);

describe("POST /api/v1/tenant/spend/usage", () => {
  it("sums 10,000 lines of 0.0000001 to exactly 0.001", async () => {
    const usage = Array.from({ length: 10_000 }, (_, i) =>
      modelUsage(prices.input, { input: 1 }, { event_id: `exact-${i}`, timestamp: "2026-09-01T12:00:00.000Z" }),
    );
    const res = await post("/api/v1/tenant/spend/usage", { usage });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ accepted: 10_000, duplicates: 0, priced: 10_000, unpriced: 0, totals: [{ currency: "USD", cost: "0.001" }] });
    const spend = await get("/api/v1/tenant/spend?start=2026-09-01&end=2026-10-01&granularity=none");
    expect(spend.status).toBe(200);
    expect(spend.body.data.totals).toEqual([{ currency: "USD", cost: "0.001" }]);
  }, 60_000);

  it("stores a priced line with its entry and unit prices, and an unpriced one with its reason and null costs", async () => {
    const res = await post("/api/v1/tenant/spend/usage", {
      usage: [
        modelUsage(prices.input, { input: 1000, output: 3 }, { event_id: "mixed-1", timestamp: "2026-10-02T08:15:00+02:00" }),
        modelUsage(null, { input: 5 }, { event_id: "mixed-2", timestamp: "2026-10-02T07:00:00.000Z" }),
      ],
    });
    expect(res.body.data).toEqual({ accepted: 2, duplicates: 0, priced: 1, unpriced: 1, totals: [{ currency: "USD", cost: "0.00013" }] });
    const lines = await get("/api/v1/tenant/spend/lines?start=2026-10-02&end=2026-10-03");
    expect(lines.status).toBe(200);
    const [priced, unpriced] = lines.body.data.items;
    expect(priced).toMatchObject({
      source: "usage",
      tenant_id: org.tenant.id,
      charge_period_start: "2026-10-02T06:15:00.000Z",
      charge_period_end: "2026-10-02T07:00:00.000Z",
      charge_category: "Usage",
      pricing_id: prices.input,
      unit_prices: { input: "0.1", output: "10.0000000001" },
      consumed_quantity: "1003",
      consumed_unit: "Tokens",
      billed_cost: "0.00013",
      effective_cost: "0.00013",
      list_cost: "0.00013",
      currency: "USD",
      priced: true,
      unpriced_reason: null,
      model: "gpt-4o",
      event_id: "mixed-1",
    });
    expect(unpriced).toMatchObject({
      priced: false,
      unpriced_reason: "no_pricing_label",
      billed_cost: null,
      currency: null,
      unit_prices: null,
      event_id: "mixed-2",
    });
  });

  it("stores an event once whatever the number of concurrent identical batches", async () => {
    const usage = [1, 2, 3].map((i) => modelUsage(prices.input, { input: 10 * i }, { event_id: `race-${i}`, timestamp: "2026-10-03T00:00:00.000Z" }));
    const answers = await Promise.all(Array.from({ length: 10 }, () => post("/api/v1/tenant/spend/usage", { usage })));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    expect(answers.reduce((sum, a) => sum + a.body.data.accepted, 0)).toBe(3);
    expect(answers.reduce((sum, a) => sum + a.body.data.duplicates, 0)).toBe(27);
    const [{ count }] = await ctx.db.sql.query<{ count: number }>("SELECT count(*)::int AS count FROM spend_lines WHERE event_id LIKE 'race-%'");
    expect(count).toBe(3);
    const spend = await get("/api/v1/tenant/spend?start=2026-10-03&end=2026-10-04&granularity=none");
    expect(spend.body.data.totals).toEqual([{ currency: "USD", cost: "0.000006" }]);
  }, 60_000);

  it("is a 400 naming a malformed line, and stores nothing of the batch", async () => {
    const res = await post("/api/v1/tenant/spend/usage", {
      usage: [modelUsage(prices.input, { input: 1 }, { event_id: "bad-0" }), modelUsage(prices.input, { tokens: 1 }, { event_id: "bad-1" })],
    });
    expectError(res, 400, /usage\.1\.quantities/);
    const long = await post("/api/v1/tenant/spend/usage", { usage: [modelUsage(prices.input, { input: 1 }, { event_id: "x".repeat(257) })] });
    expectError(long, 400, /event_id/);
    // Stored labels: PostgreSQL jsonb cannot hold NUL; the JSON body parser refuses it up front.
    const nul = await post("/api/v1/tenant/spend/usage", {
      usage: [modelUsage(prices.input, { input: 1 }, { event_id: "bad-2", tags: { team: "a\u0000b" } })],
    });
    expectError(nul, 400, /NUL/);
    const [{ count }] = await ctx.db.sql.query<{ count: number }>("SELECT count(*)::int AS count FROM spend_lines WHERE event_id LIKE 'bad-%'");
    expect(count).toBe(0);
  });

  it("is a 503 with Retry-After while the pricing API is down, and stores nothing", async () => {
    pricing.down = true;
    try {
      const res = await post("/api/v1/tenant/spend/usage", { usage: [modelUsage(prices.input, { input: 1 }, { event_id: "down-1" })] });
      expectError(res, 503, /pricing API/);
      expect(res.headers["retry-after"]).toBe("5");
      expect(res.headers["x-error-code"]).toBe("pricing_unavailable");
    } finally {
      pricing.down = false;
    }
    const [{ count }] = await ctx.db.sql.query<{ count: number }>("SELECT count(*)::int AS count FROM spend_lines WHERE event_id = 'down-1'");
    expect(count).toBe(0);
  }, 60_000);

  it("is refused to viewers (403), and open to members of the tenant", async () => {
    const viewer = await addUser(ctx, { orgId: org.organization.id, ownerToken: org.token, role: "viewer", tenantIds: [org.tenant.id] });
    const member = await addUser(ctx, { orgId: org.organization.id, ownerToken: org.token, role: "member", tenantIds: [org.tenant.id] });
    const line = { usage: [modelUsage(prices.input, { input: 1 }, { event_id: "role-1", timestamp: "2026-10-04T00:00:00.000Z" })] };
    expectError(await post("/api/v1/tenant/spend/usage", line, viewer.token), 403);
    expect((await post("/api/v1/tenant/spend/usage", line, member.token)).status).toBe(200);
    expect((await get("/api/v1/tenant/spend", viewer.token)).status).toBe(200);
  });
});

describe("POST /api/v1/tenant/spend/usage/reprice", () => {
  it("prices lines a price registered later covers, at their own timestamps, and never touches priced lines", async () => {
    const other = await signUp(ctx);
    const ids = await registerModelPrices(pricing, other.organization.id, "claude", [{ bucket: "input", perMtok: 2 }]);
    const usage = [
      modelUsage(ids.input, { input: 1_000_000 }, { resource_id: "claude", event_id: "rp-priced", timestamp: "2026-10-10T00:00:00.000Z" }),
      modelUsage(ids.input, { input: 1_000_000, output: 1_000_000 }, { resource_id: "claude", event_id: "rp-1", timestamp: "2026-10-10T01:00:00.000Z" }),
      modelUsage(ids.input, { output: 500_000 }, { resource_id: "claude", event_id: "rp-2", timestamp: "2026-10-10T02:00:00.000Z" }),
    ];
    const first = await post("/api/v1/tenant/spend/usage", { usage }, other.token, other.tenant.id);
    expect(first.body.data).toMatchObject({ accepted: 3, priced: 1, unpriced: 2 });
    const before = await get("/api/v1/tenant/spend?start=2026-10-01&end=2026-11-01&granularity=none", other.token, other.tenant.id);
    expect(before.body.data.unpriced).toEqual({ lines: 2, by_reason: { bucket_not_priced: 2 } });

    // The output price: 4 per million from before the usage (a sibling bucket of the named entry).
    await registerModelPrices(pricing, other.organization.id, "claude", [{ bucket: "output", perMtok: 4, from: "2026-10-01T00:00:00.000Z" }]);
    const res = await post("/api/v1/tenant/spend/usage/reprice", { start: "2026-10-10", end: "2026-10-11" }, other.token, other.tenant.id);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ repriced: 2, still_unpriced: 0, totals: [{ currency: "USD", cost: "8" }] });
    const after = await get("/api/v1/tenant/spend?start=2026-10-01&end=2026-11-01&granularity=none", other.token, other.tenant.id);
    expect(after.body.data).toMatchObject({ totals: [{ currency: "USD", cost: "10" }], unpriced: { lines: 0, by_reason: {} } });
    const again = await post("/api/v1/tenant/spend/usage/reprice", {}, other.token, other.tenant.id);
    expect(again.body.data).toEqual({ repriced: 0, still_unpriced: 0, totals: [] });
  }, 60_000);
});
