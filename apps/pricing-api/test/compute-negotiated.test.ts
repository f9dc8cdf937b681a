// The compute query, its batch and the instance-types listing at the calling account's negotiated
// prices (docs/compute-pricing.md, "Negotiated prices"): fixed rates, discounts, precedence,
// versioning and account isolation of the answers and of the in-process cache.
import request from "supertest";
import { ComputeBatchResponse, ComputePrice, InstanceTypesResponse } from "@cloudcost/contracts";
import { eventually } from "@cloudcost/testing";
import { createTestContext, type TestContext } from "./helpers/context";
import { NegotiatedPriceCache } from "../src/compute-prices/negotiated";
import { computePriceRepository, liveComputePrices } from "../src/compute-prices/repository";
import { createComputePriceService } from "../src/compute-prices/service";
import { createApiKey } from "./helpers/keys";

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({}, { computeCatalog: true });
});
afterAll(async () => {
  await ctx.close();
});

let accounts = 0;
const newAccount = () => createApiKey(ctx, `acct_neg_${++accounts}`);
const register = async (key: string, entries: unknown[]) =>
  (await request(ctx.app).post("/marketplace/providers/compute").set("X-API-Key", key).send({ entries }).expect(201)).body.entries as { id: string }[];
const price = async (key: string, query: Record<string, unknown>) =>
  ComputePrice.parse((await request(ctx.app).post("/v1/pricing/compute").set("X-API-Key", key).send(query).expect(200)).body);
const aws = (region: string, instance_type: string, extra: Record<string, unknown> = {}) => ({ provider: "aws", region, instance_type, ...extra });
const hourly = async (key: string, query: Record<string, unknown>) => (await price(key, query)).price_per_hour;

