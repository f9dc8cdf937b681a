// Keys over time (issue 22, findings 2, 4, 6 and 7): a key acts with at most its creator's current
// role on both APIs, a replayed creation never returns the secret, and a key cannot promote anyone
// to admin or change a manager.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { ApiKeysPage, SuccessEnvelope } from "@cloudcost/contracts";
import request from "supertest";
import { pricingApiKeyHandlers, PROVISION_TOPIC } from "../src/outbox/pricing-api-keys";
import { createTestContext, TEST_SERVICE_TOKEN_SECRET, type TestContext } from "./helpers/context";
import { addUser, expectError, signUp, type SignedUp } from "./helpers/identity";
import { startPricingApi, type RunningPricingApi } from "./helpers/pricing-api";
import { eventually } from "@cloudcost/testing";

let pricing: RunningPricingApi;
let ctx: TestContext;
let a: SignedUp;
beforeAll(async () => {
  pricing = await startPricingApi(TEST_SERVICE_TOKEN_SECRET);
  ctx = await createTestContext({ PRICING_API_URL: pricing.url, OUTBOX_BACKOFF_BASE_MS: "20", OUTBOX_BACKOFF_MAX_MS: "100" });
  a = await signUp(ctx, { company: "Lifecycle Co" });
});
afterAll(async () => {
  await ctx.close();
  await pricing.close();
});

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
const pending = () => ctx.prisma.outboxMessage.count({ where: { deliveredAt: null } });

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

async function createKey(token: string, body: object = { name: "CI", role: "admin" }, headers: Record<string, string> = {}) {
  const res = await request(ctx.app).post("/api/v1/settings/api-keys").set(bearer(token)).set(headers).send(body);
  expect(res.status).toBe(201);
  return res.body.data as { id: string; key: string };
}

const patchUser = (token: string, id: string, body: object) =>
  request(ctx.app).patch(`/api/v1/organizations/${a.organization.id}/users/${id}`).set(bearer(token)).send(body);

const me = (key: string) => request(ctx.app).get("/api/v1/me").set(bearer(key));
const pricingAccount = (key: string) => request(pricing.url).get("/v1/pricing/account").set("X-API-Key", key);
const registerModel = (key: string, model: string) =>
  request(pricing.url)
    .post("/marketplace/providers/models")
    .set("X-API-Key", key)
    .send({ entries: [{ provider: "openai", model, token_bucket: "input", unit_price_per_mtok: 1 }] });

/** An admin of organization A with one admin key, delivered to the pricing API. */
async function adminWithKey() {
  const admin = await addUser(ctx, { orgId: a.organization.id, ownerToken: a.token, role: "admin", tenantIds: [a.tenant.id] });
  const key = await createKey(admin.token, { name: "admin key", role: "admin" });
  await deliverAll();
  await pricingAccount(key.key).expect(200);
  return { ...admin, key };
}

