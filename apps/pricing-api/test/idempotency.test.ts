import request from "supertest";
import { createTestContext, type TestContext } from "./helpers/context";
import { createApiKey } from "./helpers/keys";
import { countRows, databaseLine, modelEntry } from "./helpers/pricing";

let ctx: TestContext;
let keyA: string;
let keyA2: string;
let keyB: string;
beforeAll(async () => {
  ctx = await createTestContext();
  keyA = await createApiKey(ctx, "acct_a");
  keyA2 = await createApiKey(ctx, "acct_a");
  keyB = await createApiKey(ctx, "acct_b");
});
afterAll(async () => {
  await ctx.close();
});

const post = (apiKey: string, path: string, key: string | undefined, body: unknown) => {
  const req = request(ctx.app).post(path).set("X-API-Key", apiKey);
  if (key !== undefined) req.set("Idempotency-Key", key);
  return req.send(body as object);
};
const MODELS = "/marketplace/providers/models";
const registerModel = (apiKey: string, key: string | undefined, overrides: Record<string, unknown> = {}) =>
  post(apiKey, MODELS, key, { entries: [modelEntry(overrides)] });
const modelsOf = async (accountId: string, model: string) =>
  (await ctx.db.sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM model_prices WHERE account_id = $1 AND model = $2`, [accountId, model]))[0].n;
const keyRows = async (key: string) => (await ctx.db.sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM idempotency_keys WHERE key = $1`, [key]))[0].n;

function expectMarketplaceError(res: request.Response, status: number, message?: RegExp) {
  expect({ status: res.status, body: res.body }).toEqual({ status, body: { error: expect.any(String) } });
  if (message) expect(res.body.error).toMatch(message);
}
function expectProblem(res: request.Response, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
  expect(res.body).toMatchObject({ type: expect.any(String), title: expect.any(String), status, detail: expect.any(String), code });
}

describe("Idempotency-Key on the pricing API", () => {
  it("replays a price registration for the same key and body without registering it twice", async () => {
    const first = await registerModel(keyA, "reg-1", { model: "Replayed" }).expect(201);
    const again = await registerModel(keyA, "reg-1", { model: "Replayed" }).expect(201);
    expect(again.headers["idempotent-replayed"]).toBe("true");
    expect(again.headers["content-type"]).toMatch(/^application\/json/);
    expect(again.body).toEqual(first.body);
    expect(await modelsOf("acct_a", "Replayed")).toBe(1);
    expect(await keyRows("reg-1")).toBe(1);
    // The key belongs to the account: another key of the same account sees the same entry.
    const otherKey = await registerModel(keyA2, "reg-1", { model: "Replayed" }).expect(201);
    expect(otherKey.headers["idempotent-replayed"]).toBe("true");
  });

  it("answers 422 {error} for the same key with a different body, and a problem document on /v1", async () => {
    await registerModel(keyA, "reg-2", { model: "First" }).expect(201);
    expectMarketplaceError(await registerModel(keyA, "reg-2", { model: "Second" }), 422, /Idempotency-Key/);
    expect(await modelsOf("acct_a", "Second")).toBe(0);
    const usage = { usage: [databaseLine(undefined, { hours: 1 })] };
    await post(keyA, "/v1/pricing/usage", "usage-1", usage).expect(200);
    expectProblem(await post(keyA, "/v1/pricing/usage", "usage-1", { usage: [databaseLine(undefined, { hours: 2 })] }), 422, "idempotency_key_reused");
    // Another path is another request (validated first: a body valid there).
    expectMarketplaceError(
      await post(keyA, "/marketplace/providers/databases", "reg-2", { entries: [{ provider: "aws", service: "rds", region: "us-east-1" }] }),
      422,
    );
  });

  it("keeps keys per account", async () => {
    await registerModel(keyA, "shared", { model: "Shared" }).expect(201);
    const fromB = await registerModel(keyB, "shared", { model: "Shared" }).expect(201);
    expect(fromB.headers["idempotent-replayed"]).toBeUndefined();
    expect([await modelsOf("acct_a", "Shared"), await modelsOf("acct_b", "Shared")]).toEqual([1, 1]);
  });

  it("does not store a request that failed validation: a fixed retry under the same key runs", async () => {
    const invalid = await registerModel(keyA, "fix-me", { model: "Fixed", unit_price_per_mtok: -1 });
    expectMarketplaceError(invalid, 400);
    expect(await keyRows("fix-me")).toBe(0);
    const fixed = await registerModel(keyA, "fix-me", { model: "Fixed" }).expect(201);
    expect(fixed.headers["idempotent-replayed"]).toBeUndefined();
    expect(await modelsOf("acct_a", "Fixed")).toBe(1);
  });

  it("rejects a key over 255 characters with a 400 in each shape", async () => {
    expectMarketplaceError(await registerModel(keyA, "k".repeat(256), { model: "Long" }), 400, /Idempotency-Key/);
    expectProblem(
      await post(keyA, "/v1/pricing/reports", "k".repeat(256), { name: "Long", usage: [databaseLine(undefined, { hours: 1 })] }),
      400,
      "invalid_request",
    );
    expect(await modelsOf("acct_a", "Long")).toBe(0);
  });

  it("runs concurrent identical requests with one key exactly once", async () => {
    const results = await Promise.all([1, 2, 3].map(() => registerModel(keyA, "race", { model: "Race" })));
    expect(results.every((r) => r.status === 201 || r.status === 409)).toBe(true);
    expect(results.filter((r) => r.status === 201 && r.headers["idempotent-replayed"] === undefined)).toHaveLength(1);
    for (const r of results.filter((r) => r.status === 409)) expectMarketplaceError(r, 409, /still being processed/);
    expect(await modelsOf("acct_a", "Race")).toBe(1);
  });

  it("does not replay an entry older than 24 hours", async () => {
    const body = { name: "Old report", usage: [databaseLine(undefined, { hours: 1 })] };
    const first = await post(keyA, "/v1/pricing/reports", "old", body).expect(201);
    const before = await countRows(ctx, "pricing_reports");
    await ctx.db.sql.query(`UPDATE idempotency_keys SET created_at = now() - interval '25 hours' WHERE key = 'old'`);
    const later = await post(keyA, "/v1/pricing/reports", "old", body).expect(201);
    expect(later.headers["idempotent-replayed"]).toBeUndefined();
    expect(later.body.id).not.toBe(first.body.id);
    expect(await countRows(ctx, "pricing_reports")).toBe(before + 1);
    expect(await keyRows("old")).toBe(1);
  });

  it("replays a created report and creates it once", async () => {
    const body = { name: "Replayed report", usage: [databaseLine(undefined, { hours: 1 })] };
    const before = await countRows(ctx, "pricing_reports");
    const first = await post(keyA, "/v1/pricing/reports", "report-1", body).expect(201);
    const again = await post(keyA, "/v1/pricing/reports", "report-1", body).expect(201);
    expect([again.headers["idempotent-replayed"], again.body]).toEqual(["true", first.body]);
    expect(await countRows(ctx, "pricing_reports")).toBe(before + 1);
  });
});
