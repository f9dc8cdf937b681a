import { hashApiKey } from "@cloudcost/credentials";
import request from "supertest";
import { createTestContext, type TestContext } from "./helpers/context";
import { createApiKey } from "./helpers/keys";
import { client, countRows, databaseEntry, databaseLine, modelEntry, modelLine, type Client } from "./helpers/pricing";

let ctx: TestContext;
let a: Client;
let b: Client;
let dbId: string;
let modelId: string;
beforeAll(async () => {
  ctx = await createTestContext();
  a = client(ctx, await createApiKey(ctx, "acct_a"));
  b = client(ctx, await createApiKey(ctx, "acct_b"));
  dbId = (await a.post("/marketplace/providers/databases", { entries: [databaseEntry()] }).expect(201)).body.entries[0].id;
  modelId = (await a.post("/marketplace/providers/models", { entries: [modelEntry()] }).expect(201)).body.entries[0].id;
});
afterAll(async () => {
  await ctx.close();
});

function expectProblem(res: request.Response, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
  expect(res.body).toMatchObject({ type: expect.any(String), title: expect.any(String), status, detail: expect.any(String), code });
  expect(res.body.instance).toEqual(expect.stringMatching(/^\/v1\/pricing\//));
}

describe("pins", () => {
  it("pins, re-pins, lists and unpins a resource (customer ids are URL-encoded)", async () => {
    const resource = "arn:aws:rds:eu-west-1:123:db/prod main";
    const path = `/v1/pricing/pins/database/${encodeURIComponent(resource)}`;
    const pin = (await a.put(path, { pricing_id: dbId }).expect(200)).body;
    expect(pin).toEqual({ kind: "database", resource_id: resource, pricing_id: dbId, created_at: expect.any(String), updated_at: pin.created_at });

    const other = (await a.post("/marketplace/providers/databases", { entries: [databaseEntry({ service: "other" })] }).expect(201)).body.entries[0];
    const repinned = (await a.put(path, { pricing_id: other.id }).expect(200)).body;
    expect(repinned).toMatchObject({ pricing_id: other.id, created_at: pin.created_at });
    const modelPin = (await a.put("/v1/pricing/pins/model/chat-bot", { pricing_id: modelId }).expect(200)).body;
    expect(modelPin).toMatchObject({ kind: "model", resource_id: "chat-bot", pricing_id: modelId });

    expect((await a.get("/v1/pricing/pins").expect(200)).body.pins).toEqual([repinned, modelPin]);
    expect((await a.get(`/v1/pricing/pins?pricing_id=${other.id}`).expect(200)).body).toEqual({ pins: [repinned] });
    expect((await a.get(`/v1/pricing/pins?pricing_id=${dbId}`).expect(200)).body).toEqual({ pins: [] });

    await a.delete(path).expect(204);
    expectProblem(await a.delete(path), 404, "not_found");
    await a.delete("/v1/pricing/pins/model/chat-bot").expect(204);
  });

  it("answers 400 for another kind, a malformed body and a malformed pricing id", async () => {
    const kind = await a.put("/v1/pricing/pins/vm/x", { pricing_id: dbId });
    expectProblem(kind, 400, "invalid_request");
    expect(kind.body.errors).toEqual([expect.objectContaining({ path: "kind" })]);
    expectProblem(await a.delete("/v1/pricing/pins/vm/x"), 400, "invalid_request");
    expectProblem(await a.put("/v1/pricing/pins/database/x", {}), 400, "invalid_request");
    expectProblem(await a.put("/v1/pricing/pins/database/x", { pricing_id: "bad id" }), 400, "invalid_request");
    expectProblem(await a.get("/v1/pricing/pins?pricing_id=bad%20id"), 400, "invalid_request");
    const long = await a.put(`/v1/pricing/pins/database/${"r".repeat(257)}`, { pricing_id: dbId });
    expectProblem(long, 400, "invalid_request");
    expect(await countRows(ctx, "pricing_pins")).toBe(0);
  });

  it("answers 404 for an unknown, another account's or closed pricing id", async () => {
    expectProblem(await a.put("/v1/pricing/pins/database/x", { pricing_id: "dpr_unknown" }), 404, "not_found");
    expectProblem(await a.put("/v1/pricing/pins/model/x", { pricing_id: dbId }), 404, "not_found"); // wrong kind
    expectProblem(await b.put("/v1/pricing/pins/database/x", { pricing_id: dbId }), 404, "not_found");
    expectProblem(await b.put("/v1/pricing/pins/model/x", { pricing_id: modelId }), 404, "not_found");
    const closed = (await a.post("/marketplace/providers/models", { entries: [modelEntry({ model: "closing" })] }).expect(201)).body.entries[0];
    await a.delete(`/marketplace/providers/models?id=${closed.id}`).expect(200);
    expectProblem(await a.put("/v1/pricing/pins/model/x", { pricing_id: closed.id }), 404, "not_found");
    expect(await countRows(ctx, "pricing_pins")).toBe(0);
  });

  it("keeps pins per account", async () => {
    await a.put("/v1/pricing/pins/database/shared-name", { pricing_id: dbId }).expect(200);
    expect((await b.get("/v1/pricing/pins").expect(200)).body.pins).toEqual([]);
    expectProblem(await b.delete("/v1/pricing/pins/database/shared-name"), 404, "not_found");
    await a.delete("/v1/pricing/pins/database/shared-name").expect(204);
  });
});

describe("reports", () => {
  it("stores priced usage and returns it exactly as priced, even after prices change", async () => {
    const now = new Date().toISOString();
    const usage = [
      modelLine(modelId, { input: 1_234_567 }, now),
      databaseLine(dbId, { hours: 730, storage_gb_hours: 100 }),
      databaseLine(undefined, { hours: 1 }),
    ];
    const created = await a.post("/v1/pricing/reports", { name: "  November  ", usage });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^rpt_/),
      name: "November",
      created_at: expect.any(String),
      lines: [
        expect.objectContaining({ index: 0, resolved: true, cost: 0.18518505, currency: "USD" }),
        expect.objectContaining({ index: 1, resolved: true, cost: 188.3558, unit_prices: { hours: 0.258, storage_gb_hours: 0.000158 } }),
        expect.objectContaining({ index: 2, resolved: false, reason: "no_pricing_label", cost: null }),
      ],
      totals: [{ currency: "USD", cost: 188.54098505 }],
    });

    await a.post("/marketplace/providers/models", { entries: [modelEntry({ unit_price_per_mtok: 99 })] }).expect(201);
    await a.post("/marketplace/providers/databases", { entries: [databaseEntry({ cost_per_hour: 99 })] }).expect(201);
    const fetched = await a.get(`/v1/pricing/reports/${created.body.id}`).expect(200);
    expect(fetched.body).toEqual(created.body);

    expectProblem(await b.get(`/v1/pricing/reports/${created.body.id}`), 404, "not_found");
    expectProblem(await b.delete(`/v1/pricing/reports/${created.body.id}`), 404, "not_found");
    await a.delete(`/v1/pricing/reports/${created.body.id}`).expect(204);
    expectProblem(await a.get(`/v1/pricing/reports/${created.body.id}`), 404, "not_found");
    expectProblem(await a.delete(`/v1/pricing/reports/${created.body.id}`), 404, "not_found");
  });

  it("validates the report before storing anything", async () => {
    const before = await countRows(ctx, "pricing_reports");
    expectProblem(await a.post("/v1/pricing/reports", { name: "", usage: [databaseLine(dbId, { hours: 1 })] }), 400, "invalid_request");
    expectProblem(await a.post("/v1/pricing/reports", { name: "x", usage: [] }), 400, "invalid_request");
    expectProblem(await a.post("/v1/pricing/reports", { name: "x", usage: [databaseLine(dbId, { cpu: 1 })] }), 400, "invalid_request");
    expectProblem(await a.get("/v1/pricing/reports/bad%20id"), 400, "invalid_request");
    expect(await countRows(ctx, "pricing_reports")).toBe(before);
  });
});

