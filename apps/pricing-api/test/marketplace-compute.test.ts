// POST/GET/DELETE /marketplace/providers/compute: an account's negotiated compute prices, versioned
// like model prices (docs/api.md, "Negotiated compute prices").
import request from "supertest";
import { ComputePricingEntry, MarketplaceError } from "@cloudcost/contracts";
import { createTestContext, type TestContext } from "./helpers/context";
import { createApiKey, provisionKey } from "./helpers/keys";

let ctx: TestContext;
let key: string;
beforeAll(async () => {
  ctx = await createTestContext();
  key = await createApiKey(ctx, "acct_market_a");
});
afterAll(async () => {
  await ctx.close();
});

const PATH = "/marketplace/providers/compute";
const register = (entries: unknown[], k = key) => request(ctx.app).post(PATH).set("X-API-Key", k).send({ entries });
const list = (query: Record<string, string> = {}, k = key) => request(ctx.app).get(PATH).query(query).set("X-API-Key", k);
const close = (id: string, k = key) => request(ctx.app).delete(PATH).query({ id }).set("X-API-Key", k);

describe("POST /marketplace/providers/compute", () => {
  it("stores a fixed rate and a discount, absent identity fields as null, and answers every field", async () => {
    const res = await register([
      { provider: "aws", region: "us-east-1", instance_type: "m5.large", price_per_hour: 0.061234567891 },
      { provider: "aws", family: "c5", discount_percent: 12.5, tags: { contract: "EDP-2026" } },
    ]).expect(201);
    expect(res.body.status).toBe("Registered");
    const [fixed, discount] = res.body.entries.map((e: unknown) => ComputePricingEntry.parse(e));
    expect(fixed).toEqual({
      id: expect.stringMatching(/^cpr_/),
      provider: "aws",
      region: "us-east-1",
      instance_type: "m5.large",
      family: null,
      operating_system: null,
      usage_type: null,
      price_per_hour: 0.061234567891,
      discount_percent: null,
      currency: "USD",
      effective_from: expect.any(String),
      effective_to: null,
      tags: {},
    });
    expect(discount).toMatchObject({
      family: "c5",
      region: null,
      instance_type: null,
      price_per_hour: null,
      discount_percent: 12.5,
      tags: { contract: "EDP-2026" },
    });
  });

  it("versions entries: the same rate keeps the row, a new rate closes it and opens a new id, history with include_closed", async () => {
    const entry = { provider: "gcp", region: "us-central1", family: "n2", operating_system: "linux", discount_percent: 20 };
    const first = (await register([entry]).expect(201)).body.entries[0];
    const again = (await register([{ ...entry, tags: { note: "same rate" } }]).expect(201)).body.entries[0];
    expect(again).toMatchObject({ id: first.id, effective_to: null, tags: { note: "same rate" } });

    const changed = (await register([{ ...entry, discount_percent: 25 }]).expect(201)).body.entries[0];
    expect(changed.id).not.toBe(first.id);
    expect(changed.id).toMatch(/^cpr_/);
    const open = (await list({ provider: "gcp", family: "n2" }).expect(200)).body;
    expect(open).toEqual({ status: "OK", entries: [changed] });
    const history = (await list({ provider: "gcp", family: "n2", include_closed: "true" }).expect(200)).body.entries;
    expect(history.map((e: { id: string }) => e.id)).toEqual([changed.id, first.id]);
    expect(history[1].effective_to).toBe(changed.effective_from);
  });

  it("filters by identity fields", async () => {
    await register([
      { provider: "azure", region: "eastus", discount_percent: 5 },
      { provider: "azure", region: "westeurope", discount_percent: 7 },
    ]).expect(201);
    const eastus = (await list({ provider: "azure", region: "eastus" }).expect(200)).body.entries;
    expect(eastus.map((e: { discount_percent: number }) => e.discount_percent)).toEqual([5]);
  });

  it("is all or nothing: one bad entry writes none", async () => {
    const before = (await list({ include_closed: "true" })).body.entries.length;
    const res = await register([
      { provider: "aws", region: "eu-west-1", discount_percent: 3 },
      { provider: "aws", region: "eu-west-1", family: "m5", discount_percent: 3, effective_from: "2000-01-01T00:00:00Z" },
      { provider: "aws", region: "eu-west-1", family: "m5", discount_percent: 4, effective_from: "1999-01-01T00:00:00Z" },
    ]);
    expect(res.status).toBe(400);
    expect(MarketplaceError.parse(res.body).error).toMatch(/effective_from/);
    expect((await list({ include_closed: "true" })).body.entries.length).toBe(before);
  });

  it.each([
    ["neither rate", { provider: "aws", family: "m5" }],
    ["both rates", { provider: "aws", instance_type: "m5.large", price_per_hour: 0.05, discount_percent: 5 }],
    ["a fixed rate without an instance type", { provider: "aws", family: "m5", price_per_hour: 0.05 }],
    ["a discount over 100", { provider: "aws", discount_percent: 101 }],
    ["a negative discount", { provider: "aws", discount_percent: -1 }],
    ["a negative price", { provider: "aws", instance_type: "m5.large", price_per_hour: -0.01 }],
    ["no provider", { instance_type: "m5.large", price_per_hour: 0.05 }],
    ["an unknown operating system", { provider: "aws", operating_system: "beos", discount_percent: 5 }],
    ["an unknown usage type", { provider: "aws", usage_type: "reserved", discount_percent: 5 }],
  ])("answers 400 {error} for %s", async (_, entry) => {
    const res = await register([entry]);
    expect(res.status).toBe(400);
    expect(MarketplaceError.safeParse(res.body).success).toBe(true);
  });

  it("answers 400 for no entries and for more than 1000", async () => {
    expect((await register([])).status).toBe(400);
    const many = Array.from({ length: 1001 }, (_, i) => ({ provider: "aws", instance_type: `x${i}.large`, price_per_hour: 1 }));
    expect((await register(many)).status).toBe(400);
  });
});

