// Two instances of the pricing API on one database, as two replicas behind the gateway: what one
// changes, the other's caches drop when the change feed tells them, in about a second on an idle
// machine (LISTEN/NOTIFY on PostgreSQL; on PGlite the same path inside the one process). Run on PostgreSQL too: TEST_DATABASE_URL (CI does both).
import { randomBytes } from "node:crypto";
import { generateApiKey, hashApiKey } from "@cloudcost/credentials";
import { EVENTUALLY_TIMEOUT_MS, eventually } from "@cloudcost/testing";
import type { Express } from "express";
import request from "supertest";
import { PRICE_FILE_COLUMNS } from "../src/compute/catalog-file";
import { importPriceFile, refreshCatalogStore } from "../src/compute/catalog-loader";
import { createReplicaContext, createTestContext, type TestContext } from "./helpers/context";
import { provisionKey, syncKey } from "./helpers/keys";

let a: TestContext;
let b: TestContext;
beforeAll(async () => {
  a = await createTestContext();
  b = await createReplicaContext(a);
});
afterAll(async () => {
  await b?.close();
  await a?.close();
});

/**
 * Polls `probe` until it answers `want`. The change feed carries a change to the other replica in
 * about a second on an idle machine; what these tests tell apart is that path from the end of the
 * other replica's cache TTL, so the bound is generous but stays under the TTL of what the probe's
 * earlier answer was cached for (API keys: 30 s; negotiated prices: 10 s).
 */
async function propagated(probe: () => Promise<unknown>, want: unknown, boundMs = EVENTUALLY_TIMEOUT_MS): Promise<void> {
  await eventually(probe, (answer) => answer === want, { timeoutMs: boundMs, what: `an answer of ${String(want)} from the other replica` });
}

const account = () => `acct_rep_${randomBytes(4).toString("hex")}`;
const listModels = (app: Express, key: string) =>
  request(app)
    .get("/marketplace/providers/models")
    .set("X-API-Key", key)
    .then((res) => res.status);
const registerModel = (app: Express, key: string) =>
  request(app)
    .post("/marketplace/providers/models")
    .set("X-API-Key", key)
    .send({ entries: [{ provider: "p", model: `m-${randomBytes(3).toString("hex")}`, token_bucket: "input", unit_price_per_mtok: 1 }] })
    .then((res) => res.status);

describe("API key cache across replicas", () => {
  it("a key revoked through one replica is refused by the other, told by the change feed", async () => {
    const key = await provisionKey(a, account(), "admin");
    expect(await listModels(b.app, key)).toBe(200); // cached by b for 30 s
    await a.apiKeys.revokeByHash(hashApiKey(key));
    await propagated(() => listModels(b.app, key), 401);
  });

  it("a key suspended (its creator deactivated) through one replica is refused by the other, told by the change feed", async () => {
    const acct = account();
    const key = await provisionKey(a, acct, "member");
    expect(await listModels(b.app, key)).toBe(200);
    await syncKey(a, acct, key, "member", true);
    await propagated(() => listModels(b.app, key), 401);
  });

  it("a role change through one replica caps the key on the other, told by the change feed", async () => {
    const acct = account();
    const key = await provisionKey(a, acct, "member");
    expect(await registerModel(b.app, key)).toBe(201);
    await syncKey(a, acct, key, "viewer");
    await propagated(() => registerModel(b.app, key), 403);
  });

  it("a key provisioned through one replica is accepted by the other once the change feed tells it, though it refused it a moment before", async () => {
    const key = generateApiKey();
    const beforeRefusal = Date.now();
    expect(await listModels(b.app, key)).toBe(401); // b caches the refusal (1 s)
    await syncKey(a, account(), key, "viewer");
    // The notification drops b's cached refusal. Judged as of before the refusal was cached, the
    // entry stays there however long that takes: only the notification removes it, never its own
    // 1 s expiry (a timing bound here failed on loaded machines).
    await eventually(
      () => b.apiKeys.cached(hashApiKey(key), beforeRefusal),
      (entry) => entry !== null,
      { what: "b's cached refusal dropped" },
    );
    expect(await listModels(b.app, key)).toBe(200);
  });
});

describe("negotiated compute prices across replicas", () => {
  it("a negotiated price registered through one replica prices the other's compute query, told by the change feed", async () => {
    const lines = [PRICE_FILE_COLUMNS.join(","), "aws,us-east-1,m5.large,m5,2,8,0,x86_64,linux,on_demand,0.096,2026-11-01"];
    await importPriceFile({ db: a.db, prisma: a.prisma }, `${lines.join("\n")}\n`, { name: "replicas.csv" });
    await refreshCatalogStore({ db: a.db, prisma: a.prisma }, a.computeCatalog);
    await refreshCatalogStore({ db: b.db, prisma: b.prisma }, b.computeCatalog);
    const key = await provisionKey(a, account(), "member");
    const hourly = async () =>
      (await request(b.app).post("/v1/pricing/compute").set("X-API-Key", key).send({ provider: "aws", region: "us-east-1", instance_type: "m5.large" })).body
        .price_per_hour;
    expect(await hourly()).toBe(0.096); // b caches the account's (empty) negotiated entries for 10 s
    await request(a.app)
      .post("/marketplace/providers/compute")
      .set("X-API-Key", key)
      .send({ entries: [{ provider: "aws", instance_type: "m5.large", price_per_hour: 0.05 }] })
      .expect(201);
    await propagated(hourly, 0.05, 5_000);
  });
});

describe("compute catalog across replicas", () => {
  it("a catalog imported through one replica (or the import command) is served by the other, told by the change feed", async () => {
    const file = (price: string) => `${PRICE_FILE_COLUMNS.join(",")}\naws,us-east-1,c5.large,c5,2,4,0,x86_64,linux,on_demand,${price},2026-11-01\n`;
    await importPriceFile({ db: a.db, prisma: a.prisma }, file("0.085"), { name: "first.csv" });
    await refreshCatalogStore({ db: b.db, prisma: b.prisma }, b.computeCatalog);
    const key = await provisionKey(a, account(), "viewer");
    const hourly = async () =>
      (await request(b.app).post("/v1/pricing/compute").set("X-API-Key", key).send({ provider: "aws", region: "us-east-1", instance_type: "c5.large" })).body
        .price_per_hour;
    expect(await hourly()).toBe(0.085);
    await importPriceFile({ db: a.db, prisma: a.prisma }, file("0.07"), { name: "second.csv" });
    await propagated(hourly, 0.07);
  });
});

describe("rate limits across replicas (REDIS_URL)", () => {
  it("the request over a key's limit is a 429 whichever replica answers; without REDIS_URL each counts its own", async () => {
    const redisUrl = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
    const limited = { RATE_LIMIT_PER_CREDENTIAL: "3", REDIS_URL: redisUrl };
    const c = await createReplicaContext(a, limited);
    const d = await createReplicaContext(a, limited);
    const e = await createReplicaContext(a, { RATE_LIMIT_PER_CREDENTIAL: "3" });
    try {
      const { redisReady } = await import("@cloudcost/http");
      for (const ctx of [c, d]) expect(await redisReady(ctx.deps.redis!, 3_000)).toBe(true);
      const key = await provisionKey(a, account(), "viewer");
      const statuses = [];
      for (const app of [c.app, d.app, c.app, d.app, c.app]) statuses.push(await listModels(app, key));
      expect(statuses).toEqual([200, 200, 200, 429, 429]);
      expect(await listModels(e.app, key)).toBe(200); // in-process: its own count
    } finally {
      await e.close();
      await d.close();
      await c.close();
    }
  });
});
