import { randomBytes } from "node:crypto";
import express from "express";
import pino from "pino";
import request from "supertest";
import { API_KEY_OR_BEARER, closeRedis, connectRedis, errorHandler, protectionConfig, protections, redisReady, type ErrorRenderer, type Redis } from "../src";

// Redis is part of the machine and of CI (.ci/run starts it); TEST_REDIS_URL points elsewhere.
const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const silent = pino({ level: "silent" });
const render: ErrorRenderer = (_req, res, error) => res.status(error.status).json({ error: error.message, code: error.code });

/** One replica: its own Redis connection (or none) and its own in-process limiter. */
function replica(redis: Redis | undefined, keyPrefix: string, perCredential = 3) {
  const config = protectionConfig(
    { RATE_LIMIT_WINDOW_MS: 60_000, RATE_LIMIT_PER_CREDENTIAL: perCredential, RATE_LIMIT_PER_IP: 0, CORS_ORIGINS: [] },
    API_KEY_OR_BEARER,
  );
  const a = express();
  a.use(protections(config, redis && { redis, keyPrefix }));
  a.get("/x", (_req, res) => res.json({ ok: true }));
  a.use(errorHandler(render, silent));
  return a;
}

async function connected(): Promise<Redis> {
  const client = connectRedis(REDIS_URL, silent);
  if (!(await redisReady(client, 3_000))) throw new Error(`Redis is not reachable at ${REDIS_URL} (start redis-server, or set TEST_REDIS_URL)`);
  return client;
}

describe("rate limits shared through Redis", () => {
  const clients: Redis[] = [];
  const open = async () => {
    const client = await connected();
    clients.push(client);
    return client;
  };
  // A prefix per run: counts of earlier runs (kept for the window) never leak into this one.
  const prefix = `rl:test:${randomBytes(6).toString("hex")}`;
  const key = () => `bl_${randomBytes(12).toString("hex")}`;

  afterAll(async () => {
    for (const client of clients) await closeRedis(client);
  });

  it("counts one budget across two replicas: the request over the limit is a 429 whichever replica answers", async () => {
    const a = replica(await open(), prefix);
    const b = replica(await open(), prefix);
    const k = key();
    const statuses: number[] = [];
    for (const app of [a, b, a]) statuses.push((await request(app).get("/x").set("X-API-Key", k)).status);
    expect(statuses).toEqual([200, 200, 200]);
    const overA = await request(a).get("/x").set("X-API-Key", k);
    const overB = await request(b).get("/x").set("X-API-Key", k);
    expect([overA.status, overB.status]).toEqual([429, 429]);
    expect(overB.body.code).toBe("rate_limited");
    expect(Number(overB.headers["retry-after"])).toBeGreaterThan(0);
    expect(overA.headers.ratelimit).toMatch(/"credential";r=0;t=\d+/);
    // Another credential still has its own budget.
    expect((await request(b).get("/x").set("X-API-Key", key())).status).toBe(200);
  });

  it("keeps the counts across a restart of the replica", async () => {
    const k = key();
    const first = await open();
    const before = replica(first, prefix);
    for (let i = 0; i < 3; i++) expect((await request(before).get("/x").set("X-API-Key", k)).status).toBe(200);
    await closeRedis(first);
    const after = replica(await open(), prefix);
    expect((await request(after).get("/x").set("X-API-Key", k)).status).toBe(429);
  });

  it("without a store each replica counts its own (the embedded default)", async () => {
    const a = replica(undefined, prefix);
    const b = replica(undefined, prefix);
    const k = key();
    for (let i = 0; i < 3; i++) expect((await request(a).get("/x").set("X-API-Key", k)).status).toBe(200);
    expect((await request(a).get("/x").set("X-API-Key", k)).status).toBe(429);
    expect((await request(b).get("/x").set("X-API-Key", k)).status).toBe(200);
  });

  it("counts in the process while Redis is unreachable, instead of failing or holding requests", async () => {
    const down = connectRedis("redis://127.0.0.1:1", silent);
    clients.push(down);
    const a = replica(down, prefix, 2);
    const k = key();
    const started = Date.now();
    expect((await request(a).get("/x").set("X-API-Key", k)).status).toBe(200);
    expect((await request(a).get("/x").set("X-API-Key", k)).status).toBe(200);
    expect((await request(a).get("/x").set("X-API-Key", k)).status).toBe(429);
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});
