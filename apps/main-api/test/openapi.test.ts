import { listRoutes } from "@cloudcost/http";
import { undocumentedRoutes } from "@cloudcost/testing";
import { mainApiDocument } from "@cloudcost/openapi";
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
    expect(undocumentedRoutes(ctx.app, mainApiDocument())).toEqual([]);
    // The check itself can fail: against an empty document every API route is reported.
    expect(undocumentedRoutes(ctx.app, { paths: {} }).length).toBeGreaterThan(3);
    expect(listRoutes(ctx.app).length).toBeGreaterThan(3);
  });

  it("serves /openapi.json and /docs, and Prometheus /metrics (on the API port, and on the optional metrics listener)", async () => {
    const doc = await request(ctx.app).get("/openapi.json").expect(200);
    expect(doc.body.openapi).toBe("3.1.0");
    await request(ctx.app).get("/docs").expect(200).expect("content-type", /html/);
    await request(ctx.app).get("/healthz").expect(200);
    await request(ctx.metrics.app()).get("/metrics").expect(200);
    const metrics = await request(ctx.app).get("/metrics").expect(200);
    expect(metrics.text).toMatch(/http_request_duration_seconds_count\{[^}]*route="\/healthz"[^}]*status="200"/);
  });
});