describe("a key acts with at most its creator's current role", () => {
  it("stops at once on both APIs when its creator is deactivated, and works again on reactivation", async () => {
    const admin = await adminWithKey();
    await patchUser(a.token, admin.user.id, { active: false }).expect(200);
    expectError(await me(admin.key.key), 401);
    const invite = await request(ctx.app)
      .post(`/api/v1/organizations/${a.organization.id}/users`)
      .set(bearer(admin.key.key))
      .send({ email: "fresh-admin@example.com", role: "admin" });
    expectError(invite, 401);
    await deliverAll();
    const refused = await pricingAccount(admin.key.key);
    expect([refused.status, refused.body.code]).toEqual([401, "unauthenticated"]);

    await patchUser(a.token, admin.user.id, { active: true }).expect(200);
    expect((await me(admin.key.key).expect(200)).body.data.role).toBe("admin");
    await deliverAll();
    await pricingAccount(admin.key.key).expect(200);
  });

  it("is capped at its creator's role when the creator is demoted, on both APIs", async () => {
    const admin = await adminWithKey();
    await registerModel(admin.key.key, "before-demotion").expect(201);
    await patchUser(a.token, admin.user.id, { role: "member" }).expect(200);

    expect((await me(admin.key.key).expect(200)).body.data).toMatchObject({ role: "member", tenant_ids: [a.tenant.id] });
    const invite = await request(ctx.app)
      .post(`/api/v1/organizations/${a.organization.id}/users`)
      .set(bearer(admin.key.key))
      .send({ email: "capped-invite@example.com", role: "viewer" });
    expectError(invite, 403);
    expectError(
      await request(ctx.app).patch(`/api/v1/organizations/${a.organization.id}/settings`).set(bearer(admin.key.key)).send({ active_window_minutes: 30 }),
      403,
    );
    // Only the tenants the creator still reaches.
    const other = await request(ctx.app).post(`/api/v1/organizations/${a.organization.id}/tenants`).set(bearer(a.token)).send({ name: "Not hers" }).expect(201);
    const tenants = await request(ctx.app).get(`/api/v1/organizations/${a.organization.id}/tenants`).set(bearer(admin.key.key)).expect(200);
    expect(tenants.body.data.items.map((t: { id: string }) => t.id)).toEqual([a.tenant.id]);
    expect(other.body.data.id).not.toBe(a.tenant.id);

    await deliverAll();
    const list = await request(pricing.url).get("/marketplace/providers/models").set("X-API-Key", admin.key.key).expect(200);
    const entry = list.body.entries.find((e: { model: string }) => e.model === "before-demotion");
    await registerModel(admin.key.key, "as-member").expect(201);
    const del = await request(pricing.url).delete(`/marketplace/providers/models?id=${entry.id}`).set("X-API-Key", admin.key.key);
    expect([del.status, del.body]).toEqual([403, { error: expect.any(String) }]);

    await patchUser(a.token, admin.user.id, { role: "viewer" }).expect(200);
    await deliverAll();
    expect((await registerModel(admin.key.key, "as-viewer")).status).toBe(403);
    await request(pricing.url)
      .post("/v1/pricing/usage")
      .set("X-API-Key", admin.key.key)
      .send({ usage: [{ resource_id: "r", kind: "database", timestamp: new Date().toISOString(), labels: {}, quantities: { hours: 1 } }] })
      .expect(200);

    await patchUser(a.token, admin.user.id, { role: "admin" }).expect(200);
    expect((await me(admin.key.key).expect(200)).body.data.role).toBe("admin");
    await deliverAll();
    await request(pricing.url).delete(`/marketplace/providers/models?id=${entry.id}`).set("X-API-Key", admin.key.key).expect(200);
  });

  it("stops on both APIs when its creator leaves the organization, and acts again when they accept a new invitation", async () => {
    const admin = await adminWithKey();
    await request(ctx.app).post("/api/v1/me/leave").set(bearer(admin.token)).expect(200);
    expectError(await me(admin.key.key), 401);
    await deliverAll();
    expect((await pricingAccount(admin.key.key)).status).toBe(401);

    const invited = await request(ctx.app)
      .post(`/api/v1/organizations/${a.organization.id}/invitations`)
      .set(bearer(a.token))
      .send({ email: admin.user.email, role: "member", tenant_ids: [a.tenant.id] })
      .expect(201);
    await request(ctx.app).post(`/api/v1/invitations/${invited.body.data.id}/accept`).set(bearer(admin.token)).expect(200);
    expect((await me(admin.key.key).expect(200)).body.data.role).toBe("member");
    await deliverAll();
    await pricingAccount(admin.key.key).expect(200);
    expect((await registerModel(admin.key.key, "rejoined-member")).status).toBe(201);
  });

  it("a viewer key stays a viewer key when its creator is promoted", async () => {
    const admin = await adminWithKey();
    const viewerKey = await createKey(admin.token, { name: "ro", role: "viewer", tenant_ids: [a.tenant.id] });
    await patchUser(a.token, admin.user.id, { role: "owner" }).expect(200);
    expect((await me(viewerKey.key).expect(200)).body.data.role).toBe("viewer");
    await deliverAll();
    expect((await registerModel(viewerKey.key, "viewer-after-promotion")).status).toBe(403);
  });
});

