// Invitations are pending objects the invitee accepts or declines (issue 22 finding 1; docs/api.md, Invitations and membership):
// nothing links an identity implicitly, an identity belongs to one organization at a time and can leave.
import request from "supertest";
import { createTestContext, type TestContext } from "./helpers/context";
import { addUser, expectError, mintToken, signUp, uniqueEmail, type SignedUp } from "./helpers/identity";

let ctx: TestContext;
let a: SignedUp;
let b: SignedUp;
beforeAll(async () => {
  ctx = await createTestContext();
  a = await signUp(ctx, { company: "Alpha Inc" });
  b = await signUp(ctx, { company: "Bravo Ltd" });
});
afterAll(async () => {
  await ctx.close();
});

type Method = "get" | "post" | "delete";
const api = (method: Method, path: string, token: string) => request(ctx.app)[method](`/api/v1${path}`).set("Authorization", `Bearer ${token}`);
const invite = (org: SignedUp, token: string, body: Record<string, unknown>) =>
  api("post", `/organizations/${org.organization.id}/invitations`, token).send(body);
const mine = (token: string) => api("get", "/invitations", token);
const accept = (id: string, token: string) => api("post", `/invitations/${id}/accept`, token);
const decline = (id: string, token: string) => api("post", `/invitations/${id}/decline`, token);
const leave = (token: string) => api("post", "/me/leave", token);
const me = (token: string) => api("get", "/me", token);
const adminKey = async (org: SignedUp, role = "admin") =>
  (
    await api("post", "/settings/api-keys", org.token)
      .send({ name: `key ${role}`, role, tenant_ids: role === "admin" ? undefined : [org.tenant.id] })
      .expect(201)
  ).body.data as {
    id: string;
    key: string;
  };

describe("the invitation hijack (issue 22 finding 1)", () => {
  it("an attacker's invitation does not capture the victim: the victim's requests stay outside, sign-up works", async () => {
    const attacker = await signUp(ctx, { company: "Evil Corp" });
    const victim = uniqueEmail("ceo");
    await api("post", `/organizations/${attacker.organization.id}/users`, attacker.token).send({ email: victim, role: "viewer" }).expect(201);
    const victimToken = await mintToken(ctx, { email: victim });

    expectError(await me(victimToken), 403, /does not belong to any organization/);
    expect(await ctx.prisma.identity.count({ where: { organizationId: attacker.organization.id } })).toBe(1);

    const signup = await api("post", "/signup/complete", victimToken).send({ company_name: "Victim Co", first_name: "V", last_name: "C" });
    expect(signup.status).toBe(201);
    const mineNow = await me(victimToken).expect(200);
    expect(mineNow.body.data.organization.id).toBe(signup.body.data.organization.id);
  });

  it("a legitimate invitation sent after the attacker's can be accepted; the attacker's then answers 409", async () => {
    const attacker = await signUp(ctx, { company: "Evil Corp" });
    const victim = uniqueEmail("cfo");
    const evil = (await api("post", `/organizations/${attacker.organization.id}/users`, attacker.token).send({ email: victim, role: "owner" }).expect(201)).body
      .data;
    const victimToken = await mintToken(ctx, { email: victim });
    expectError(await me(victimToken), 403);
    const legit = (await invite(a, a.token, { email: victim, role: "member", tenant_ids: [a.tenant.id], name: "Chief F" }).expect(201)).body.data;

    const listed = await mine(victimToken).expect(200);
    expect(listed.body.data.items.map((i: { organization_name: string }) => i.organization_name).sort()).toEqual(["Alpha Inc", "Evil Corp"]);
    expect(listed.body.data.items.find((i: { id: string }) => i.id === legit.id)).toEqual({
      id: legit.id,
      organization_id: a.organization.id,
      organization_name: "Alpha Inc",
      role: "member",
      tenant_ids: [a.tenant.id],
      invited_by: { user_id: a.owner.id, name: a.owner.name },
      expires_at: legit.expires_at,
      created_at: legit.created_at,
    });

    const accepted = await accept(legit.id, victimToken).expect(200);
    expect(accepted.body.data).toMatchObject({
      organization_id: a.organization.id,
      email: victim,
      role: "member",
      active: true,
      name: "Chief F",
      tenant_ids: [a.tenant.id],
    });
    expect((await me(victimToken).expect(200)).body.data.organization.id).toBe(a.organization.id);
    expectError(await accept(evil.id, victimToken), 409, /already belongs to an organization/);
  });
});

