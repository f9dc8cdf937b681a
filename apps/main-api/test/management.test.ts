import request from "supertest";
import { createTestContext, type TestContext } from "./helpers/context";
import { addUser, expectError, signUp, type SignedUp } from "./helpers/identity";

let ctx: TestContext;
let a: SignedUp;
let b: SignedUp;
beforeAll(async () => {
  ctx = await createTestContext();
  a = await signUp(ctx, { company: "Managed Co" });
  b = await signUp(ctx, { company: "Other Co" });
});
afterAll(async () => {
  await ctx.close();
});

const api = (method: "get" | "post" | "patch" | "delete", path: string, token: string) =>
  request(ctx.app)[method](`/api/v1${path}`).set("Authorization", `Bearer ${token}`);
const org = () => `/organizations/${a.organization.id}`;

describe("organization", () => {
  it("GET returns it to members; PATCH renames and re-slugs for managers", async () => {
    const res = await api("get", org(), a.token).expect(200);
    expect(res.body).toEqual({ message: expect.any(String), status: "success", data: a.organization });
    const patched = await api("patch", org(), a.token).send({ name: "Managed Co 2", slug: "managed-two" }).expect(200);
    expect(patched.body.data).toEqual({ id: a.organization.id, name: "Managed Co 2", slug: "managed-two" });
  });

  it("answers 409 for a taken slug, 400 for a bad one, 403 for another organization or a viewer", async () => {
    expectError(await api("patch", org(), a.token).send({ slug: b.organization.slug }), 409, /already taken/);
    expectError(await api("patch", org(), a.token).send({ slug: "NO" }), 400, /slug/);
    expectError(await api("get", `/organizations/${b.organization.id}`, a.token), 403, /not a member/);
    const viewer = await addUser(ctx, { orgId: a.organization.id, ownerToken: a.token, role: "viewer" });
    expectError(await api("patch", org(), viewer.token).send({ name: "Hijack" }), 403, /owners and admins/);
  });

  it("GET /api/v1/me describes the caller", async () => {
    const res = await api("get", "/me", a.token).expect(200);
    expect(res.body.data).toMatchObject({ organization: { id: a.organization.id }, user: { id: a.owner.id }, role: "owner", api_key_id: null });
  });
});

describe("settings", () => {
  it("start with the defaults and change only what is sent", async () => {
    const initial = await api("get", `${org()}/settings`, a.token).expect(200);
    expect(initial.body.data).toEqual({
      default_currency: "USD",
      rightsizing: {
        lookback_days: 14,
        cpu_target_percent: 70,
        memory_target_percent: 80,
        allow_architecture_change: false,
        savings_basis: "effective",
      },
      active_window_minutes: 15,
      anomaly_min_usd: 10,
      anomaly_min_percent: 30,
    });
    const res = await api("patch", `${org()}/settings`, a.token)
      .send({ rightsizing: { cpu_target_percent: 60 }, default_currency: "EUR", anomaly_min_usd: 25.5 })
      .expect(200);
    expect(res.body.data).toEqual({
      default_currency: "EUR",
      rightsizing: {
        lookback_days: 14,
        cpu_target_percent: 60,
        memory_target_percent: 80,
        allow_architecture_change: false,
        savings_basis: "effective",
      },
      active_window_minutes: 15,
      anomaly_min_usd: 25.5,
      anomaly_min_percent: 30,
    });
    const row = await ctx.prisma.organizationSettings.findUniqueOrThrow({ where: { organizationId: a.organization.id } });
    expect(row.rightsizingCpuTargetPercent).toBe(60);
  });

  it("reject invalid values (400) and viewers (403)", async () => {
    expectError(await api("patch", `${org()}/settings`, a.token).send({ rightsizing: { lookback_days: 0 } }), 400, /lookback_days/);
    expectError(await api("patch", `${org()}/settings`, a.token).send({ default_currency: "eur" }), 400, /default_currency/);
    const viewer = await addUser(ctx, { orgId: a.organization.id, ownerToken: a.token, role: "viewer" });
    await api("get", `${org()}/settings`, viewer.token).expect(200);
    expectError(await api("patch", `${org()}/settings`, viewer.token).send({ active_window_minutes: 5 }), 403);
  });
});

