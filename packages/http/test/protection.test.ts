import express from "express";
import pino from "pino";
import request from "supertest";
import { errorHandler, protectionConfig, protections, type ErrorRenderer } from "../src";
import { ipBucket } from "../src/rate-limit";

const render: ErrorRenderer = (_req, res, error) => res.status(error.status).json({ error: error.message, code: error.code });

function app(env: { perCredential: number; perIp: number; cors?: string[] }) {
  const config = protectionConfig({
    RATE_LIMIT_WINDOW_MS: 60_000,
    RATE_LIMIT_PER_CREDENTIAL: env.perCredential,
    RATE_LIMIT_PER_IP: env.perIp,
    CORS_ORIGINS: env.cors ?? [],
  });
  const a = express();
  a.use(protections(config));
  a.get("/x", (_req, res) => res.json({ ok: true }));
  a.use(errorHandler(render, pino({ level: "silent" })));
  return a;
}

describe("protections", () => {
  it("limits per credential with RateLimit headers and a 429 in the API's shape", async () => {
    const a = app({ perCredential: 2, perIp: 0 });
    const first = await request(a).get("/x").set("X-API-Key", "bl_one").expect(200);
    expect(first.headers["ratelimit-policy"]).toMatch(/q=2/);
    expect(first.headers["ratelimit"]).toMatch(/r=1/);
    await request(a).get("/x").set("X-API-Key", "bl_one").expect(200);
    const limited = await request(a).get("/x").set("X-API-Key", "bl_one").expect(429);
    expect(limited.body).toEqual({ code: "rate_limited", error: expect.stringMatching(/Too many requests for this credential/) });
    // Another credential has its own budget; requests without one are not counted here.
    await request(a).get("/x").set("X-API-Key", "bl_two").expect(200);
    await request(a).get("/x").expect(200);
    await request(a).get("/x").expect(200);
  });

  it("reports both limits in one RateLimit and RateLimit-Policy list, and a refusal carries Retry-After", async () => {
    const a = app({ perCredential: 5, perIp: 2 });
    const first = await request(a).get("/x").set("X-API-Key", "bl_one").expect(200);
    expect(first.headers["ratelimit-policy"]).toBe('"ip";q=2;w=60, "credential";q=5;w=60');
    expect(first.headers["ratelimit"]).toMatch(/^"ip";r=1;t=(59|60), "credential";r=4;t=(59|60)$/);
    await request(a).get("/x").set("X-API-Key", "bl_one").expect(200);
    const limited = await request(a).get("/x").set("X-API-Key", "bl_one").expect(429);
    expect(Number(limited.headers["retry-after"])).toBeGreaterThanOrEqual(59);
    expect(limited.headers["ratelimit"]).toMatch(/^"ip";r=0;/);
    expect(limited.body.error).toMatch(/from this address/);
  });

  it("counts IPv6 clients by their /64 prefix and IPv4-mapped addresses as IPv4", () => {
    expect(ipBucket("2001:db8:1:2:aaaa::1")).toBe("2001:db8:1:2::/64");
    expect(ipBucket("2001:db8:1:2:bbbb:cccc:dddd:eeee")).toBe("2001:db8:1:2::/64");
    expect(ipBucket("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(ipBucket("::1")).toBe("0:0:0:0::/64");
    expect(ipBucket("::ffff:10.1.2.3")).toBe("10.1.2.3");
    expect(ipBucket("10.1.2.3")).toBe("10.1.2.3");
    expect(ipBucket(undefined)).toBe("unknown");
  });

  it("limits per IP", async () => {
    const a = app({ perCredential: 0, perIp: 1 });
    await request(a).get("/x").expect(200);
    expect((await request(a).get("/x").set("Authorization", "Bearer x").expect(429)).body.error).toMatch(/from this address/);
  });

  it("sets security headers and leaves CORS off unless configured", async () => {
    const off = await request(app({ perCredential: 0, perIp: 0 })).get("/x").set("Origin", "https://evil.example").expect(200);
    expect(off.headers["x-content-type-options"]).toBe("nosniff");
    expect(off.headers["strict-transport-security"]).toBeDefined();
    expect(off.headers["access-control-allow-origin"]).toBeUndefined();
    const on = await request(app({ perCredential: 0, perIp: 0, cors: ["https://app.example"] }))
      .get("/x")
      .set("Origin", "https://app.example")
      .expect(200);
    expect(on.headers["access-control-allow-origin"]).toBe("https://app.example");
  });
});
