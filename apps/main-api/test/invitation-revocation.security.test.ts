// Issue 33 finding 3: a user's pending invitations are revoked when the user is deactivated, leaves,
// or is demoted to a role that could not have sent them (owners invite any role, admins every role
// but owner, members and viewers none); the invitee's acceptance then fails like any revoked one.
import type { Role } from "@cloudcost/contracts";
import request from "supertest";
import { createTestContext, type TestContext } from "./helpers/context";
import { addUser, expectError, mintToken, signUp, uniqueEmail, type SignedUp } from "./helpers/identity";

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => {
  await ctx.close();
});

type Method = "get" | "post" | "patch" | "delete";
const api = (method: Method, path: string, token: string) => request(ctx.app)[method](`/api/v1${path}`).set("Authorization", `Bearer ${token}`);

/** `inviterToken` invites a fresh address as `role`; returns the invitation id and the invitee's token. */
async function invite(org: SignedUp, inviterToken: string, role: Role) {
  const email = uniqueEmail(`invitee-${role}`);
  const res = await api("post", `/organizations/${org.organization.id}/invitations`, inviterToken).send({ email, role }).expect(201);
  return { id: res.body.data.id as string, token: await mintToken(ctx, { email }) };
}

async function invitation(org: SignedUp, id: string) {
  const res = await api("get", `/organizations/${org.organization.id}/invitations?limit=100`, org.token).expect(200);
  return res.body.data.items.find((i: { id: string }) => i.id === id);
}

async function expectRevoked(org: SignedUp, invited: { id: string; token: string }) {
  expect(await invitation(org, invited.id)).toMatchObject({ status: "revoked", revoked_at: expect.any(String) });
  expect((await api("get", "/invitations", invited.token).expect(200)).body.data.items).toEqual([]);
  expectError(await api("post", `/invitations/${invited.id}/accept`, invited.token), 404, /no pending invitation/);
}

async function expectStillPending(org: SignedUp, invited: { id: string; token: string }) {
  expect(await invitation(org, invited.id)).toMatchObject({ status: "pending", revoked_at: null });
}

const patchUser = (org: SignedUp, userId: string, body: Record<string, unknown>) =>
  api("patch", `/organizations/${org.organization.id}/users/${userId}`, org.token).send(body).expect(200);

describe("pending invitations do not outlive their inviter's right to send them", () => {
  it("an admin deactivated by the owner: the admin invitation it sent is revoked and cannot be accepted; the owner's stays", async () => {
    const org = await signUp(ctx, { company: "Deactivation Co" });
    const admin = await addUser(ctx, { orgId: org.organization.id, ownerToken: org.token, role: "admin" });
    const accomplice = await invite(org, admin.token, "admin");
    const byOwner = await invite(org, org.token, "admin");

    await patchUser(org, admin.user.id, { active: false });

    await expectRevoked(org, accomplice);
    await expectStillPending(org, byOwner);
  });

  it("an admin who leaves the organization: its pending invitations are revoked", async () => {
    const org = await signUp(ctx, { company: "Leaver Co" });
    const admin = await addUser(ctx, { orgId: org.organization.id, ownerToken: org.token, role: "admin" });
    const accomplice = await invite(org, admin.token, "admin");
    const viewer = await invite(org, admin.token, "viewer");

    await api("post", "/me/leave", admin.token).expect(200);

    await expectRevoked(org, accomplice);
    await expectRevoked(org, viewer);
  });

  it("an admin demoted to member: its admin and member invitations are revoked (members invite no one)", async () => {
    const org = await signUp(ctx, { company: "Demotion Co" });
    const admin = await addUser(ctx, { orgId: org.organization.id, ownerToken: org.token, role: "admin" });
    const accomplice = await invite(org, admin.token, "admin");
    const member = await invite(org, admin.token, "member");

    await patchUser(org, admin.user.id, { role: "member" });

    await expectRevoked(org, accomplice);
    await expectRevoked(org, member);
  });

  it("an owner demoted to admin: its owner invitation is revoked, its admin invitation stays pending and can be accepted", async () => {
    const org = await signUp(ctx, { company: "Two Owners Co" });
    const second = await addUser(ctx, { orgId: org.organization.id, ownerToken: org.token, role: "owner" });
    const asOwner = await invite(org, second.token, "owner");
    const asAdmin = await invite(org, second.token, "admin");

    await patchUser(org, second.user.id, { role: "admin" });

    await expectRevoked(org, asOwner);
    await expectStillPending(org, asAdmin);
    await api("post", `/invitations/${asAdmin.id}/accept`, asAdmin.token).expect(200);
  });

  it("a change that takes no right to invite away (name, tenants, promotion) leaves the invitations pending", async () => {
    const org = await signUp(ctx, { company: "Steady Co" });
    const admin = await addUser(ctx, { orgId: org.organization.id, ownerToken: org.token, role: "admin" });
    const invited = await invite(org, admin.token, "admin");

    await patchUser(org, admin.user.id, { name: "Renamed", tenant_ids: [org.tenant.id] });
    await patchUser(org, admin.user.id, { role: "owner" });

    await expectStillPending(org, invited);
  });
});