describe("key management", () => {
  it("the key list names each key's creator", async () => {
    const admin = await adminWithKey();
    const res = await request(ctx.app).get("/api/v1/settings/api-keys?limit=100").set(bearer(a.token)).expect(200);
    const page = SuccessEnvelope(ApiKeysPage).parse(res.body).data;
    expect(page.items.find((k) => k.id === admin.key.id)).toMatchObject({ created_by: { user_id: admin.user.id, name: admin.user.name } });
  });

  it("an owner revokes another admin's key, on both APIs", async () => {
    const admin = await adminWithKey();
    await request(ctx.app).delete(`/api/v1/settings/api-keys/${admin.key.id}`).set(bearer(a.token)).expect(200);
    expectError(await me(admin.key.key), 401);
    await deliverAll();
    expect((await pricingAccount(admin.key.key)).status).toBe(401);
  });

  it("a replayed creation never returns the secret, and the idempotency store never holds it", async () => {
    const headers = { "Idempotency-Key": "create-key-once" };
    const created = await createKey(a.token, { name: "once", role: "viewer" }, headers);
    await request(ctx.app).delete(`/api/v1/settings/api-keys/${created.id}`).set(bearer(a.token)).expect(200);
    const replay = await request(ctx.app).post("/api/v1/settings/api-keys").set(bearer(a.token)).set(headers).send({ name: "once", role: "viewer" });
    expectError(replay, 409, /shown only once/);
    expect(replay.text).not.toContain(created.key);
    const stored = await ctx.db.sql.query<{ body: string | null }>(`SELECT body FROM idempotency_keys WHERE key = $1`, ["create-key-once"]);
    expect(stored).toHaveLength(1);
    expect(JSON.stringify(stored)).not.toContain(created.key.slice(3));
  });
});

describe("a key cannot promote anyone to admin or change a manager", () => {
  it("refuses promotions and changes to admins and owners, allows changes to members", async () => {
    const keyAdmin = await createKey(a.token, { name: "automation", role: "admin" });
    const member = await addUser(ctx, { orgId: a.organization.id, ownerToken: a.token, role: "member" });
    const admin = await addUser(ctx, { orgId: a.organization.id, ownerToken: a.token, role: "admin" });
    expectError(await patchUser(keyAdmin.key, member.user.id, { role: "admin" }), 403, /API key/);
    expectError(await patchUser(keyAdmin.key, member.user.id, { role: "owner" }), 403);
    expectError(await patchUser(keyAdmin.key, admin.user.id, { role: "member" }), 403, /API key/);
    expectError(await patchUser(keyAdmin.key, admin.user.id, { active: false }), 403);
    expectError(await patchUser(keyAdmin.key, admin.user.id, { name: "Renamed" }), 403);
    expectError(await patchUser(keyAdmin.key, a.owner.id, { name: "Renamed" }), 403);
    await patchUser(keyAdmin.key, member.user.id, { role: "viewer", name: "Still fine" }).expect(200);
    const user = await ctx.prisma.user.findUniqueOrThrow({ where: { organizationId_id: { organizationId: a.organization.id, id: admin.user.id } } });
    expect(user).toMatchObject({ role: "admin", active: true });
  });
});

describe("key sync", () => {
  it("is not confirmed by a pricing API that answers without storing the role (an older version): it is retried", async () => {
    const older = http.createServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ id: "key_1", account_id: "org_1", name: null, prefix: "bl_abc", created_at: new Date().toISOString(), revoked_at: null }));
    });
    await new Promise<void>((resolve) => older.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(older.address() as AddressInfo).port}`;
      const handler = pricingApiKeyHandlers(url, new TextEncoder().encode(TEST_SERVICE_TOKEN_SECRET))[PROVISION_TOPIC];
      const payload = { key_hash: "a".repeat(64), id: "key_1", prefix: "bl_abc", name: null, role: "viewer", suspended: false };
      await expect(handler(payload, "org_1")).rejects.toThrow(/did not store the key's role/);
    } finally {
      older.closeAllConnections();
      await new Promise((resolve) => older.close(resolve));
    }
  });
});
