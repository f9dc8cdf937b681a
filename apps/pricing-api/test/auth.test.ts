import { generateApiKey, hashApiKey, signServiceToken } from "@cloudcost/credentials";
import request from "supertest";
import { createTestContext, TEST_SERVICE_SECRET, type TestContext } from "./helpers/context";
import { createApiKey } from "./helpers/keys";

let ctx: TestContext;
let key: string;
beforeAll(async () => {
  ctx = await createTestContext();
  key = await createApiKey(ctx, "acct_a");
});
afterAll(async () => {
  await ctx.close();
});

const whoami = () => request(ctx.app).get("/v1/pricing/account");

function expectUnauthenticated(res: request.Response, detail: RegExp) {
  expect(res.status).toBe(401);
  expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
  expect(res.body).toMatchObject({ status: 401, code: "unauthenticated", title: "Unauthorized" });
  expect(res.body.detail).toMatch(detail);
}

describe("pricing API keys", () => {
  it("accepts a key in X-API-Key, in X-API-KEY upper case, and as a Bearer token", async () => {
    for (const [header, value] of [
      ["X-API-Key", key],
      ["X-API-KEY", key],
      ["Authorization", `Bearer ${key}`],
    ]) {
      const res = await whoami().set(header, value).expect(200);
      expect(res.body).toEqual({ account_id: "acct_a", key_id: expect.stringMatching(/^key_/) });
    }
  });

  it("answers 401 unauthenticated for no key, a malformed key, a wrong checksum and an unknown key", async () => {
    expectUnauthenticated(await whoami(), /Missing API key/);
    expectUnauthenticated(await whoami().set("X-API-Key", "bl_short"), /Malformed/);
    const wrongChecksum = key.slice(0, -1) + (key.endsWith("A") ? "B" : "A");
    expectUnauthenticated(await whoami().set("X-API-Key", wrongChecksum), /Malformed/);
    expectUnauthenticated(await whoami().set("X-API-Key", generateApiKey()), /Unknown or revoked/);
    expectUnauthenticated(await whoami().set("Authorization", "Bearer not-a-key"), /Missing API key/);
  });

  it("stores only the hash and a display prefix", async () => {
    const rows = await ctx.prisma.apiKey.findMany({ where: { accountId: "acct_a" } });
    expect(rows).toHaveLength(1);
    expect(rows[0].keyHash).toBe(hashApiKey(key));
    expect(rows[0].prefix).toBe(key.slice(0, 11));
    expect(JSON.stringify(rows)).not.toContain(key.slice(11));
  });

  it("records last_used_at in the background, not on the request", async () => {
    await whoami().set("X-API-Key", key).expect(200);
    const before = await ctx.prisma.apiKey.findFirstOrThrow({ where: { keyHash: hashApiKey(key) } });
    expect(before.lastUsedAt).toBeNull();
    await ctx.apiKeys.flushUsage();
    const after = await ctx.prisma.apiKey.findFirstOrThrow({ where: { keyHash: hashApiKey(key) } });
    expect(after.lastUsedAt).toBeInstanceOf(Date);
  });
});