describe("inviting (organization side)", () => {
  it("creates a pending invitation that expires in 7 days and links nothing; POST .../users does the same", async () => {
    const email = uniqueEmail("Mixed.Case");
    const res = await invite(a, a.token, { email: email.toUpperCase(), role: "member", tenant_ids: [a.tenant.id], job_title: "SRE" }).expect(201);
    const inv = res.body.data;
    expect(inv).toMatchObject({
      organization_id: a.organization.id,
      email: email.toLowerCase(),
      role: "member",
      tenant_ids: [a.tenant.id],
      name: null,
      job_title: "SRE",
      invited_by: { user_id: a.owner.id, name: a.owner.name },
      invited_by_api_key_id: null,
      status: "pending",
      accepted_at: null,
      declined_at: null,
      revoked_at: null,
    });
    expect(Date.parse(inv.expires_at) - Date.parse(inv.created_at)).toBe(7 * 86400_000);
    expect(await ctx.prisma.user.count({ where: { organizationId: a.organization.id, email: email.toLowerCase() } })).toBe(0);

    const viaUsers = await api("post", `/organizations/${a.organization.id}/users`, a.token).send({ email: uniqueEmail(), role: "viewer" }).expect(201);
    expect(viaUsers.body.data).toMatchObject({ status: "pending", role: "viewer", invited_by: { user_id: a.owner.id } });
    expect(viaUsers.body.message).toMatch(/invit/i);
  });

  it("refuses a second pending invitation for one e-mail (409), also concurrently, and an active member (409)", async () => {
    const email = uniqueEmail("dup");
    await invite(a, a.token, { email, role: "viewer" }).expect(201);
    expectError(await invite(a, a.token, { email: email.toUpperCase(), role: "member" }), 409, /pending invitation/);
    // Another organization may invite the same address.
    await invite(b, b.token, { email, role: "viewer" }).expect(201);

    const racer = uniqueEmail("racer");
    const results = await Promise.all(Array.from({ length: 5 }, () => invite(a, a.token, { email: racer, role: "viewer" })));
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409]);

    expectError(await invite(a, a.token, { email: a.email, role: "viewer" }), 409, /already an active member/);
  });

  it("lets only owners invite owners, and API keys invite neither admins nor owners (403)", async () => {
    const admin = await addUser(ctx, { orgId: a.organization.id, ownerToken: a.token, role: "admin" });
    expectError(await invite(a, admin.token, { email: uniqueEmail(), role: "owner" }), 403, /Only owners/);
    await invite(a, admin.token, { email: uniqueEmail(), role: "admin" }).expect(201);

    const key = await adminKey(a);
    for (const role of ["admin", "owner"]) {
      expectError(await invite(a, key.key, { email: uniqueEmail(), role }), 403, /API key/);
      expectError(await api("post", `/organizations/${a.organization.id}/users`, key.key).send({ email: uniqueEmail(), role }), 403, /API key/);
    }
    const byKey = await invite(a, key.key, { email: uniqueEmail(), role: "member", tenant_ids: [a.tenant.id] }).expect(201);
    // Sent in the name of the key's creator, with the key.
    expect(byKey.body.data).toMatchObject({ invited_by: { user_id: a.owner.id, name: a.owner.name }, invited_by_api_key_id: key.id });
    const member = await addUser(ctx, { orgId: a.organization.id, ownerToken: a.token, role: "member" });
    expectError(await invite(a, member.token, { email: uniqueEmail(), role: "viewer" }), 403, /owners and admins/);
  });

  it("lists the organization's invitations with pagination, and revokes (204, then 409; 404 for an unknown or foreign id)", async () => {
    const org = await signUp(ctx, { company: "Lister" });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await invite(org, org.token, { email: uniqueEmail("l"), role: "viewer" }).expect(201)).body.data.id);
    const first = await api("get", `/organizations/${org.organization.id}/invitations?limit=2`, org.token).expect(200);
    expect(first.body.data.items.map((i: { id: string }) => i.id)).toEqual(ids.slice(0, 2));
    const second = await api("get", `/organizations/${org.organization.id}/invitations?limit=2&cursor=${first.body.data.next_cursor}`, org.token).expect(200);
    expect(second.body.data).toEqual({ items: [expect.objectContaining({ id: ids[2] })], next_cursor: null });

    await api("delete", `/organizations/${org.organization.id}/invitations/${ids[0]}`, org.token).expect(204);
    expectError(await api("delete", `/organizations/${org.organization.id}/invitations/${ids[0]}`, org.token), 409, /revoked/);
    expectError(await api("delete", `/organizations/${org.organization.id}/invitations/inv_NOPE`, org.token), 404);
    expectError(await api("delete", `/organizations/${a.organization.id}/invitations/${ids[1]}`, a.token), 404);
    const listed = await api("get", `/organizations/${org.organization.id}/invitations`, org.token).expect(200);
    expect(listed.body.data.items[0]).toMatchObject({ id: ids[0], status: "revoked", revoked_at: expect.any(String) });
  });
});