describe("POST /v1/pricing/compute with negotiated entries", () => {
  it("a fixed rate for an instance type: price_per_hour is the rate, list_price_per_hour the catalog's, source negotiated", async () => {
    const key = await newAccount();
    const [entry] = await register(key, [{ provider: "aws", region: "us-east-1", instance_type: "m5.large", price_per_hour: 0.05 }]);
    expect(await price(key, aws("us-east-1", "m5.large"))).toMatchObject({
      price_per_hour: 0.05,
      price_per_month: 36.5,
      list_price_per_hour: 0.096,
      source: "negotiated",
      pricing_id: entry.id,
      instance_type: "m5.large",
      price_source: { name: "github:aws/karpenter-provider-aws@1d92708" },
    });
    // Another type, and the same type elsewhere: the catalog price, unchanged but for the two new fields.
    expect(await price(key, aws("us-east-1", "m5.xlarge"))).toMatchObject({
      price_per_hour: 0.192,
      list_price_per_hour: 0.192,
      source: "catalog",
      pricing_id: null,
    });
    expect(await price(key, aws("us-west-2", "m5.large"))).toMatchObject({ price_per_hour: 0.096, source: "catalog", pricing_id: null });
  });

  it("a family discount applies to every type of the family (the catalog row's family), in every region", async () => {
    const key = await newAccount();
    const [entry] = await register(key, [{ provider: "aws", family: "m5", discount_percent: 10 }]);
    expect(await price(key, aws("us-east-1", "m5.large"))).toMatchObject({
      price_per_hour: 0.0864,
      price_per_month: 63.072,
      list_price_per_hour: 0.096,
      pricing_id: entry.id,
    });
    expect(await hourly(key, aws("us-west-2", "m5.xlarge"))).toBe(0.1728);
    expect(await price(key, aws("us-east-1", "c5.large"))).toMatchObject({ price_per_hour: 0.085, source: "catalog", pricing_id: null });
  });

  it("a region discount and a provider discount", async () => {
    const regional = await newAccount();
    await register(regional, [{ provider: "aws", region: "us-west-2", discount_percent: 20 }]);
    expect(await hourly(regional, aws("us-west-2", "c5.large"))).toBe(0.068);
    expect(await hourly(regional, aws("us-east-1", "c5.large"))).toBe(0.085);

    const provider = await newAccount();
    await register(provider, [{ provider: "aws", discount_percent: 5 }]);
    expect(await hourly(provider, aws("us-east-1", "c5.large"))).toBe(0.08075);
    expect(await price(provider, { provider: "gcp", region: "us-central1", instance_type: "n2-standard-4" })).toMatchObject({
      price_per_hour: 0.194236,
      pricing_id: null,
    });
  });

  it("the most specific entry wins: instance type, then family, then region, then provider; OS and usage type narrow", async () => {
    const key = await newAccount();
    const [provider, region, family, regionFamily, fixed, windows, spot] = await register(key, [
      { provider: "aws", discount_percent: 5 },
      { provider: "aws", region: "us-east-1", discount_percent: 10 },
      { provider: "aws", family: "m5", discount_percent: 15 },
      { provider: "aws", region: "us-east-1", family: "m5", discount_percent: 20 },
      { provider: "aws", instance_type: "m5.large", price_per_hour: 0.03 },
      { provider: "aws", region: "us-east-1", family: "m5", operating_system: "windows", discount_percent: 30 },
      { provider: "aws", family: "c5", usage_type: "spot", discount_percent: 50 },
    ]);
    const cases: [Record<string, unknown>, number, string][] = [
      [aws("us-east-1", "m5.large"), 0.03, fixed.id],
      [aws("us-west-2", "m5.large"), 0.03, fixed.id],
      [aws("us-east-1", "m5.xlarge"), 0.1536, regionFamily.id],
      [aws("us-west-2", "m5.xlarge"), 0.1632, family.id],
      [aws("us-east-1", "c5.large"), 0.0765, region.id],
      [aws("us-west-2", "c5.large"), 0.08075, provider.id],
      // Windows on AWS is the Linux row plus the licence (0.192 + 4 x 0.046 = 0.376), 30% off.
      [aws("us-east-1", "m5.xlarge", { operating_system: "windows" }), 0.2632, windows.id],
      [aws("us-east-1", "c5.large", { usage_type: "spot" }), 0.01955, spot.id],
    ];
    for (const [query, expected, id] of cases) {
      expect({ query, ...(await price(key, query)) }).toMatchObject({ query, price_per_hour: expected, pricing_id: id, source: "negotiated" });
    }
  });

  it("answers with the new version right after a change, the list price after a close, and not before a scheduled start", async () => {
    const key = await newAccount();
    const [first] = await register(key, [{ provider: "aws", family: "r5", discount_percent: 10 }]);
    expect(await hourly(key, aws("us-east-1", "r5.large"))).toBe(0.1134);
    const [second] = await register(key, [{ provider: "aws", family: "r5", discount_percent: 50 }]);
    expect(second.id).not.toBe(first.id);
    expect(await price(key, aws("us-east-1", "r5.large"))).toMatchObject({ price_per_hour: 0.063, pricing_id: second.id });
    await request(ctx.app).delete("/marketplace/providers/compute").query({ id: second.id }).set("X-API-Key", key).expect(200);
    expect(await price(key, aws("us-east-1", "r5.large"))).toMatchObject({ price_per_hour: 0.126, pricing_id: null, source: "catalog" });

    const later = new Date(Date.now() + 3_600_000).toISOString();
    await register(key, [{ provider: "aws", family: "r5", discount_percent: 40, effective_from: later }]);
    expect(await price(key, aws("us-east-1", "r5.large"))).toMatchObject({ price_per_hour: 0.126, pricing_id: null });
  });

  it("B never gets A's price, neither from the database nor from A's cached answers", async () => {
    const a = await newAccount();
    const b = await newAccount();
    const [entry] = await register(a, [{ provider: "aws", family: "m5", discount_percent: 50 }]);
    // A first, so A's entries and A's answer are cached before B asks the same question.
    expect(await price(a, aws("us-east-1", "m5.large"))).toMatchObject({ price_per_hour: 0.048, pricing_id: entry.id });
    expect(await price(b, aws("us-east-1", "m5.large"))).toMatchObject({ price_per_hour: 0.096, pricing_id: null, source: "catalog" });
    expect(await price(a, aws("us-east-1", "m5.large"))).toMatchObject({ price_per_hour: 0.048 });

    const batch = await request(ctx.app)
      .post("/v1/pricing/compute/batch")
      .set("X-API-Key", b)
      .send({ items: [aws("us-east-1", "m5.large")] })
      .expect(200);
    expect(batch.text).not.toContain(entry.id);
    const listing = await request(ctx.app)
      .get("/v1/pricing/compute/instance-types")
      .query({ provider: "aws", region: "us-east-1" })
      .set("X-API-Key", b)
      .expect(200);
    expect(listing.text).not.toContain(entry.id);
    expect(listing.text).not.toContain('"negotiated"');
  });
});