describe("tenants", () => {
  it("are created, renamed, archived and restored by managers", async () => {
    const created = await api("post", `${org()}/tenants`, a.token).send({ name: "Staging" }).expect(201);
    const id = created.body.data.id;
    expect(created.body.data).toEqual({ id: expect.stringMatching(/^ten_/), name: "Staging", organization_id: a.organization.id, archived_at: null });
    const renamed = await api("patch", `${org()}/tenants/${id}`, a.token).send({ name: "Stage" }).expect(200);
    expect(renamed.body.data.name).toBe("Stage");
    const archived = await api("patch", `${org()}/tenants/${id}`, a.token).send({ archived: true }).expect(200);
    expect(archived.body.data.archived_at).toMatch(/Z$/);
    const live = await api("get", `${org()}/tenants`, a.token).expect(200);
    expect(live.body.data.items.map((t: { id: string }) => t.id)).not.toContain(id);
    const all = await api("get", `${org()}/tenants?include_archived=true`, a.token).expect(200);
    expect(all.body.data.items.map((t: { id: string }) => t.id)).toContain(id);
    const restored = await api("patch", `${org()}/tenants/${id}`, a.token).send({ archived: false }).expect(200);
    expect(restored.body.data.archived_at).toBeNull();
  });

  it("are listed to members only within their tenant_ids, with pagination", async () => {
    const extra = [];
    for (const name of ["T1", "T2", "T3"]) extra.push((await api("post", `${org()}/tenants`, a.token).send({ name }).expect(201)).body.data.id);
    const member = await addUser(ctx, { orgId: a.organization.id, ownerToken: a.token, role: "member", tenantIds: [extra[0]] });
    const mine = await api("get", `${org()}/tenants`, member.token).expect(200);
    expect(mine.body.data).toEqual({ items: [expect.objectContaining({ id: extra[0] })], next_cursor: null });
    await api("get", `${org()}/tenants/${extra[0]}`, member.token).expect(200);
    expectError(await api("get", `${org()}/tenants/${extra[1]}`, member.token), 403, /not available/);
    expectError(await api("post", `${org()}/tenants`, member.token).send({ name: "Nope" }), 403);

    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: request.Response = await api("get", `${org()}/tenants?limit=2${cursor ? `&cursor=${cursor}` : ""}`, a.token).expect(200);
      expect(page.body.data.items.length).toBeLessThanOrEqual(2);
      seen.push(...page.body.data.items.map((t: { id: string }) => t.id));
      cursor = page.body.data.next_cursor;
    } while (cursor);
    expect(seen).toEqual([...seen].sort());
    expect(seen).toEqual(expect.arrayContaining([a.tenant.id, ...extra]));
    expect(new Set(seen).size).toBe(seen.length);
    expectError(await api("get", `${org()}/tenants?cursor=bogus`, a.token), 400, /cursor/);
    expectError(await api("get", `${org()}/tenants?limit=0`, a.token), 400, /limit/);
  });

  it("answer 403 for another organization's tenant and 400 for a malformed id", async () => {
    expectError(await api("patch", `${org()}/tenants/${b.tenant.id}`, a.token).send({ name: "X" }), 403);
    expectError(await api("patch", `${org()}/tenants/bad$id`, a.token).send({ name: "X" }), 400, /tenant_id/);
    expectError(await api("post", `${org()}/tenants`, a.token).send({ name: "" }), 400, /name/);
  });
});

