import { ApiKeysPage, CreateApiKeyResponse, SuccessEnvelope } from "@cloudcost/contracts";
import { hashApiKey } from "@cloudcost/credentials";
import pino from "pino";
import request from "supertest";
import { enqueue } from "../src/outbox/repository";
import { OutboxWorker } from "../src/outbox/worker";
import { createTestContext, TEST_SERVICE_TOKEN_SECRET, type TestContext } from "./helpers/context";
import { addUser, expectError, signUp, type SignedUp } from "./helpers/identity";
import { startPricingApi, type RunningPricingApi } from "./helpers/pricing-api";
import { eventually } from "@cloudcost/testing";

let pricing: RunningPricingApi;
let ctx: TestContext;
let a: SignedUp;
let b: SignedUp;
beforeAll(async () => {
  pricing = await startPricingApi(TEST_SERVICE_TOKEN_SECRET);
  ctx = await createTestContext({ PRICING_API_URL: pricing.url, OUTBOX_BACKOFF_BASE_MS: "20", OUTBOX_BACKOFF_MAX_MS: "100" });
  a = await signUp(ctx, { company: "Keys Co" });
  b = await signUp(ctx, { company: "Other Keys Co" });
});
afterAll(async () => {
  await ctx.close();
  await pricing.close();
});

const keysApi = (method: "get" | "post" | "delete", path: string, token: string) =>
  request(ctx.app)[method](`/api/v1/settings/api-keys${path}`).set("Authorization", `Bearer ${token}`);

async function createKey(token: string, body: object = { name: "CI", role: "admin" }) {
  const res = await keysApi("post", "", token).send(body).expect(201);
  return SuccessEnvelope(CreateApiKeyResponse).parse(res.body).data;
}

const pending = () => ctx.prisma.outboxMessage.count({ where: { deliveredAt: null } });

/** Runs delivery rounds until the outbox is empty (failed messages come due after their short backoff). */
async function deliverAll() {
  await eventually(
    async () => {
      await ctx.outbox.drain();
      return pending();
    },
    (n) => n === 0,
    { what: "an empty outbox" },
  );
}

const pricingAccount = (key: string) => request(pricing.url).get("/v1/pricing/account").set("X-API-Key", key);

describe("API keys", () => {
  it("are created once-shown, stored as a hash, authenticate on the main API and, once delivered, on the pricing API", async () => {
    const created = await createKey(a.token, { name: "CI deploys", role: "admin" });
    expect(created).toMatchObject({ id: expect.stringMatching(/^key_/), name: "CI deploys", role: "admin", last_used_at: null, revoked_at: null });
    expect(created.key).toMatch(/^bl_[0-9A-Za-z]{42}$/);
    expect(created.prefix).toBe(created.key.slice(0, 11));

    const row = await ctx.prisma.apiKey.findFirstOrThrow({ where: { organizationId: a.organization.id, id: created.id } });
    expect(row.keyHash).toBe(hashApiKey(created.key));
    expect(JSON.stringify(row)).not.toContain(created.key.slice(11));
    const message = await ctx.prisma.outboxMessage.findFirstOrThrow({ where: { aggregateId: created.id } });
    expect(JSON.stringify(message.payload)).not.toContain(created.key.slice(11));

    const me = await request(ctx.app).get("/api/v1/me").set("Authorization", `Bearer ${created.key}`).expect(200);
    expect(me.body.data).toMatchObject({ role: "admin", user: null, api_key_id: created.id, organization: { id: a.organization.id } });

    await deliverAll();
    const res = await pricingAccount(created.key).expect(200);
    expect(res.body).toEqual({ account_id: a.organization.id, key_id: created.id });
  });

  it("are listed with pagination, without secrets", async () => {
    await createKey(a.token, { name: "k2", role: "viewer", tenant_ids: [a.tenant.id] });
    const first = await keysApi("get", "?limit=1", a.token).expect(200);
    const page = SuccessEnvelope(ApiKeysPage).parse(first.body).data;
    expect(page.items).toHaveLength(1);
    expect(page.next_cursor).not.toBeNull();
    const rest = await keysApi("get", `?cursor=${page.next_cursor}`, a.token).expect(200);
    expect(rest.body.data.items.length).toBeGreaterThanOrEqual(1);
    expect(JSON.stringify([first.body, rest.body])).not.toMatch(/"key"/);
  });

  it("revoke at once here and, through the outbox, in the pricing API", async () => {
    const created = await createKey(a.token);
    await deliverAll();
    await pricingAccount(created.key).expect(200);
    const res = await keysApi("delete", `/${created.id}`, a.token).expect(200);
    expect(res.body.data.revoked_at).toMatch(/Z$/);
    expectError(await request(ctx.app).get("/api/v1/me").set("Authorization", `Bearer ${created.key}`), 401, /revoked/);
    await deliverAll();
    expect((await pricingAccount(created.key)).status).toBe(401);
    // Revoking again is harmless and writes no second message.
    await keysApi("delete", `/${created.id}`, a.token).expect(200);
    expect(await ctx.prisma.outboxMessage.count({ where: { aggregateId: created.id } })).toBe(2);
  });

  it("survive a pricing API outage at creation: the key and its message are kept and delivered later", async () => {
    pricing.down = true;
    try {
      const created = await createKey(a.token);
      await ctx.outbox.drain();
      const message = await ctx.prisma.outboxMessage.findFirstOrThrow({ where: { aggregateId: created.id } });
      expect(message).toMatchObject({ deliveredAt: null, lastError: expect.stringMatching(/503/) });
      expect(message.attempts).toBeGreaterThanOrEqual(1);
      // A revocation issued meanwhile waits for the provisioning, never overtakes it.
      const revokedLater = await createKey(a.token);
      await keysApi("delete", `/${revokedLater.id}`, a.token).expect(200);
      pricing.down = false;
      await deliverAll();
      await pricingAccount(created.key).expect(200);
      expect((await pricingAccount(revokedLater.key)).status).toBe(401);
    } finally {
      pricing.down = false;
    }
  });

  it("record last_used_at in the background", async () => {
    const created = await createKey(a.token, { name: "used", role: "viewer" });
    await request(ctx.app).get("/api/v1/me").set("Authorization", `Bearer ${created.key}`).expect(200);
    const row = await eventually(
      () => ctx.prisma.apiKey.findFirstOrThrow({ where: { organizationId: a.organization.id, id: created.id } }),
      (key) => key.lastUsedAt !== null,
      { what: "last_used_at recorded" },
    );
    expect(row.lastUsedAt).toBeInstanceOf(Date);
  });
});