describe("internal key endpoints", () => {
  /** A service token for one request (each is accepted once, for its method and path only). */
  const tokenFor = (method: string, path: string) => signServiceToken(TEST_SERVICE_SECRET, { method, path });

  it("refuses calls without a valid service token", async () => {
    const res = await request(ctx.app).post("/internal/accounts/acct_b/api-keys").send({});
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: "A valid service token is required for internal endpoints." });
    const forged = await signServiceToken(new TextEncoder().encode("x".repeat(40)), { method: "POST", path: "/internal/accounts/acct_b/api-keys" });
    await request(ctx.app).post("/internal/accounts/acct_b/api-keys").set("Authorization", `Bearer ${forged}`).send({}).expect(401);
    await request(ctx.app).post("/internal/accounts/acct_b/api-keys").set("Authorization", `Bearer ${key}`).send({}).expect(401);
  });

  it("creates a key for an account (shown once) that then works", async () => {
    const res = await request(ctx.app)
      .post("/internal/accounts/acct_b/api-keys")
      .set("Authorization", `Bearer ${await tokenFor("POST", "/internal/accounts/acct_b/api-keys")}`)
      .send({ name: "ci" })
      .expect(201);
    expect(res.body).toMatchObject({ account_id: "acct_b", name: "ci", revoked_at: null, key: expect.stringMatching(/^bl_/) });
    const me = await whoami().set("X-API-Key", res.body.key).expect(200);
    expect(me.body.account_id).toBe("acct_b");
  });

  it("provisions a key issued elsewhere by its hash, idempotently, and revokes it", async () => {
    const issued = generateApiKey();
    const hash = hashApiKey(issued);
    const body = { account_id: "org_main", prefix: issued.slice(0, 11), name: "from main" };
    const put = async () =>
      request(ctx.app)
        .put(`/internal/api-keys/${hash}`)
        .set("Authorization", `Bearer ${await tokenFor("PUT", `/internal/api-keys/${hash}`)}`)
        .send(body);
    // A client that tries the key before the main API's outbox delivered it is not locked out after.
    expectUnauthenticated(await whoami().set("X-API-Key", issued), /Unknown or revoked/);
    expect((await put()).status).toBe(201);
    expect((await put()).status).toBe(200);
    expect((await whoami().set("X-API-Key", issued).expect(200)).body.account_id).toBe("org_main");

    const clash = await request(ctx.app)
      .put(`/internal/api-keys/${hash}`)
      .set("Authorization", `Bearer ${await tokenFor("PUT", `/internal/api-keys/${hash}`)}`)
      .send({ ...body, account_id: "org_other" });
    expect(clash.status).toBe(409);

    const revoked = await request(ctx.app)
      .delete(`/internal/api-keys/${hash}`)
      .set("Authorization", `Bearer ${await tokenFor("DELETE", `/internal/api-keys/${hash}`)}`)
      .expect(200);
    expect(revoked.body.revoked_at).toEqual(expect.any(String));
    expectUnauthenticated(await whoami().set("X-API-Key", issued), /Unknown or revoked/);
    await request(ctx.app)
      .delete(`/internal/api-keys/${"0".repeat(64)}`)
      .set("Authorization", `Bearer ${await tokenFor("DELETE", `/internal/api-keys/${"0".repeat(64)}`)}`)
      .expect(404);
    await request(ctx.app)
      .delete(`/internal/api-keys/not-a-hash`)
      .set("Authorization", `Bearer ${await tokenFor("DELETE", `/internal/api-keys/not-a-hash`)}`)
      .expect(400);
  });

  it("accepts a provisioned key at once even when it was tried (and refused) before it was delivered", async () => {
    const issued = generateApiKey();
    expectUnauthenticated(await whoami().set("X-API-Key", issued), /Unknown or revoked/);
    await request(ctx.app)
      .put(`/internal/api-keys/${hashApiKey(issued)}`)
      .set("Authorization", `Bearer ${await tokenFor("PUT", `/internal/api-keys/${hashApiKey(issued)}`)}`)
      .send({ account_id: "org_early", prefix: issued.slice(0, 11), name: "tried early" })
      .expect(201);
    expect((await whoami().set("X-API-Key", issued).expect(200)).body.account_id).toBe("org_early");
  });

  it("rejects a malformed provisioning body without writing anything", async () => {
    const hash = hashApiKey(generateApiKey());
    const res = await request(ctx.app)
      .put(`/internal/api-keys/${hash}`)
      .set("Authorization", `Bearer ${await tokenFor("PUT", `/internal/api-keys/${hash}`)}`)
      .send({ account_id: "bad id with spaces", prefix: "zz" });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/account_id/);
    expect(await ctx.prisma.apiKey.findUnique({ where: { keyHash: hash } })).toBeNull();
  });
});

describe("key cache", () => {
  it("stays bounded when flooded with made-up, well-formed keys", async () => {
    const { ApiKeyStore } = await import("../src/auth/api-key-store");
    const small = new ApiKeyStore(ctx.prisma, { maxCacheEntries: 20 });
    for (let i = 0; i < 45; i++) await small.verify(generateApiKey());
    expect((small as unknown as { cache: Map<string, unknown> }).cache.size).toBeLessThanOrEqual(20);
    // A real key still verifies after the flood.
    expect(await small.verify(key)).toMatchObject({ accountId: "acct_a" });
  });
});