describe("authentication on /v1/pricing", () => {
  const calls = (r: ReturnType<typeof request>) => [
    r.get("/v1/pricing/pins"),
    r.put("/v1/pricing/pins/database/x").send({ pricing_id: "dpr_x" }),
    r.post("/v1/pricing/usage").send({ usage: [] }),
    r.post("/v1/pricing/reports").send({}),
    r.get("/v1/pricing/reports/rpt_x"),
  ];

  it("answers 401 unauthenticated problems without a key", async () => {
    for (const call of calls(request(ctx.app))) {
      const res = await call;
      expectProblem(res, 401, "unauthenticated");
    }
  });

  it("answers 401 for a revoked key, on /v1 and on the marketplace", async () => {
    const key = await createApiKey(ctx, "acct_a");
    await request(ctx.app).get("/v1/pricing/pins").set("X-API-Key", key).expect(200);
    await ctx.apiKeys.revokeByHash(hashApiKey(key));
    expectProblem(await request(ctx.app).get("/v1/pricing/pins").set("X-API-Key", key), 401, "unauthenticated");
    const marketplace = await request(ctx.app).get("/marketplace/providers/models").set("Authorization", `Bearer ${key}`);
    expect(marketplace.status).toBe(401);
    expect(marketplace.body).toEqual({ error: expect.stringMatching(/revoked/) });
  });
});
