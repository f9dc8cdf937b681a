// The internal pricing calls (docs/api.md, "Internal endpoints"): the main API prices on behalf of an
// organization's pricing account with a service token; each answer carries that account's own prices.
import { signServiceToken } from "@cloudcost/credentials";
import { ComputeBatchResponse, InstanceTypesResponse, UsageResponse } from "@cloudcost/contracts";
import request from "supertest";
import { createTestContext, TEST_SERVICE_SECRET, type TestContext } from "./helpers/context";
import { createApiKey } from "./helpers/keys";
import { client, modelEntry, modelLine } from "./helpers/pricing";

let ctx: TestContext;
let keyA: string;
let modelId: string;
let computeId: string;
const T = "2026-06-01T12:00:00.000Z";

beforeAll(async () => {
  ctx = await createTestContext({}, { computeCatalog: true });
  keyA = await createApiKey(ctx, "acct_int_a");
  await createApiKey(ctx, "acct_int_b");
  const a = client(ctx, keyA);
  [{ id: modelId }] = (
    await a.post("/marketplace/providers/models", { entries: [modelEntry({ effective_from: "2026-01-01T00:00:00Z" })] }).expect(201)
  ).body.entries;
  [{ id: computeId }] = (
    await a
      .post("/marketplace/providers/compute", { entries: [{ provider: "aws", region: "us-east-1", instance_type: "m5.large", price_per_hour: 0.05 }] })
      .expect(201)
  ).body.entries;
});
afterAll(async () => {
  await ctx.close();
});

const batchPath = (account: string) => `/internal/accounts/${account}/pricing/compute/batch`;
const listPath = (account: string) => `/internal/accounts/${account}/pricing/compute/instance-types`;
const usagePath = (account: string) => `/internal/accounts/${account}/pricing/usage`;
const tokenFor = (method: string, path: string) => signServiceToken(TEST_SERVICE_SECRET, { method, path });
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

const batch = { items: [{ provider: "aws", region: "us-east-1", instance_type: "m5.large" }] };
const listQuery = { provider: "aws", region: "us-east-1" };
const usage = { usage: [modelLine(undefined, { input: 1_000_000 }, T)] };

async function postBatch(account: string) {
  const res = await request(ctx.app)
    .post(batchPath(account))
    .set(bearer(await tokenFor("POST", batchPath(account))))
    .send(batch)
    .expect(200);
  return ComputeBatchResponse.parse(res.body).results[0];
}
async function listM5Large(account: string) {
  const res = await request(ctx.app)
    .get(listPath(account))
    .query(listQuery)
    .set(bearer(await tokenFor("GET", listPath(account))))
    .expect(200);
  return InstanceTypesResponse.parse(res.body).instance_types.find((row) => row.instance_type === "m5.large");
}
async function priceModelLine(account: string) {
  const body = { usage: [modelLine(modelId, { input: 1_000_000 }, T)] };
  const res = await request(ctx.app)
    .post(usagePath(account))
    .set(bearer(await tokenFor("POST", usagePath(account))))
    .send(body)
    .expect(200);
  return UsageResponse.parse(res.body).lines[0];
}

describe("pricing on behalf of an account", () => {
  it("the batch: A's negotiated rate for A, the list price for B", async () => {
    expect(await postBatch("acct_int_a")).toMatchObject({
      index: 0,
      price: { price_per_hour: 0.05, list_price_per_hour: 0.096, source: "negotiated", pricing_id: computeId },
    });
    expect(await postBatch("acct_int_b")).toMatchObject({ index: 0, price: { price_per_hour: 0.096, source: "catalog", pricing_id: null } });
  });

  it("the instance-types listing: A's negotiated rate for A, the list price for B", async () => {
    expect(await listM5Large("acct_int_a")).toMatchObject({ price_per_hour: 0.05, list_price_per_hour: 0.096, source: "negotiated", pricing_id: computeId });
    expect(await listM5Large("acct_int_b")).toMatchObject({ price_per_hour: 0.096, source: "catalog", pricing_id: null });
  });

  it("usage: A's model price for A; for B the same entry id prices nothing", async () => {
    expect(await priceModelLine("acct_int_a")).toMatchObject({ resolved: true, pricing_id: modelId, currency: "USD", cost: 0.15 });
    expect(await priceModelLine("acct_int_b")).toMatchObject({ resolved: false, cost: null, reason: expect.any(String) });
  });

  it("an account that does not exist is priced like one without entries; a malformed account id is a 400", async () => {
    expect(await postBatch("acct_never_seen")).toMatchObject({ price: { source: "catalog", pricing_id: null } });
    const bad = "/internal/accounts/not%20an%20id/pricing/compute/batch";
    const res = await request(ctx.app)
      .post(bad)
      .set(bearer(await tokenFor("POST", bad)))
      .send(batch);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: expect.any(String) });
  });
});

describe("authentication", () => {
  const calls = [
    ["POST", batchPath("acct_int_a"), batch],
    ["GET", `${listPath("acct_int_a")}?provider=aws&region=us-east-1`, undefined],
    ["POST", usagePath("acct_int_a"), usage],
  ] as const;
  const send = (method: string, url: string, body: unknown, headers: Record<string, string>) => {
    const req = method === "GET" ? request(ctx.app).get(url) : request(ctx.app).post(url);
    return body === undefined ? req.set(headers) : req.set(headers).send(body as object);
  };

  it.each(calls)("%s %s refuses a customer's API key (either header) and no credentials", async (method, url, body) => {
    await send(method, url, body, { "X-API-Key": keyA }).expect(401);
    await send(method, url, body, bearer(keyA)).expect(401);
    const res = await send(method, url, body, {}).expect(401);
    expect(res.body).toEqual({ error: "A valid service token is required for internal endpoints." });
  });

  it.each(calls)("%s %s refuses a token signed for another account, another operation or with another secret", async (method, url, body) => {
    const path = url.split("?")[0];
    await send(method, url, body, bearer(await tokenFor(method, path.replace("acct_int_a", "acct_int_b")))).expect(401);
    await send(method, url, body, bearer(await tokenFor(method === "GET" ? "POST" : "GET", path))).expect(401);
    await send(method, url, body, bearer(await tokenFor(method, batchPath("acct_int_a") === path ? usagePath("acct_int_a") : batchPath("acct_int_a")))).expect(
      401,
    );
    const forged = await signServiceToken(new TextEncoder().encode("x".repeat(40)), { method, path });
    await send(method, url, body, bearer(forged)).expect(401);
  });

  it.each(calls)("%s %s refuses an expired token", async (method, url, body) => {
    const now = jest.spyOn(Date, "now").mockReturnValue(Date.now() - 10 * 60_000);
    const expired = await tokenFor(method, url.split("?")[0]);
    now.mockRestore();
    await send(method, url, body, bearer(expired)).expect(401);
  });

  it.each(calls)("%s %s accepts a token once: a replay is refused", async (method, url, body) => {
    const token = await tokenFor(method, url.split("?")[0]);
    await send(method, url, body, bearer(token)).expect(200);
    await send(method, url, body, bearer(token)).expect(401);
  });
});
