import { SuccessEnvelope, User } from "@cloudcost/contracts";
import request from "supertest";
import { createTestContext, type TestContext } from "./helpers/context";
import { addUser, expectError, mintToken, signUp, uniqueEmail, type SignedUp } from "./helpers/identity";

let ctx: TestContext;
let a: SignedUp;
let b: SignedUp;
beforeAll(async () => {
  ctx = await createTestContext();
  a = await signUp(ctx, { company: "Org A" });
  b = await signUp(ctx, { company: "Org B" });
});
afterAll(async () => {
  await ctx.close();
});

const getUser = (token: string | undefined, orgId: string, id: string) => {
  const req = request(ctx.app).get(`/api/v1/organizations/${orgId}/users/${id}`);
  return token ? req.set("Authorization", `Bearer ${token}`) : req;
};

describe("GET /api/v1/organizations/{org_id}/users/{id}", () => {
  it("returns a user of the caller's organization (200)", async () => {
    const res = await getUser(a.token, a.organization.id, a.owner.id).expect(200);
    const { data } = SuccessEnvelope(User).parse(res.body);
    expect(res.body.status).toBe("success");
    expect(data).toEqual(a.owner);
  });

  it("lets any member read users, including invited ones", async () => {
    const viewer = await addUser(ctx, { orgId: a.organization.id, ownerToken: a.token, role: "viewer" });
    const res = await getUser(viewer.token, a.organization.id, a.owner.id).expect(200);
    expect(res.body.data.id).toBe(a.owner.id);
    const invited = await getUser(a.token, a.organization.id, viewer.user.id).expect(200);
    expect(invited.body.data).toMatchObject({ role: "viewer", active: true, tenant_ids: [] });
  });

  it("answers 400 for a malformed org_id or id, before any authorization", async () => {
    expectError(await getUser(a.token, a.organization.id, "x".repeat(65)), 400, /id/);
    expectError(await getUser(a.token, a.organization.id, "usr%20bad"), 400, /id/);
    expectError(await getUser(a.token, "org$", a.owner.id), 400, /org_id/);
  });

  it("answers 401 without or with a bad token", async () => {
    expectError(await getUser(undefined, a.organization.id, a.owner.id), 401, /Authorization/);
    expectError(await getUser("garbage", a.organization.id, a.owner.id), 401);
  });

  it("answers 403 for another organization's user and for an organization that does not exist", async () => {
    expectError(await getUser(a.token, b.organization.id, b.owner.id), 403, /not a member of organization/);
    expectError(await getUser(a.token, "org_DOESNOTEXIST", a.owner.id), 403, /not a member of organization/);
  });

  it("answers 404 for a user that is not in the organization", async () => {
    expectError(await getUser(a.token, a.organization.id, "usr_DOESNOTEXIST"), 404, /not in this organization/);
    expectError(await getUser(a.token, a.organization.id, b.owner.id), 404, /not in this organization/);
  });

  it("answers 403 for an identity that belongs to no organization", async () => {
    const stranger = await mintToken(ctx, { email: uniqueEmail("stranger") });
    expectError(await getUser(stranger, a.organization.id, a.owner.id), 403, /does not belong to any organization/);
  });
});

describe("invitations through POST .../users", () => {
  it("create a pending invitation that links nothing until the invitee accepts it, case-insensitively", async () => {
    const email = uniqueEmail("Invitee");
    const res = await request(ctx.app)
      .post(`/api/v1/organizations/${a.organization.id}/users`)
      .set("Authorization", `Bearer ${a.token}`)
      .send({ email: email.toUpperCase(), role: "member", tenant_ids: [a.tenant.id] })
      .expect(201);
    expect(res.body.data).toMatchObject({ email: email.toLowerCase(), role: "member", tenant_ids: [a.tenant.id], status: "pending" });

    // A request with the invited, verified e-mail does not join the organization by itself.
    const token = await mintToken(ctx, { email });
    expectError(await getUser(token, a.organization.id, a.owner.id), 403, /does not belong to any organization/);
    // An unverified token for the address cannot accept it.
    const unverified = await mintToken(ctx, { email, verified: false, sub: "other-sub" });
    expectError(
      await request(ctx.app).post(`/api/v1/invitations/${res.body.data.id}/accept`).set("Authorization", `Bearer ${unverified}`),
      403,
      /not verified/,
    );

    const accepted = await request(ctx.app).post(`/api/v1/invitations/${res.body.data.id}/accept`).set("Authorization", `Bearer ${token}`).expect(200);
    await getUser(token, a.organization.id, accepted.body.data.id).expect(200);
    const link = await ctx.prisma.identity.findFirstOrThrow({ where: { organizationId: a.organization.id, userId: accepted.body.data.id } });
    expect(link.issuer).toBe("cloudcost-dev-issuer");
    // Later tokens of the same identity reuse the link; sign-up is then refused.
    const signup = await request(ctx.app)
      .post("/api/v1/signup/complete")
      .set("Authorization", `Bearer ${token}`)
      .send({ company_name: "Side Co", first_name: "A", last_name: "B" });
    expectError(signup, 409, /already belongs/);
  });
});
