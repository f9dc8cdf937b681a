import request from "supertest";
import { createTestContext, type TestContext } from "./helpers/context";

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => {
  await ctx.close();
});

describe("main-api foundation", () => {
  it("answers GET /healthz", async () => {
    const res = await request(ctx.app).get("/healthz").expect(200);
    expect(res.body).toMatchObject({ status: "success" });
  });

  it("answers GET /readyz when the database is migrated", async () => {
    const res = await request(ctx.app).get("/readyz").expect(200);
    expect(res.body.data).toEqual({ database: "ok", migrations: "applied" });
  });

  it("answers an unknown route with a 404 envelope", async () => {
    const res = await request(ctx.app).get("/api/v1/nope").expect(404);
    expect(res.body).toEqual({ message: "No route for GET /api/v1/nope", status: "error" });
  });

  it("answers malformed JSON with a 400 envelope", async () => {
    const res = await request(ctx.app).post("/api/v1/anything").set("Content-Type", "application/json").send('{"a":');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: "The request body is not valid JSON.", status: "error" });
  });

  it("answers a body over 1 MiB with a 413 envelope", async () => {
    const big = JSON.stringify({ pad: "x".repeat(1024 * 1024) });
    const res = await request(ctx.app).post("/api/v1/anything").set("Content-Type", "application/json").send(big);
    expect(res.status).toBe(413);
    expect(res.body.status).toBe("error");
  });

  it("sets X-Request-Id on every response, keeping a well-formed incoming one", async () => {
    const fresh = await request(ctx.app).get("/healthz");
    expect(fresh.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
    const kept = await request(ctx.app).get("/nope").set("X-Request-Id", "client-req.42:a");
    expect(kept.headers["x-request-id"]).toBe("client-req.42:a");
    const replaced = await request(ctx.app).get("/healthz").set("X-Request-Id", "bad id with spaces");
    expect(replaced.headers["x-request-id"]).not.toBe("bad id with spaces");
  });
});

describe("main-api protections", () => {
  it("rate-limits per IP with a 429 envelope and sets security headers", async () => {
    const limited = await createTestContext({ RATE_LIMIT_PER_IP: "2", RATE_LIMIT_PER_CREDENTIAL: "0" });
    try {
      const ok = await request(limited.app).get("/api/v1/me").expect(401);
      expect(ok.headers["x-content-type-options"]).toBe("nosniff");
      await request(limited.app).get("/api/v1/me").expect(401);
      const res = await request(limited.app).get("/api/v1/me").expect(429);
      expect(res.body).toEqual({ message: expect.stringMatching(/Too many requests from this address/), status: "error" });
      expect(res.headers.ratelimit).toBeDefined();
    } finally {
      await limited.close();
    }
  });
});