describe("API key security", () => {
  it("keys act with their role and only within their organization and tenants", async () => {
    const viewerKey = await createKey(a.token, { name: "ro", role: "viewer", tenant_ids: [a.tenant.id] });
    await request(ctx.app).get(`/api/v1/organizations/${a.organization.id}`).set("Authorization", `Bearer ${viewerKey.key}`).expect(200);
    expectError(
      await request(ctx.app).patch(`/api/v1/organizations/${a.organization.id}`).set("Authorization", `Bearer ${viewerKey.key}`).send({ name: "X" }),
      403,
    );
    // A key of organization B reads nothing of organization A.
    const bKey = await createKey(b.token);
    expectError(await request(ctx.app).get(`/api/v1/organizations/${a.organization.id}/users/${a.owner.id}`).set("Authorization", `Bearer ${bKey.key}`), 403);
    const other = await request(ctx.app)
      .post(`/api/v1/organizations/${a.organization.id}/tenants`)
      .set("Authorization", `Bearer ${a.token}`)
      .send({ name: "Other" });
    const memberKey = await createKey(a.token, { name: "member", role: "member", tenant_ids: [other.body.data.id] });
    const tenants = await request(ctx.app)
      .get(`/api/v1/organizations/${a.organization.id}/tenants`)
      .set("Authorization", `Bearer ${memberKey.key}`)
      .expect(200);
    expect(tenants.body.data.items.map((t: { id: string }) => t.id)).toEqual([other.body.data.id]);
  });

  it("only owners and admins signed in as users manage keys", async () => {
    const member = await addUser(ctx, { orgId: a.organization.id, ownerToken: a.token, role: "member" });
    expectError(await keysApi("post", "", member.token).send({ name: "x", role: "viewer" }), 403, /owners and admins/);
    expectError(await keysApi("get", "", member.token), 403);
    const admin = await addUser(ctx, { orgId: a.organization.id, ownerToken: a.token, role: "admin" });
    const key = await createKey(admin.token, { name: "by admin", role: "admin" });
    expectError(await keysApi("post", "", key.key).send({ name: "x", role: "viewer" }), 403, /API keys cannot manage/);
    expectError(await keysApi("delete", `/${key.id}`, key.key), 403, /API keys cannot manage/);
  });

  it("validate the request: no owner keys, known tenants, well-formed ids", async () => {
    expectError(await keysApi("post", "", a.token).send({ name: "x", role: "owner" }), 400, /role/);
    expectError(await keysApi("post", "", a.token).send({ role: "viewer" }), 400, /name/);
    expectError(await keysApi("post", "", a.token).send({ name: "x", role: "viewer", tenant_ids: [b.tenant.id] }), 400, /not a tenant/);
    expectError(await keysApi("delete", "/bad$id", a.token), 400, /id/);
    expectError(await keysApi("delete", "/key_UNKNOWN", a.token), 404, /does not exist/);
    const bKey = await createKey(b.token);
    expectError(await keysApi("delete", `/${bKey.id}`, a.token), 404, /does not exist/);
  });
});

describe("outbox worker", () => {
  it("delivers each message once when several workers (replicas) drain concurrently", async () => {
    const delivered: string[] = [];
    const handler = async (payload: unknown) => {
      delivered.push((payload as { n: string }).n);
    };
    const options = { pollMs: 1000, backoffBaseMs: 10, backoffMaxMs: 10 };
    const workers = [1, 2, 3].map(() => new OutboxWorker(ctx.prisma, pino({ level: "silent" }), { "test.topic": handler }, options));
    await ctx.prisma.$transaction(async (tx) => {
      for (let n = 0; n < 30; n++) {
        await enqueue(tx, { organizationId: a.organization.id, topic: "test.topic", aggregateId: `agg-${n % 7}`, payload: { n: String(n) } });
      }
    });
    await Promise.all(workers.map((w) => w.drain()));
    expect([...delivered].sort()).toEqual(Array.from({ length: 30 }, (_, n) => String(n)).sort());
    // Per aggregate, messages were delivered in the order they were written.
    for (let g = 0; g < 7; g++) {
      const order = delivered.map(Number).filter((n) => n % 7 === g);
      expect(order).toEqual([...order].sort((x, y) => x - y));
    }
  });
});
