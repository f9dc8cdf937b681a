import request from "supertest";
import { vm } from "./helpers/compute-fleet";
import { createTestContext, type TestContext } from "./helpers/context";
import { addUser, expectError, mintToken, signUp, uniqueEmail, type SignedUp } from "./helpers/identity";

let ctx: TestContext;
let owner: SignedUp;
beforeAll(async () => {
  ctx = await createTestContext();
  owner = await signUp(ctx);
});
afterAll(async () => {
  await ctx.close();
});

const createTenant = (caller: Pick<SignedUp, "token" | "organization">, key: string | undefined, body: object) => {
  const req = request(ctx.app).post(`/api/v1/organizations/${caller.organization.id}/tenants`).set("Authorization", `Bearer ${caller.token}`);
  if (key !== undefined) req.set("Idempotency-Key", key);
  return req.send(body);
};
const tenantsNamed = (orgId: string, name: string) => ctx.prisma.tenant.count({ where: { organizationId: orgId, name } });
const keyRows = (key: string) => ctx.prisma.idempotencyKey.count({ where: { key } });

describe("Idempotency-Key on the main API", () => {
  it("replays the first response for a repeat with the same key and body, without running it again", async () => {
    const first = await createTenant(owner, "create-staging", { name: "Staging" }).expect(201);
    expect(first.headers["idempotent-replayed"]).toBeUndefined();
    const again = await createTenant(owner, "create-staging", { name: "Staging" }).expect(201);
    expect(again.headers["idempotent-replayed"]).toBe("true");
    expect(again.headers["content-type"]).toMatch(/^application\/json/);
    expect(again.body).toEqual(first.body);
    expect(await tenantsNamed(owner.organization.id, "Staging")).toBe(1);
    expect(await keyRows("create-staging")).toBe(1);
    // Without a key nothing is deduplicated.
    await createTenant(owner, undefined, { name: "Staging" }).expect(201);
    expect(await tenantsNamed(owner.organization.id, "Staging")).toBe(2);
  });

  it("answers 422 in the envelope for the same key with a different body", async () => {
    await createTenant(owner, "reused", { name: "One" }).expect(201);
    expectError(await createTenant(owner, "reused", { name: "Two" }), 422, /Idempotency-Key/);
    expect(await tenantsNamed(owner.organization.id, "Two")).toBe(0);
  });

  it("keeps keys per caller: another organization and another user of the same one are independent", async () => {
    const other = await signUp(ctx);
    await createTenant(owner, "shared-key", { name: "Shared" }).expect(201);
    const fromOther = await createTenant(other, "shared-key", { name: "Shared" }).expect(201);
    expect(fromOther.headers["idempotent-replayed"]).toBeUndefined();
    const admin = await addUser(ctx, { orgId: owner.organization.id, ownerToken: owner.token, role: "admin" });
    const fromAdmin = await createTenant({ token: admin.token, organization: owner.organization }, "shared-key", { name: "Shared" }).expect(201);
    expect(fromAdmin.headers["idempotent-replayed"]).toBeUndefined();
    expect(await tenantsNamed(owner.organization.id, "Shared")).toBe(2);
  });

  it("does not store a request that failed validation: a fixed retry under the same key runs", async () => {
    expectError(await createTenant(owner, "fix-me", { name: "" }), 400);
    expect(await keyRows("fix-me")).toBe(0);
    const fixed = await createTenant(owner, "fix-me", { name: "Fixed" }).expect(201);
    expect(fixed.headers["idempotent-replayed"]).toBeUndefined();
  });

  it("rejects a key over 255 characters (or not printable ASCII) with a 400 before running", async () => {
    expectError(await createTenant(owner, "k".repeat(256), { name: "Long" }), 400, /Idempotency-Key/);
    expectError(await createTenant(owner, "", { name: "Long" }), 400, /Idempotency-Key/);
    expect(await tenantsNamed(owner.organization.id, "Long")).toBe(0);
    await createTenant(owner, "k".repeat(255), { name: "Long" }).expect(201);
  });

  it("runs concurrent identical requests with one key exactly once", async () => {
    const results = await Promise.all([1, 2, 3].map(() => createTenant(owner, "race", { name: "Race" })));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 201).length).toBeGreaterThanOrEqual(1);
    expect(statuses.every((s) => s === 201 || s === 409)).toBe(true);
    const executed = results.filter((r) => r.status === 201 && r.headers["idempotent-replayed"] === undefined);
    expect(executed).toHaveLength(1);
    for (const r of results.filter((r) => r.status === 409)) expectError(r, 409, /still being processed/);
    expect(await tenantsNamed(owner.organization.id, "Race")).toBe(1);
  });

  it("does not replay an entry older than 24 hours", async () => {
    await createTenant(owner, "old", { name: "Old" }).expect(201);
    await ctx.db.sql.query(`UPDATE idempotency_keys SET created_at = now() - interval '25 hours' WHERE key = 'old'`);
    const later = await createTenant(owner, "old", { name: "Old" }).expect(201);
    expect(later.headers["idempotent-replayed"]).toBeUndefined();
    expect(await tenantsNamed(owner.organization.id, "Old")).toBe(2);
    expect(await keyRows("old")).toBe(1);
  });

  it("answers 409 for a claim still running, and takes over one abandoned longer than the lock timeout", async () => {
    // A first attempt that died with its process: the claim row without a response.
    const first = await createTenant(owner, "abandoned", { name: "Abandoned" }).expect(201);
    await ctx.db.sql.query(`UPDATE idempotency_keys SET status = NULL, body = NULL, content_type = NULL WHERE key = 'abandoned'`);
    expectError(await createTenant(owner, "abandoned", { name: "Abandoned" }), 409, /still being processed/);
    await ctx.db.sql.query(`UPDATE idempotency_keys SET created_at = now() - interval '11 minutes' WHERE key = 'abandoned'`);
    const retried = await createTenant(owner, "abandoned", { name: "Abandoned" }).expect(201);
    expect(retried.body.data.id).not.toBe(first.body.data.id);
    const replayed = await createTenant(owner, "abandoned", { name: "Abandoned" }).expect(201);
    expect([replayed.headers["idempotent-replayed"], replayed.body]).toEqual(["true", retried.body]);
  });

  it("replays a stored error with the same X-Error-Code header", async () => {
    // A 404 the operation itself answers (the binder's checks passed): stored and replayed.
    const ping = () =>
      request(ctx.app)
        .post(`/api/v1/organizations/${owner.organization.id}/webhooks/whk_missing0000000000000000/test`)
        .set("Authorization", `Bearer ${owner.token}`)
        .set("Idempotency-Key", "error-code-1")
        .send({});
    const first = await ping().expect(404);
    expect(first.headers["x-error-code"]).toBe("not_found");
    const again = await ping().expect(404);
    expect([again.headers["idempotent-replayed"], again.headers["x-error-code"], again.body]).toEqual(["true", "not_found", first.body]);
  });

  it("does not store a refusal decided before the operation runs (another organization's path: 403 each time, never replayed)", async () => {
    const other = await signUp(ctx);
    const invite = () =>
      request(ctx.app)
        .post(`/api/v1/organizations/${other.organization.id}/invitations`)
        .set("Authorization", `Bearer ${owner.token}`)
        .set("Idempotency-Key", "error-code-2")
        .send({ email: uniqueEmail("invitee"), role: "member" });
    const first = await invite().expect(403);
    expect(first.headers["x-error-code"]).toBe("forbidden");
    const again = await invite().expect(403);
    expect([again.headers["idempotent-replayed"], again.headers["x-error-code"]]).toEqual([undefined, "forbidden"]);
  });

  it("replays a completed sign-up for the same identity and key (a 201, not a 409)", async () => {
    const token = await mintToken(ctx, { email: uniqueEmail("founder") });
    const body = { company_name: "Replay Corp", first_name: "Grace", last_name: "Hopper" };
    const signup = () => request(ctx.app).post("/api/v1/signup/complete").set("Authorization", `Bearer ${token}`).set("Idempotency-Key", "signup-1").send(body);
    const first = await signup().expect(201);
    const again = await signup().expect(201);
    expect(again.headers["idempotent-replayed"]).toBe("true");
    expect(again.body).toEqual(first.body);
    expect(await ctx.prisma.organization.count({ where: { name: "Replay Corp" } })).toBe(1);
    // A new key is a new attempt, which the identity's existing organization answers with a 409.
    expectError(
      await request(ctx.app).post("/api/v1/signup/complete").set("Authorization", `Bearer ${token}`).set("Idempotency-Key", "signup-2").send(body),
      409,
    );
  });

  it("covers usage ingest: the tenant header is part of the request", async () => {
    const api = (path: string, tenantId: string, key?: string) => {
      const req = request(ctx.app).post(path).set("Authorization", `Bearer ${owner.token}`).set("X-Service-Tenant-ID", tenantId);
      if (key) req.set("Idempotency-Key", key);
      return req;
    };
    await request(ctx.app)
      .put("/api/v1/tenant/compute/resources")
      .set("Authorization", `Bearer ${owner.token}`)
      .set("X-Service-Tenant-ID", owner.tenant.id)
      .send({ resources: [vm("idem-vm", "m5.large")] })
      .expect(200);
    const samples = { samples: [{ resource_id: "idem-vm", timestamp: new Date().toISOString(), cpu_utilization: 12.5 }] };
    const first = await api("/api/v1/tenant/compute/metrics", owner.tenant.id, "ingest-1").send(samples).expect(200);
    const again = await api("/api/v1/tenant/compute/metrics", owner.tenant.id, "ingest-1").send(samples).expect(200);
    expect([again.headers["idempotent-replayed"], again.body]).toEqual(["true", first.body]);
    const otherTenant = (await createTenant(owner, undefined, { name: "Ingest other" }).expect(201)).body.data.id;
    expectError(await api("/api/v1/tenant/compute/metrics", otherTenant, "ingest-1").send(samples), 422);
    // A rejected ingest (unknown resource, 400) frees the key.
    const ghost = { resource_ids: ["ghost"] };
    expectError(await api("/api/v1/tenant/compute/heartbeats", owner.tenant.id, "hb-1").send(ghost), 400);
    await api("/api/v1/tenant/compute/heartbeats", owner.tenant.id, "hb-1")
      .send({ resource_ids: ["idem-vm"] })
      .expect(200);
  });
});
