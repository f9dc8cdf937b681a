import request from "supertest";
import { refreshCatalogStore } from "../src/compute/catalog-loader";
import { createTestContext, type TestContext } from "./helpers/context";

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => {
  await ctx.close();
});

describe("pricing-api foundation", () => {
  it("answers GET /healthz at once, and GET /readyz with 503 until the compute catalog is loaded", async () => {
    expect((await request(ctx.app).get("/healthz").expect(200)).body).toEqual({ status: "ok", service: "pricing-api" });
    expect(ctx.computeCatalog.loaded).toBe(false);
    expect((await request(ctx.app).get("/readyz").expect(503)).body).toEqual({ error: "not ready: compute catalog not loaded yet" });
    await refreshCatalogStore({ db: ctx.db, prisma: ctx.prisma }, ctx.computeCatalog);
    expect((await request(ctx.app).get("/readyz").expect(200)).body).toEqual({ status: "ready" });
    // without the migrations table (as before the migrations ran) it is not ready either
    await ctx.db.sql.query("ALTER TABLE _prisma_migrations RENAME TO _prisma_migrations_hidden");
    try {
      expect((await request(ctx.app).get("/readyz").expect(503)).body).toEqual({
        error: "not ready: database unreachable or migrations not applied",
      });
    } finally {
      await ctx.db.sql.query("ALTER TABLE _prisma_migrations_hidden RENAME TO _prisma_migrations");
    }
    expect((await request(ctx.app).get("/readyz").expect(200)).body).toEqual({ status: "ready" });
  });

  it("answers an unknown /v1 route with a 404 problem document", async () => {
    const res = await request(ctx.app).get("/v1/pricing/nope").expect(404);
    expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({
      type: "urn:cloudcost:problem:not_found",
      title: "Not Found",
      status: 404,
      code: "not_found",
      instance: "/v1/pricing/nope",
      request_id: res.headers["x-request-id"],
    });
  });

  it("answers an unknown marketplace route with a 404 {error}", async () => {
    const res = await request(ctx.app).get("/marketplace/providers/nope").expect(404);
    expect(res.body).toEqual({ error: "No route for GET /marketplace/providers/nope" });
  });

  it("answers malformed JSON with a 400 in each shape", async () => {
    const v1 = await request(ctx.app).post("/v1/pricing/compute").set("Content-Type", "application/json").send("{oops");
    expect(v1.status).toBe(400);
    expect(v1.body).toMatchObject({ status: 400, code: "malformed_json" });
    const market = await request(ctx.app).post("/marketplace/providers/models").set("Content-Type", "application/json").send("{oops");
    expect(market.status).toBe(400);
    expect(market.body).toEqual({ error: "The request body is not valid JSON." });
  });

  it("answers a body over 1 MiB with a 413", async () => {
    const big = JSON.stringify({ pad: "x".repeat(1024 * 1024) });
    const res = await request(ctx.app).post("/marketplace/providers/models").set("Content-Type", "application/json").send(big);
    expect(res.status).toBe(413);
    expect(typeof res.body.error).toBe("string");
  });

  it("sets X-Request-Id on every response", async () => {
    const res = await request(ctx.app).get("/healthz").set("X-Request-Id", "abc-123");
    expect(res.headers["x-request-id"]).toBe("abc-123");
    expect((await request(ctx.app).get("/nope")).headers["x-request-id"]).toBeTruthy();
  });
});

describe("pricing-api protections", () => {
  it("rate-limits per key with a 429 in each path's own shape, and sets security headers", async () => {
    const limited = await createTestContext({ RATE_LIMIT_PER_CREDENTIAL: "1", RATE_LIMIT_PER_IP: "0" });
    try {
      const { createApiKey } = await import("./helpers/keys");
      const key = await createApiKey(limited as never);
      const ok = await request(limited.app).get("/v1/pricing/account").set("X-API-Key", key).expect(200);
      expect(ok.headers["x-content-type-options"]).toBe("nosniff");
      expect(ok.headers["ratelimit-policy"]).toBeDefined();
      const v1 = await request(limited.app).get("/v1/pricing/account").set("X-API-Key", key).expect(429);
      expect(v1.body).toMatchObject({ status: 429, code: "rate_limited" });
      const market = await request(limited.app).get("/marketplace/providers/models").set("X-API-Key", key).expect(429);
      expect(market.body).toEqual({ error: expect.stringMatching(/Too many requests/) });
    } finally {
      await limited.close();
    }
  });
});
