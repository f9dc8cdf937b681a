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

type Method = "get" | "post" | "patch";
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
