import { generateApiKey, hashApiKey, signServiceToken } from "@cloudcost/credentials";
import request from "supertest";
import { createTestContext, TEST_SERVICE_SECRET, type TestContext } from "./helpers/context";
import { createApiKey } from "./helpers/keys";

// Security issue #22: inputs at the edge of the pricing API.

/** `{"a":{"a":…{}}}`, `depth` + 1 objects deep, as JSON text (5000 levels: about 30 KB; JSON.stringify overflows). */
const nested = (depth: number) => `${'{"a":'.repeat(depth)}{}${"}".repeat(depth)}`;
/** A JSON body with the `nested` text spliced in where `{"$deep":0}` stands. */
const body = (value: unknown, deep: string) => JSON.stringify(value).replace('{"$deep":0}', deep);
const DEEP = { $deep: 0 };

describe("deeply nested free-form objects (issue #22, finding 9)", () => {
  let ctx: TestContext;
  let key: string;
  beforeAll(async () => {
    ctx = await createTestContext();
    key = await createApiKey(ctx);
  });
  afterAll(() => ctx.close());

  const model = (extra: Record<string, unknown>) => ({ provider: "openai", model: "gpt-x", token_bucket: "input", unit_price_per_mtok: 1, ...extra });
  const database = (extra: Record<string, unknown>) => ({ provider: "aws", service: "rds", region: "us-east-1", cost_per_hour: 1, ...extra });

  it.each([
    ["models raw_pricing_data", "/marketplace/providers/models", model({ raw_pricing_data: DEEP }), {}],
    ["models tags", "/marketplace/providers/models", model({ tags: DEEP }), {}],
    ["databases raw_pricing_data", "/marketplace/providers/databases", database({ raw_pricing_data: DEEP }), {}],
    ["models with an Idempotency-Key", "/marketplace/providers/models", model({ raw_pricing_data: DEEP }), { "Idempotency-Key": "deep-1" }],
  ])("%s 5000 levels deep: 400 in the marketplace shape", async (_name, path, entry, headers) => {
    const res = await request(ctx.app)
      .post(path)
      .set("X-API-Key", key)
      .set(headers)
      .set("Content-Type", "application/json")
      .send(body({ entries: [entry] }, nested(5000)));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: expect.stringMatching(/nest/i) });
  });

  it("a deep unknown field is a 400 too (the body is refused before anything walks it)", async () => {
    const line = { resource_id: "r1", kind: "model", timestamp: new Date().toISOString(), quantities: { input: 1 } };
    const res = await request(ctx.app)
      .post("/v1/pricing/usage")
      .set("X-API-Key", key)
      .set("Idempotency-Key", "deep-2")
      .set("Content-Type", "application/json")
      .send(body({ usage: [line], extra: DEEP }, nested(5000)));
    expect(res.status).toBe(400);
    expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ status: 400, code: "invalid_request", detail: expect.stringMatching(/nested more than 64 levels/) });
  });

  it("accepts free-form objects 32 levels deep and refuses 33", async () => {
    const ok = await request(ctx.app)
      .post("/marketplace/providers/models")
      .set("X-API-Key", key)
      .send({ entries: [model({ raw_pricing_data: JSON.parse(nested(31)) })] });
    expect(ok.status).toBe(201);
    expect(ok.body.entries[0].raw_pricing_data).toEqual(JSON.parse(nested(31)));
    const deep = await request(ctx.app)
      .post("/marketplace/providers/models")
      .set("X-API-Key", key)
      .send({ entries: [model({ model: "gpt-y", raw_pricing_data: JSON.parse(nested(32)) })] });
    expect(deep.status).toBe(400);
  });
});

describe("service tokens on the internal endpoints (issue #22, finding 12)", () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(() => ctx.close());

  const provision = (hash: string) => ({ method: "PUT", path: `/internal/api-keys/${hash}` });
  const body = (key: string) => ({ account_id: "org_main", prefix: key.slice(0, 11), name: "from main" });

  it("accepts a token once: a replay of a captured token is a 401", async () => {
    const key = generateApiKey();
    const target = provision(hashApiKey(key));
    const token = await signServiceToken(TEST_SERVICE_SECRET, target);
    const send = () => request(ctx.app).put(target.path).set("Authorization", `Bearer ${token}`).send(body(key));
    expect((await send()).status).toBe(201);
    const replay = await send();
    expect(replay.status).toBe(401);
    expect(replay.body).toEqual({ error: expect.stringMatching(/service token/) });
  });

  it("refuses a token signed for another method or path (401), and accepts a fresh one for the request", async () => {
    const key = generateApiKey();
    const target = provision(hashApiKey(key));
    const forDelete = await signServiceToken(TEST_SERVICE_SECRET, { method: "DELETE", path: target.path });
    const forOtherKey = await signServiceToken(TEST_SERVICE_SECRET, provision("0".repeat(64)));
    const forAccounts = await signServiceToken(TEST_SERVICE_SECRET, { method: "POST", path: "/internal/accounts/acct_x/api-keys" });
    for (const token of [forDelete, forOtherKey, forAccounts]) {
      const res = await request(ctx.app).put(target.path).set("Authorization", `Bearer ${token}`).send(body(key));
      expect(res.status).toBe(401);
    }
    const ok = await request(ctx.app)
      .put(target.path)
      .set("Authorization", `Bearer ${await signServiceToken(TEST_SERVICE_SECRET, target)}`)
      .send(body(key));
    expect(ok.status).toBe(201);
    // The token refused on the wrong path was not used up: it still works where it was meant for.
    const accounts = await request(ctx.app).post("/internal/accounts/acct_x/api-keys").set("Authorization", `Bearer ${forAccounts}`).send({});
    expect(accounts.status).toBe(201);
  });

  it("remembers a token's id until it expires and prunes expired ids", async () => {
    const key = generateApiKey();
    const target = provision(hashApiKey(key));
    await ctx.prisma.serviceTokenJti.create({ data: { jti: "expired-one", expiresAt: new Date(Date.now() - 1000) } });
    await request(ctx.app)
      .put(target.path)
      .set("Authorization", `Bearer ${await signServiceToken(TEST_SERVICE_SECRET, target)}`)
      .send(body(key))
      .expect(201);
    const rows = await ctx.prisma.serviceTokenJti.findMany();
    expect(rows.map((r) => r.jti)).not.toContain("expired-one");
    for (const row of rows) expect(row.expiresAt.getTime()).toBeGreaterThan(Date.now());
  });
});
