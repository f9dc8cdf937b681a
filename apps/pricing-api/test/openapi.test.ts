import { listRoutes } from "@cloudcost/http";
import { pricingApiDocument } from "@cloudcost/openapi";
import request from "supertest";
import { createTestContext, type TestContext } from "./helpers/context";

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => {
  await ctx.close();
});

// Served for operators and tooling, not part of the API the document describes.
const UNDOCUMENTED = [/^\/docs/, /^\/openapi\.json$/, /^\/metrics$/, /^\/internal\//, /^\/\.well-known\//];

describe("OpenAPI document", () => {
  it("documents every route the app registers", () => {
    const documented = pricingApiDocument().paths ?? {};
    const missing = listRoutes(ctx.app)
      .filter((route) => !UNDOCUMENTED.some((pattern) => pattern.test(route.path)))
      .filter((route) => !(documented[route.path] as Record<string, unknown> | undefined)?.[route.method])
      .map((route) => `${route.method.toUpperCase()} ${route.path}`);
    expect(missing).toEqual([]);
    expect(listRoutes(ctx.app).length).toBeGreaterThan(3);
  });

  it("serves /openapi.json, /docs and Prometheus /metrics", async () => {
    const doc = await request(ctx.app).get("/openapi.json").expect(200);
    expect(doc.body.openapi).toBe("3.1.0");
    await request(ctx.app).get("/docs").expect(200).expect("content-type", /html/);
    await request(ctx.app).get("/healthz").expect(200);
    const metrics = await request(ctx.app).get("/metrics").expect(200);
    expect(metrics.text).toMatch(/http_request_duration_seconds_count\{[^}]*route="\/healthz"[^}]*status="200"/);
  });
});