// Issue 47 finding 8: an invitation sent with an API key belongs to the key's user. It is revoked
// with that user (deactivated, demoted below the right to send it) and when the key is revoked.
describe("invitations sent with an API key belong to the key's user", () => {
  /** An admin of a new organization, and an admin key that admin created (signed in). */
  async function adminWithKey(company: string) {
    const org = await signUp(ctx, { company });
    const admin = await addUser(ctx, { orgId: org.organization.id, ownerToken: org.token, role: "admin" });
    const created = await api("post", "/settings/api-keys", admin.token).send({ name: "inviter", role: "admin" }).expect(201);
    return { org, admin, key: { id: created.body.data.id as string, secret: created.body.data.key as string } };
  }

  it("records the key's user as the sender, beside the key", async () => {
    const { org, admin, key } = await adminWithKey("Key Sender Co");
    const invited = await invite(org, key.secret, "member");
    expect(await invitation(org, invited.id)).toMatchObject({ invited_by: { user_id: admin.user.id }, invited_by_api_key_id: key.id });
  });

  it("the key's user deactivated: the invitation is revoked and cannot be accepted", async () => {
    const { org, admin, key } = await adminWithKey("Key Deactivation Co");
    const invited = await invite(org, key.secret, "member");
    await patchUser(org, admin.user.id, { active: false });
    await expectRevoked(org, invited);
  });

  it("the key's user demoted to member (who invites no one): the invitation is revoked", async () => {
    const { org, admin, key } = await adminWithKey("Key Demotion Co");
    const invited = await invite(org, key.secret, "viewer");
    await patchUser(org, admin.user.id, { role: "member" });
    await expectRevoked(org, invited);
  });

  it("the key revoked: the invitations sent with it are revoked, those its user sent signed in and with another key stay", async () => {
    const { org, admin, key } = await adminWithKey("Key Revocation Co");
    const other = await api("post", "/settings/api-keys", admin.token).send({ name: "other", role: "admin" }).expect(201);
    const withKey = await invite(org, key.secret, "member");
    const withOtherKey = await invite(org, other.body.data.key, "member");
    const signedIn = await invite(org, admin.token, "member");

    await api("delete", `/settings/api-keys/${key.id}`, org.token).expect(200);

    await expectRevoked(org, withKey);
    await expectStillPending(org, withOtherKey);
    await expectStillPending(org, signedIn);
    await api("post", `/invitations/${withOtherKey.id}/accept`, withOtherKey.token).expect(200);
  });

  it("an owner's key invitation stays pending when the owner is made admin (admins still invite members)", async () => {
    const org = await signUp(ctx, { company: "Owner Key Co" });
    const second = await addUser(ctx, { orgId: org.organization.id, ownerToken: org.token, role: "owner" });
    const created = await api("post", "/settings/api-keys", second.token).send({ name: "owner key", role: "admin" }).expect(201);
    const invited = await invite(org, created.body.data.key, "member");
    await patchUser(org, second.user.id, { role: "admin" });
    await expectStillPending(org, invited);
  });
});