describe("DELETE /marketplace/providers/compute", () => {
  it("closes the open row (readable with include_closed); a closed, unknown or missing id is a 404 or 400", async () => {
    const entry = (await register([{ provider: "aws", region: "ap-south-1", discount_percent: 9 }]).expect(201)).body.entries[0];
    const res = await close(entry.id).expect(200);
    expect(res.body).toMatchObject({ status: "Deleted", entries: [{ id: entry.id, effective_to: expect.any(String) }] });
    expect((await list({ region: "ap-south-1" })).body.entries).toEqual([]);
    expect((await list({ region: "ap-south-1", include_closed: "true" })).body.entries.map((e: { id: string }) => e.id)).toEqual([entry.id]);
    expect(MarketplaceError.parse((await close(entry.id).expect(404)).body).error).toMatch(entry.id);
    await close("cpr_unknown").expect(404);
    await request(ctx.app).delete(PATH).set("X-API-Key", key).expect(400);
  });
});

describe("roles and accounts", () => {
  it("a viewer lists but cannot register; a member registers but cannot delete; an admin deletes", async () => {
    const viewer = await provisionKey(ctx, "acct_market_r", "viewer");
    const member = await provisionKey(ctx, "acct_market_r", "member");
    const admin = await provisionKey(ctx, "acct_market_r", "admin");
    const entry = { provider: "aws", family: "r5", discount_percent: 10 };
    expect(MarketplaceError.safeParse((await register([entry], viewer).expect(403)).body).success).toBe(true);
    await list({}, viewer).expect(200);
    const id = (await register([entry], member).expect(201)).body.entries[0].id;
    expect(MarketplaceError.safeParse((await close(id, member).expect(403)).body).success).toBe(true);
    await close(id, admin).expect(200);
  });

  it("B never lists A's entries, and A's id is a 404 for B", async () => {
    const a = await createApiKey(ctx, "acct_market_iso_a");
    const b = await createApiKey(ctx, "acct_market_iso_b");
    const id = (await register([{ provider: "aws", instance_type: "m5.large", price_per_hour: 0.01 }], a).expect(201)).body.entries[0].id;
    expect((await list({ include_closed: "true" }, b).expect(200)).body.entries).toEqual([]);
    await close(id, b).expect(404);
    expect((await list({}, a)).body.entries.map((e: { id: string }) => e.id)).toEqual([id]);
  });

  it("answers 401 {error} without a key", async () => {
    const res = await request(ctx.app).get(PATH).expect(401);
    expect(MarketplaceError.safeParse(res.body).success).toBe(true);
  });
});
