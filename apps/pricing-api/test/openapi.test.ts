import { listRoutes } from "@cloudcost/http";
import { responseValidator, undocumentedRoutes } from "@cloudcost/testing";
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

describe("OpenAPI document", () => {
  it("documents every route the app registers", () => {
    expect(undocumentedRoutes(ctx.app, pricingApiDocument())).toEqual([]);
    // The check itself can fail: against an empty document every API route is reported.
    expect(undocumentedRoutes(ctx.app, { paths: {} }).length).toBeGreaterThan(3);
    expect(listRoutes(ctx.app).length).toBeGreaterThan(3);
  });

  it("serves /openapi.json and /docs, and Prometheus /metrics (on the API port, and on the optional metrics listener)", async () => {
    const doc = await request(ctx.app).get("/openapi.json").expect(200);
    expect(doc.body.openapi).toBe("3.1.0");
    const docs = await request(ctx.app).get("/docs").expect(200).expect("content-type", /html/);
    // The page may load its own scripts and styles; a JSON answer may load nothing at all.
    expect(docs.headers["content-security-policy"]).toMatch(/script-src 'self'/);
    const health = await request(ctx.app).get("/healthz").expect(200);
    expect(health.headers["content-security-policy"]).toBe("default-src 'none';frame-ancestors 'none'");
    expect(health.headers["x-frame-options"]).toBe("DENY");
    expect(health.headers["x-content-type-options"]).toBe("nosniff");
    await request(ctx.metrics.app()).get("/metrics").expect(200);
    const metrics = await request(ctx.app).get("/metrics").expect(200);
    expect(metrics.text).toMatch(/http_request_duration_seconds_count\{[^}]*route="\/healthz"[^}]*status="200"/);
  });

  it("checks responses against the document (every supertest response of these suites goes through it)", async () => {
    const check = responseValidator(pricingApiDocument());
    const json = { "content-type": "application/json; charset=utf-8" };
    expect(check("POST", "/v1/pricing/compute", { status: 200, headers: json, text: '{"provider": 1}' })).toEqual([
      expect.stringMatching(/^POST \/v1\/pricing\/compute 200: body does not match the document/),
    ]);
    expect(check("GET", "/v1/pricing/pins", { status: 418, headers: json, text: "{}" })).toEqual(["GET /v1/pricing/pins 418: status not documented"]);
    expect(check("GET", "/v1/pricing/pins", { status: 404, headers: json, text: '{"error":"x"}' })).toEqual([
      "GET /v1/pricing/pins 404: status not documented",
    ]);
    expect(check("DELETE", "/marketplace/providers/models?id=x", { status: 400, headers: json, text: '{"error":"x"}' })).toEqual([
      "DELETE /marketplace/providers/models 400: no X-Error-Code header",
    ]);
    const health = await request(ctx.app).get("/healthz");
    expect(check("GET", "/healthz", { status: health.status, headers: health.headers, text: health.text })).toEqual([]);
  });
});