describe("answering an invitation (invitee side)", () => {
  it("accept creates the user with the invited role and tenants in one step; the invitation is then accepted", async () => {
    const email = uniqueEmail("joiner");
    const inv = (await invite(a, a.token, { email, role: "viewer", tenant_ids: [a.tenant.id], name: "Joan" }).expect(201)).body.data;
    const token = await mintToken(ctx, { email });
    const res = await accept(inv.id, token).expect(200);
    expect(res.body.status).toBe("success");
    expect(res.body.data).toMatchObject({ organization_id: a.organization.id, name: "Joan", role: "viewer", tenant_ids: [a.tenant.id], active: true });
    const link = await ctx.prisma.identity.findFirstOrThrow({ where: { organizationId: a.organization.id, userId: res.body.data.id } });
    expect(link.subject).toBeTruthy();
    await api("get", `/organizations/${a.organization.id}/users/${res.body.data.id}`, token).expect(200);
    expect((await mine(token).expect(200)).body.data.items).toEqual([]);
    expectError(await accept(inv.id, token), 404);
    const listed = await api("get", `/organizations/${a.organization.id}/invitations?limit=500`, a.token).expect(200);
    expect(listed.body.data.items.find((i: { id: string }) => i.id === inv.id)).toMatchObject({ status: "accepted", accepted_at: expect.any(String) });
  });

  it("decline (204) ends the invitation; revoked, expired, answered and other people's invitations answer 404", async () => {
    const email = uniqueEmail("decliner");
    const token = await mintToken(ctx, { email });
    const declined = (await invite(a, a.token, { email, role: "viewer" }).expect(201)).body.data;
    await decline(declined.id, token).expect(204);
    expectError(await accept(declined.id, token), 404);
    expectError(await decline(declined.id, token), 404);

    const revoked = (await invite(a, a.token, { email, role: "viewer" }).expect(201)).body.data;
    await api("delete", `/organizations/${a.organization.id}/invitations/${revoked.id}`, a.token).expect(204);
    expect((await mine(token).expect(200)).body.data.items).toEqual([]);
    expectError(await accept(revoked.id, token), 404);

    const expired = (await invite(a, a.token, { email, role: "viewer" }).expect(201)).body.data;
    const someoneElse = await mintToken(ctx, { email: uniqueEmail("other") });
    expectError(await accept(expired.id, someoneElse), 404);
    expectError(await decline(expired.id, someoneElse), 404);
    await ctx.prisma.invitation.update({
      where: { organizationId_id: { organizationId: a.organization.id, id: expired.id } },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    expect((await mine(token).expect(200)).body.data.items).toEqual([]);
    expectError(await accept(expired.id, token), 404);
    const listed = await api("get", `/organizations/${a.organization.id}/invitations?limit=500`, a.token).expect(200);
    expect(listed.body.data.items.find((i: { id: string }) => i.id === expired.id)).toMatchObject({ status: "expired" });
    // An expired invitation does not block a new one for the same address, which can be accepted.
    const again = (await invite(a, a.token, { email, role: "member" }).expect(201)).body.data;
    await accept(again.id, token).expect(200);
  });

  it("needs a verified e-mail (403) and a token: API keys cannot list or answer invitations (403)", async () => {
    const email = uniqueEmail("unverified");
    const inv = (await invite(a, a.token, { email, role: "viewer" }).expect(201)).body.data;
    const unverified = await mintToken(ctx, { email, verified: false });
    expectError(await mine(unverified), 403, /not verified/);
    expectError(await accept(inv.id, unverified), 403, /not verified/);
    expectError(await decline(inv.id, unverified), 403, /not verified/);
    const key = await adminKey(a, "member");
    expectError(await mine(key.key), 403, /API key/);
    expectError(await accept(inv.id, key.key), 403, /API key/);
    expectError(await leave(key.key), 403, /API key/);
    expectError(await api("get", "/invitations", "garbage"), 401);
  });

  it("accepting while an active member of another organization is a 409; concurrent accepts link one", async () => {
    const email = uniqueEmail("busy");
    const token = await mintToken(ctx, { email });
    const fromA = (await invite(a, a.token, { email, role: "viewer" }).expect(201)).body.data;
    const fromB = (await invite(b, b.token, { email, role: "viewer" }).expect(201)).body.data;
    const results = await Promise.all([accept(fromA.id, token), accept(fromB.id, token)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(await ctx.prisma.identity.count({ where: { subject: (await ctx.prisma.identity.findFirstOrThrow({ where: { user: { email } } })).subject } })).toBe(
      1,
    );
    const loser = results.find((r) => r.status === 409)!;
    expect(loser.body.message).toMatch(/already belongs to an organization/);
  });

  it("sign-up ignores pending invitations", async () => {
    const email = uniqueEmail("founder");
    const inv = (await invite(a, a.token, { email, role: "admin" }).expect(201)).body.data;
    const token = await mintToken(ctx, { email });
    await api("post", "/signup/complete", token).send({ company_name: "Own Co", first_name: "F", last_name: "O" }).expect(201);
    expect((await me(token).expect(200)).body.data.organization.name).toBe("Own Co");
    expect((await mine(token).expect(200)).body.data.items.map((i: { id: string }) => i.id)).toEqual([inv.id]);
    expectError(await accept(inv.id, token), 409);
  });
});

describe("leaving an organization", () => {
  it("deactivates the user and unlinks the identity, which may then accept elsewhere; the last owner cannot leave (409)", async () => {
    const solo = await signUp(ctx, { company: "Solo" });
    expectError(await leave(solo.token), 409, /last active owner/);

    const member = await addUser(ctx, { orgId: solo.organization.id, ownerToken: solo.token, role: "member" });
    const res = await leave(member.token).expect(200);
    expect(res.body.data).toEqual({ organization_id: solo.organization.id, user_id: member.user.id });
    expectError(await me(member.token), 403, /does not belong to any organization/);
    const row = await ctx.prisma.user.findUniqueOrThrow({
      where: { organizationId_id: { organizationId: solo.organization.id, id: member.user.id } },
      include: { identity: true },
    });
    expect(row).toMatchObject({ active: false, identity: null });

    const elsewhere = (await invite(b, b.token, { email: member.user.email, role: "viewer" }).expect(201)).body.data;
    await accept(elsewhere.id, member.token).expect(200);
    expect((await me(member.token).expect(200)).body.data.organization.id).toBe(b.organization.id);
  });

  it("can be re-invited after leaving: accepting reactivates the same user row", async () => {
    const org = await signUp(ctx, { company: "Return" });
    const member = await addUser(ctx, { orgId: org.organization.id, ownerToken: org.token, role: "member", tenantIds: [org.tenant.id] });
    await leave(member.token).expect(200);
    const back = (await invite(org, org.token, { email: member.user.email, role: "viewer" }).expect(201)).body.data;
    const res = await accept(back.id, member.token).expect(200);
    expect(res.body.data).toMatchObject({ id: member.user.id, role: "viewer", active: true, tenant_ids: [] });
  });

  it("an owner may leave when another active owner remains; two owners leaving at once keep one", async () => {
    const org = await signUp(ctx, { company: "Duo" });
    const second = await addUser(ctx, { orgId: org.organization.id, ownerToken: org.token, role: "owner" });
    const results = await Promise.all([leave(org.token), leave(second.token)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(await ctx.prisma.user.count({ where: { organizationId: org.organization.id, role: "owner", active: true } })).toBe(1);
  });

  it("a user deactivated by its organization can still accept an invitation elsewhere", async () => {
    const org = await signUp(ctx, { company: "Strict" });
    const member = await addUser(ctx, { orgId: org.organization.id, ownerToken: org.token, role: "member" });
    await request(ctx.app)
      .patch(`/api/v1/organizations/${org.organization.id}/users/${member.user.id}`)
      .set("Authorization", `Bearer ${org.token}`)
      .send({ active: false })
      .expect(200);
    expectError(await me(member.token), 403, /deactivated/);
    const elsewhere = (await invite(b, b.token, { email: member.user.email, role: "viewer" }).expect(201)).body.data;
    await accept(elsewhere.id, member.token).expect(200);
    expect((await me(member.token).expect(200)).body.data.organization.id).toBe(b.organization.id);
  });
});

describe("sign-up after deactivation", () => {
  it("an identity whose user was deactivated may sign up anew (it belongs to no organization any more)", async () => {
    const org = await signUp(ctx, { company: "Offboarding" });
    const member = await addUser(ctx, { orgId: org.organization.id, ownerToken: org.token, role: "member" });
    await request(ctx.app)
      .patch(`/api/v1/organizations/${org.organization.id}/users/${member.user.id}`)
      .set("Authorization", `Bearer ${org.token}`)
      .send({ active: false })
      .expect(200);
    const res = await api("post", "/signup/complete", member.token).send({ company_name: "Fresh Start", first_name: "F", last_name: "S" }).expect(201);
    expect((await me(member.token).expect(200)).body.data.organization.id).toBe(res.body.data.organization.id);
    expectError(await api("post", "/signup/complete", member.token).send({ company_name: "Again", first_name: "F", last_name: "S" }), 409, /already belongs/);
  });
});
