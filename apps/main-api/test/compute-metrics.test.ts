import request from "supertest";
import { shaped, vm } from "./helpers/compute-fleet";
import { startPricingStub, type PricingStub } from "./helpers/compute-pricing-stub";
import { createTestContext, type TestContext } from "./helpers/context";
import { signUp } from "./helpers/identity";

let ctx: TestContext;
let stub: PricingStub;
beforeAll(async () => {
  stub = await startPricingStub(1500);
  // A generous timeout: the stub answers at once; a loaded machine may not within a few hundred ms.
  ctx = await createTestContext({ PRICING_API_URL: stub.url, PRICING_API_TIMEOUT_MS: "10000" });
});
afterAll(async () => {
  await ctx.close();
  await stub.close();
});

const line = (text: string, name: string, labels: string) =>
  Number(new RegExp(`^${name}\\{[^}]*${labels}[^}]*\\} (\\d+(?:\\.\\d+)?)$`, "m").exec(text)?.[1] ?? 0);

describe("compute metrics", () => {
  it("exports analysis cycle duration by outcome and pricing client calls by outcome", async () => {
    const owner = await signUp(ctx, { email: "metrics-owner@example.com" });
    const as = (r: request.Test) => r.set("Authorization", `Bearer ${owner.token}`).set("X-Service-Tenant-ID", owner.tenant.id);
    await as(request(ctx.app).put("/api/v1/tenant/compute/resources"))
      .send({ resources: [vm("light", "m5.2xlarge")] })
      .expect(200);
    await as(request(ctx.app).post("/api/v1/tenant/compute/metrics"))
      .send({ samples: shaped("light", 10, 20) })
      .expect(200);
    await as(request(ctx.app).post("/api/v1/tenant/compute/recommendations/analyze")).expect(200);
    // A resource in another region misses the client's cache, so the next cycle must call the pricing API.
    await as(request(ctx.app).put("/api/v1/tenant/compute/resources"))
      .send({ resources: [vm("west", "m5.large", { region: "us-west-2", availability_zone: "us-west-2a" })] })
      .expect(200);
    await as(request(ctx.app).post("/api/v1/tenant/compute/metrics"))
      .send({ samples: shaped("west", 10, 20) })
      .expect(200);
    stub.mode = "error500";
    await as(request(ctx.app).post("/api/v1/tenant/compute/recommendations/analyze")).expect(503);

    const text = (await request(ctx.metrics.app()).get("/metrics").expect(200)).text;
    expect(line(text, "compute_analysis_cycle_duration_seconds_count", 'outcome="ok"')).toBe(1);
    expect(line(text, "compute_analysis_cycle_duration_seconds_count", 'outcome="pricing_unavailable"')).toBe(1);
    expect(line(text, "pricing_client_calls_total", 'outcome="ok"')).toBeGreaterThanOrEqual(1);
    expect(line(text, "pricing_client_calls_total", 'outcome="pricing_unavailable"')).toBeGreaterThanOrEqual(1);
  });
});
