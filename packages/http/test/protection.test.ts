import express from "express";
import pino from "pino";
import request from "supertest";
import { z } from "zod";
import {
  API_KEY_OR_BEARER,
  errorHandler,
  protectionConfig,
  protections,
  ProtectionEnv,
  type CredentialHeader,
  type ErrorRenderer,
  type TrustProxy,
} from "../src";
import { ipBucket } from "../src/rate-limit";

const render: ErrorRenderer = (_req, res, error) => res.status(error.status).json({ error: error.message, code: error.code });

function app(env: { perCredential: number; perIp: number; cors?: string[]; trustProxy?: TrustProxy; credentialHeaders?: readonly CredentialHeader[] }) {
  const config = protectionConfig(
    {
      RATE_LIMIT_WINDOW_MS: 60_000,
      RATE_LIMIT_PER_CREDENTIAL: env.perCredential,
      RATE_LIMIT_PER_IP: env.perIp,
      CORS_ORIGINS: env.cors ?? [],
      TRUST_PROXY: env.trustProxy,
    },
    env.credentialHeaders ?? API_KEY_OR_BEARER,
  );
  const a = express();
  a.set("trust proxy", config.trustProxy);
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
    expect(first.headers.ratelimit).toMatch(/r=1/);
    await request(a).get("/x").set("X-API-Key", "bl_one").expect(200);
    const limited = await request(a).get("/x").set("X-API-Key", "bl_one").expect(429);
    expect(limited.body).toEqual({ code: "rate_limited", error: expect.stringMatching(/Too many requests for this credential/) });
    // Another credential has its own budget; requests without one are not counted here.
    await request(a).get("/x").set("X-API-Key", "bl_two").expect(200);
    await request(a).get("/x").expect(200);
    await request(a).get("/x").expect(200);
  });

  it("counts only the headers the service authenticates, in its order", async () => {
    const bearerOnly = app({ perCredential: 2, perIp: 0, credentialHeaders: ["authorization"] });
    for (const key of ["bl_a", "bl_b"]) await request(bearerOnly).get("/x").set("Authorization", "Bearer t1").set("X-API-Key", key).expect(200);
    await request(bearerOnly).get("/x").set("Authorization", "Bearer t1").set("X-API-Key", "bl_c").expect(429);
    // X-API-Key alone is not a credential there: not counted per credential
    for (let i = 0; i < 3; i++) await request(bearerOnly).get("/x").set("X-API-Key", "bl_a").expect(200);

    const keyFirst = app({ perCredential: 1, perIp: 0 });
    await request(keyFirst).get("/x").set("X-API-Key", "bl_k").set("Authorization", "Bearer t1").expect(200);
    await request(keyFirst).get("/x").set("X-API-Key", "bl_k").set("Authorization", "Bearer t2").expect(429);
    await request(keyFirst).get("/x").set("Authorization", "Bearer t1").expect(200);
  });

  it("reports both limits in one RateLimit and RateLimit-Policy list, and a refusal carries Retry-After", async () => {
    const a = app({ perCredential: 5, perIp: 2 });
    const first = await request(a).get("/x").set("X-API-Key", "bl_one").expect(200);
    expect(first.headers["ratelimit-policy"]).toBe('"ip";q=2;w=60, "credential";q=5;w=60');
    expect(first.headers.ratelimit).toMatch(/^"ip";r=1;t=(59|60), "credential";r=4;t=(59|60)$/);
    await request(a).get("/x").set("X-API-Key", "bl_one").expect(200);
    const limited = await request(a).get("/x").set("X-API-Key", "bl_one").expect(429);
    expect(Number(limited.headers["retry-after"])).toBeGreaterThanOrEqual(59);
    expect(limited.headers.ratelimit).toMatch(/^"ip";r=0;/);
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

  it("counts the client behind a trusted proxy by X-Forwarded-For, and ignores the header otherwise", async () => {
    const behindGateway = app({ perCredential: 0, perIp: 1, trustProxy: 1 });
    await request(behindGateway).get("/x").set("X-Forwarded-For", "203.0.113.7").expect(200);
    await request(behindGateway).get("/x").set("X-Forwarded-For", "203.0.113.8").expect(200);
    await request(behindGateway).get("/x").set("X-Forwarded-For", "203.0.113.7").expect(429);
    // Only the last hop counts: a client cannot prepend an address of its choosing.
    await request(behindGateway).get("/x").set("X-Forwarded-For", "198.51.100.1, 203.0.113.8").expect(429);
    const direct = app({ perCredential: 0, perIp: 1 });
    await request(direct).get("/x").set("X-Forwarded-For", "203.0.113.7").expect(200);
    await request(direct).get("/x").set("X-Forwarded-For", "203.0.113.8").expect(429);
  });

  it("reads TRUST_PROXY as off, a hop count or a list of proxy addresses", () => {
    const parse = (value?: string) => z.object({ TRUST_PROXY: ProtectionEnv.TRUST_PROXY }).safeParse({ TRUST_PROXY: value });
    expect(parse().data?.TRUST_PROXY).toBe(false);
    expect(parse("false").data?.TRUST_PROXY).toBe(false);
    expect(parse("1").data?.TRUST_PROXY).toBe(1);
    expect(parse("loopback, 10.0.0.0/8,::1").data?.TRUST_PROXY).toEqual(["loopback", "10.0.0.0/8", "::1"]);
    expect(parse("true").success).toBe(false);
    expect(parse("gateway.internal").error?.issues[0].message).toMatch(/got gateway.internal/);
  });

  it("sets security headers and leaves CORS off unless configured", async () => {
    const off = await request(app({ perCredential: 0, perIp: 0 }))
      .get("/x")
      .set("Origin", "https://evil.example")
      .expect(200);
    expect(off.headers).toMatchObject({
      "content-security-policy": "default-src 'none';frame-ancestors 'none'",
      "cross-origin-opener-policy": "same-origin",
      "cross-origin-resource-policy": "same-site",
      "referrer-policy": "no-referrer",
      "strict-transport-security": "max-age=31536000; includeSubDomains",
      "x-content-type-options": "nosniff",
      "x-frame-options": "DENY",
      "x-permitted-cross-domain-policies": "none",
    });
    expect(off.headers["x-powered-by"]).toBeUndefined();
    expect(off.headers["x-xss-protection"]).toBeUndefined();
    expect(off.headers["access-control-allow-origin"]).toBeUndefined();
    const on = await request(app({ perCredential: 0, perIp: 0, cors: ["https://app.example"] }))
      .get("/x")
      .set("Origin", "https://app.example")
      .expect(200);
    expect(on.headers["access-control-allow-origin"]).toBe("https://app.example");
  });
});