describe("the batch and the instance-types listing with negotiated entries", () => {
  it("price every item at the account's price, and list negotiated rows with their list price", async () => {
    const key = await newAccount();
    const [fixed, family] = await register(key, [
      { provider: "aws", region: "us-east-1", instance_type: "m5.large", price_per_hour: 0.05 },
      { provider: "aws", region: "us-east-1", family: "c5", discount_percent: 10 },
    ]);
    const batch = ComputeBatchResponse.parse(
      (
        await request(ctx.app)
          .post("/v1/pricing/compute/batch")
          .set("X-API-Key", key)
          .send({ items: [aws("us-east-1", "m5.large"), aws("us-east-1", "c5.large"), aws("us-east-1", "r5.large"), { provider: "aws" }] })
          .expect(200)
      ).body,
    );
    const prices = batch.results.map((r) => ("price" in r ? [r.price.price_per_hour, r.price.list_price_per_hour, r.price.pricing_id] : "problem"));
    expect(prices).toEqual([[0.05, 0.096, fixed.id], [0.0765, 0.085, family.id], [0.126, 0.126, null], "problem"]);

    const rows = InstanceTypesResponse.parse(
      (await request(ctx.app).get("/v1/pricing/compute/instance-types").query({ provider: "aws", region: "us-east-1" }).set("X-API-Key", key).expect(200)).body,
    ).instance_types;
    const row = (type: string) => rows.find((r) => r.instance_type === type);
    expect(row("m5.large")).toMatchObject({ price_per_hour: 0.05, list_price_per_hour: 0.096, source: "negotiated", pricing_id: fixed.id });
    expect(row("c5.xlarge")).toMatchObject({ list_price_per_hour: 0.17, price_per_hour: 0.153, pricing_id: family.id });
    expect(row("r5.large")).toMatchObject({ price_per_hour: 0.126, list_price_per_hour: 0.126, source: "catalog", pricing_id: null });
  });
});

describe("the per-account cache of negotiated entries", () => {
  const m5 = {
    provider: "aws",
    region: "us-east-1",
    instanceType: "m5.large",
    family: "m5",
    operatingSystem: "linux",
    usageType: "on_demand",
    currency: "USD",
  };
  // The service the handlers build, over this test's database (ctx is set up before each test runs).
  const prices = () => createComputePriceService({ prisma: ctx.prisma, prices: computePriceRepository });
  const cacheOver = (ttlMs: number) => new NegotiatedPriceCache((accountId) => liveComputePrices(ctx.prisma, accountId), { ttlMs });
  const data = (discount: number) => [{ provider: "aws", family: "m5", discount_percent: discount, currency: "USD" }];

  it("holds each account's own entries: B's are never A's, whatever was loaded first", async () => {
    await createApiKey(ctx, "acct_cache_a");
    await createApiKey(ctx, "acct_cache_b");
    const [entry] = await prices().registerComputePrices("acct_cache_a", data(30));
    const cache = cacheOver(60_000);
    expect((await cache.get("acct_cache_a")).applicable(m5, Date.now())?.id).toBe(entry.id);
    expect(cache.peek("acct_cache_b")).toBeUndefined();
    const b = await cache.get("acct_cache_b");
    expect(b.size).toBe(0);
    expect(b.applicable(m5, Date.now())).toBeUndefined();
    expect(cache.peek("acct_cache_a")?.applicable(m5, Date.now())?.id).toBe(entry.id);
  });

  it("a change through this process is seen at once (invalidate); one through another replica after the TTL", async () => {
    await createApiKey(ctx, "acct_cache_ttl");
    const [first] = await prices().registerComputePrices("acct_cache_ttl", data(10));
    // A TTL long enough that a loaded machine still peeks before it ends; the test waits it out below.
    const cache = cacheOver(2_000);
    expect((await cache.get("acct_cache_ttl")).applicable(m5, Date.now())?.id).toBe(first.id);

    const [second] = await prices().registerComputePrices("acct_cache_ttl", data(20));
    cache.invalidate("acct_cache_ttl");
    expect(cache.peek("acct_cache_ttl")).toBeUndefined();
    expect((await cache.get("acct_cache_ttl")).applicable(m5, Date.now())?.id).toBe(second.id);

    // Another replica changes the entries: this cache answers from what it holds until the TTL ends.
    const [third] = await prices().registerComputePrices("acct_cache_ttl", data(30));
    expect(cache.peek("acct_cache_ttl")?.applicable(m5, Date.now())?.id).toBe(second.id);
    await eventually(
      () => cache.peek("acct_cache_ttl"),
      (entry) => entry === undefined,
      { what: "the cache entry's TTL to end" },
    );
    expect((await cache.get("acct_cache_ttl")).applicable(m5, Date.now())?.id).toBe(third.id);
  });

  it("keeps no load that ran across a change of the account's entries", async () => {
    await createApiKey(ctx, "acct_cache_race");
    await prices().registerComputePrices("acct_cache_race", data(10));
    const cache = cacheOver(60_000);
    const loading = cache.get("acct_cache_race");
    cache.invalidate("acct_cache_race");
    await loading;
    expect(cache.peek("acct_cache_race")).toBeUndefined();
  });
});
