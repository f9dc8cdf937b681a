// Issue 33 finding 8: e-mail addresses are compared after lower-casing ASCII letters only. Unicode
// case folding would make U+212A KELVIN SIGN a `k`: a token for "\u212Aate@..." (an address its
// holder may own at a provider that allows Unicode) must not act for "kate@...".
import request from "supertest";
import { createTestContext, type TestContext } from "./helpers/context";
import { expectError, mintToken, signUp, uniqueEmail, type SignedUp } from "./helpers/identity";

const KELVIN = "\u212A";

let ctx: TestContext;
let org: SignedUp;
beforeAll(async () => {
  ctx = await createTestContext();
  org = await signUp(ctx, { company: "Kelvin Co" });
});
afterAll(async () => {
  await ctx.close();
});

const api = (method: "get" | "post", path: string, token: string) => request(ctx.app)[method](`/api/v1${path}`).set("Authorization", `Bearer ${token}`);
/** kate-...@example.com, and the same address with its leading `k` written as the Kelvin sign. */
function kate() {
  const email = uniqueEmail("kate");
  return { email, lookalike: `${KELVIN}${email.slice(1)}` };
}

describe("e-mail comparison lower-cases ASCII letters only", () => {
  it("a token for \\u212Aate@... neither sees nor accepts the invitation of kate@...; kate's token (any ASCII case) does", async () => {
    const { email, lookalike } = kate();
    const invitation = (await api("post", `/organizations/${org.organization.id}/invitations`, org.token).send({ email, role: "admin" }).expect(201)).body.data;
    const intruder = await mintToken(ctx, { email: lookalike, sub: "other-provider-account" });

    expect((await api("get", "/invitations", intruder).expect(200)).body.data.items).toEqual([]);
    expectError(await api("post", `/invitations/${invitation.id}/accept`, intruder), 404, /no pending invitation/);

    const owner = await mintToken(ctx, { email: email.toUpperCase() });
    await api("post", `/invitations/${invitation.id}/accept`, owner).expect(200);
  });

  it("a development token for \\u212Aate@... does not sign in as the user kate@...", async () => {
    const { email, lookalike } = kate();
    const invitation = (await api("post", `/organizations/${org.organization.id}/invitations`, org.token).send({ email, role: "member" }).expect(201)).body
      .data;
    const kateToken = await mintToken(ctx, { email });
    await api("post", `/invitations/${invitation.id}/accept`, kateToken).expect(200);
    expect((await api("get", "/me", kateToken).expect(200)).body.data.user.email).toBe(email);

    const intruder = await mintToken(ctx, { email: lookalike });
    expectError(await api("get", "/me", intruder), 403, /does not belong to any organization/);
  });

  it("sign-up keeps the token's e-mail with only its ASCII letters lower-cased", async () => {
    const local = uniqueEmail("kate").split("@")[0].slice(1).toUpperCase();
    const token = await mintToken(ctx, { email: `${KELVIN}${local}@Example.COM` });
    const res = await api("post", "/signup/complete", token).send({ company_name: "Unicode Co", first_name: "K", last_name: "S" }).expect(201);
    const expected = `${KELVIN}${local.toLowerCase()}@example.com`;
    expect(res.body.data.owner.email).toBe(expected);
    expect((await ctx.prisma.user.findFirstOrThrow({ where: { organizationId: res.body.data.organization.id } })).email).toBe(expected);
  });

  it("the database's checks still refuse an ASCII capital in a stored e-mail", async () => {
    const insert = (email: string) =>
      ctx.db.sql.query(`INSERT INTO invitations (organization_id, id, email, role, expires_at) VALUES ($1, $2, $3, 'viewer', now() + interval '1 day')`, [
        org.organization.id,
        `inv_${email.length}${Date.now()}`,
        email,
      ]);
    await expect(insert(uniqueEmail("Kate"))).rejects.toThrow(/manual_invitations_email_lower/);
    await expect(insert(`${KELVIN}${uniqueEmail("ate")}`)).resolves.toBeDefined();
  });
});
