import request from "supertest";
import { vm } from "./helpers/compute-fleet";
import { createTestContext, type TestContext } from "./helpers/context";
import { signUp } from "./helpers/identity";
import { HEARTBEAT_RESOLUTION_SECONDS } from "../src/compute/sample-repository";

// A metric batch moves a resource's stored heartbeat only once its newest sample is
// HEARTBEAT_RESOLUTION_SECONDS (10 s) newer than the stored one: agents sending every second rewrite
// the heartbeat row every 10 s, not with every batch (the summary's `active` filter reads those rows;
// compute-summary-flat.test.ts). A late sample never moves it back; an explicit heartbeat is exact.
let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => {
  await ctx.close();
});

describe("the stored heartbeat", () => {
  it("moves with a metric batch once it is the resolution newer, never back, and exactly with an explicit heartbeat", async () => {
    expect(HEARTBEAT_RESOLUTION_SECONDS).toBe(10);
    const owner = await signUp(ctx, { email: "heartbeat-resolution-owner@example.com" });
    const as = (r: request.Test) => r.set("Authorization", `Bearer ${owner.token}`).set("X-Service-Tenant-ID", owner.tenant.id);
    await as(request(ctx.app).put("/api/v1/tenant/compute/resources"))
      .send({ resources: [vm("hb-1", "m5.large"), vm("hb-2", "m5.large")] })
      .expect(200);
    const t0 = Date.parse("2026-11-29T10:00:00.000Z");
    const at = (seconds: number) => new Date(t0 + seconds * 1000).toISOString();
    const send = (resource_id: string, seconds: number) =>
      as(request(ctx.app).post("/api/v1/tenant/compute/metrics"))
        .send({ samples: [{ resource_id, timestamp: at(seconds), cpu_utilization: 5 }] })
        .expect(200);
    const stored = async (resourceId: string) => {
      const rows = await ctx.db.sql.query<{ at: string }>(
        `SELECT to_char(last_heartbeat_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS at
         FROM compute_resource_heartbeats WHERE tenant_id = $1 AND resource_id = $2`,
        [owner.tenant.id, resourceId],
      );
      return rows[0]?.at;
    };

    await send("hb-1", 0);
    expect(await stored("hb-1")).toBe(at(0)); // the first sample: stored as sent
    await send("hb-1", 9.999);
    expect(await stored("hb-1")).toBe(at(0)); // 9.999 s newer: less than the resolution, unchanged
    await send("hb-1", 10);
    expect(await stored("hb-1")).toBe(at(10)); // 10 s newer: moves, to the sample's own time
    await send("hb-1", 4);
    expect(await stored("hb-1")).toBe(at(10)); // a late sample never moves it back
    await send("hb-1", 25.5);
    expect(await stored("hb-1")).toBe(at(25.5)); // 15.5 s newer: moves

    // The newest sample of a batch decides: 3 s and 12 s after the stored 0 s, in either order.
    await send("hb-2", 0);
    await as(request(ctx.app).post("/api/v1/tenant/compute/metrics"))
      .send({ samples: [12, 3].map((s) => ({ resource_id: "hb-2", timestamp: at(s), cpu_utilization: 5 })) })
      .expect(200);
    expect(await stored("hb-2")).toBe(at(12));

    // An explicit heartbeat is stored exactly, even 1 s after the stored one.
    await as(request(ctx.app).post("/api/v1/tenant/compute/heartbeats"))
      .send({ resource_ids: ["hb-2"], timestamp: at(13) })
      .expect(200);
    expect(await stored("hb-2")).toBe(at(13));
  });
});