describe("users", () => {
  it("are listed with pagination", async () => {
    const first = await api("get", `${org()}/users?limit=1`, a.token).expect(200);
    expect(first.body.data.items).toHaveLength(1);
    expect(first.body.data.next_cursor).toEqual(expect.any(String));
    const second = await api("get", `${org()}/users?limit=1&cursor=${first.body.data.next_cursor}`, a.token).expect(200);
    expect(second.body.data.items[0].id > first.body.data.items[0].id).toBe(true);
  });

  it("are invited with a role and tenants; a second pending invitation and unknown tenants are refused", async () => {
    const email = `dup-${Date.now()}@example.com`;
    await api("post", `${org()}/users`, a.token)
      .send({ email, role: "member", tenant_ids: [a.tenant.id] })
      .expect(201);
    expectError(await api("post", `${org()}/users`, a.token).send({ email: email.toUpperCase(), role: "viewer" }), 409, /pending invitation/);
    expectError(await api("post", `${org()}/users`, a.token).send({ email: "x@example.com", role: "member", tenant_ids: [b.tenant.id] }), 400, /not a tenant/);
    expectError(await api("post", `${org()}/users`, a.token).send({ email: "not-an-email", role: "member" }), 400, /email/);
    expectError(await api("post", `${org()}/users`, a.token).send({ email: "y@example.com", role: "god" }), 400, /role/);
  });

  it("change role, tenants and active state; admins cannot touch owners; viewers change nothing", async () => {
    const admin = await addUser(ctx, { orgId: a.organization.id, ownerToken: a.token, role: "admin" });
    const member = await addUser(ctx, { orgId: a.organization.id, ownerToken: a.token, role: "member" });
    const path = `${org()}/users/${member.user.id}`;
    const res = await api("patch", path, admin.token)
      .send({ role: "viewer", tenant_ids: [a.tenant.id], job_title: "SRE" })
      .expect(200);
    expect(res.body.data).toMatchObject({ role: "viewer", tenant_ids: [a.tenant.id], job_title: "SRE" });
    // The viewer can read but not change anything, not even its own role.
    expectError(await api("patch", path, member.token).send({ role: "admin" }), 403);
    expectError(await api("patch", path, member.token).send({ name: "New name" }), 403);
    await api("get", path, member.token).expect(200);

    expectError(await api("patch", `${org()}/users/${a.owner.id}`, admin.token).send({ active: false }), 403, /Only owners/);
    expectError(await api("patch", path, admin.token).send({ role: "owner" }), 403, /Only owners/);
    expectError(await api("post", `${org()}/users`, admin.token).send({ email: "o@example.com", role: "owner" }), 403, /Only owners/);

    const off = await api("patch", path, admin.token).send({ active: false }).expect(200);
    expect(off.body.data.active).toBe(false);
    expectError(await api("get", path, member.token), 403, /deactivated/);
    await api("patch", path, admin.token).send({ active: true }).expect(200);
    await api("get", path, member.token).expect(200);
    expectError(await api("patch", `${org()}/users/usr_NOPE`, admin.token).send({ active: true }), 404);
  });

  it("members may edit their own name and job title only", async () => {
    const member = await addUser(ctx, { orgId: a.organization.id, ownerToken: a.token, role: "member" });
    const res = await api("patch", `${org()}/users/${member.user.id}`, member.token).send({ name: "Grace", job_title: null }).expect(200);
    expect(res.body.data).toMatchObject({ name: "Grace", job_title: null });
    expectError(await api("patch", `${org()}/users/${member.user.id}`, member.token).send({ tenant_ids: [a.tenant.id] }), 403);
  });

  it("never lose the last active owner (409), even under concurrent demotions", async () => {
    const solo = await signUp(ctx, { company: "Solo" });
    const ownerPath = `/organizations/${solo.organization.id}/users/${solo.owner.id}`;
    expectError(await api("patch", ownerPath, solo.token).send({ role: "admin" }), 409, /last active owner/);
    expectError(await api("patch", ownerPath, solo.token).send({ active: false }), 409, /last active owner/);

    const second = await addUser(ctx, { orgId: solo.organization.id, ownerToken: solo.token, role: "owner" });
    const secondPath = `/organizations/${solo.organization.id}/users/${second.user.id}`;
    const results = await Promise.all([
      api("patch", ownerPath, solo.token).send({ role: "admin" }),
      api("patch", secondPath, second.token).send({ active: false }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(await ctx.prisma.user.count({ where: { organizationId: solo.organization.id, role: "owner", active: true } })).toBe(1);
  });
});
