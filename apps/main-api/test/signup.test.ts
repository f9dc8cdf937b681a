import { SignupCompleteResponse, SuccessEnvelope } from "@cloudcost/contracts";
import request from "supertest";
import { createTestContext, type TestContext } from "./helpers/context";
import { expectError, mintToken, signUp, uniqueEmail } from "./helpers/identity";

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => {
  await ctx.close();
});

const body = { company_name: "Acme Corp", first_name: "Ada", last_name: "Lovelace", job_title: "CTO" };
const complete = (token: string | undefined, payload: unknown = body) => {
  const req = request(ctx.app).post("/api/v1/signup/complete");
  if (token) req.set("Authorization", `Bearer ${token}`);
  return req.send(payload as object);
};

describe("POST /api/v1/signup/complete", () => {
  it("creates an organization, a default tenant and an owner (201)", async () => {
    const email = uniqueEmail("Founder").replace("founder", "FoUnDeR");
    const token = await mintToken(ctx, { email });
    const res = await complete(token).expect(201);
    const { data } = SuccessEnvelope(SignupCompleteResponse).parse(res.body);
    expect(res.body).toMatchObject({ status: "success", message: expect.any(String) });
    expect(data.organization).toEqual({ id: expect.stringMatching(/^org_/), name: "Acme Corp", slug: expect.stringMatching(/^acme-corp/) });
    expect(data.default_tenant).toMatchObject({ id: expect.stringMatching(/^ten_/), name: "Default", organization_id: data.organization.id });
    expect(data.owner).toEqual({
      id: expect.stringMatching(/^usr_/),
      organization_id: data.organization.id,
      name: "Ada Lovelace",
      email: email.toLowerCase(),
      role: "owner",
      active: true,
      joined_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      tenant_ids: [data.default_tenant.id],
      avatar_url: null,
      job_title: "CTO",
    });
    const settings = await ctx.prisma.organizationSettings.findUniqueOrThrow({ where: { organizationId: data.organization.id } });
    expect(settings).toMatchObject({
      defaultCurrency: "USD",
      rightsizingLookbackDays: 14,
      rightsizingCpuTargetPercent: 70,
      rightsizingMemTargetPercent: 80,
      activeWindowMinutes: 15,
    });
  });

  it("derives unique slugs from company_name (slugified, then -2, -3 ...)", async () => {
    const first = await signUp(ctx, { company: "Ünïcode  Widgets, Inc." });
    const second = await signUp(ctx, { company: "Unicode Widgets Inc" });
    const third = await signUp(ctx, { company: "unicode-widgets-inc" });
    expect([first.organization.slug, second.organization.slug, third.organization.slug]).toEqual([
      "unicode-widgets-inc",
      "unicode-widgets-inc-2",
      "unicode-widgets-inc-3",
    ]);
    const short = await signUp(ctx, { company: "X" });
    expect(short.organization.slug).toMatch(/^x-org/);
    const symbols = await signUp(ctx, { company: "株式会社" });
    expect(symbols.organization.slug).toMatch(/^org/);
  });

  it("uses an explicit slug and answers 409 when it is taken", async () => {
    const { organization } = await signUp(ctx, { slug: "explicit-co" });
    expect(organization.slug).toBe("explicit-co");
    const token = await mintToken(ctx, { email: uniqueEmail() });
    expectError(await complete(token, { ...body, slug: "explicit-co" }), 409, /slug 'explicit-co' is already taken/);
    // Nothing was left behind by the failed attempt.
    expect(await ctx.prisma.organization.count({ where: { slug: "explicit-co" } })).toBe(1);
  });

  it("answers 409 when the identity already belongs to an organization", async () => {
    const { token } = await signUp(ctx);
    expectError(await complete(token), 409, /already belongs to an organization/);
  });

  it("answers 400 for an invalid body, naming the fields", async () => {
    const token = await mintToken(ctx, { email: uniqueEmail() });
    expectError(await complete(token, {}), 400, /company_name.*first_name.*last_name/);
    expectError(await complete(token, { ...body, first_name: "   " }), 400, /first_name/);
    expectError(await complete(token, { ...body, company_name: "x".repeat(201) }), 400, /company_name/);
    expectError(await complete(token, { ...body, slug: "-bad-" }), 400, /slug/);
    expectError(await complete(token, { ...body, slug: "ab" }), 400, /slug/);
    expectError(await complete(token, { ...body, slug: "Upper" }), 400, /slug/);
  });

  it("answers 401 without a token, with a malformed token and with an API key", async () => {
    expectError(await complete(undefined), 401, /Missing Authorization header/);
    expectError(await complete("not.a.jwt"), 401);
    const { organization } = await signUp(ctx);
    const key = `bl_${"A".repeat(42)}`;
    expectError(await complete(key), 401, /API key/);
    expect(organization.id).toBeTruthy();
  });

  it("answers 403 when the e-mail is not verified", async () => {
    const token = await mintToken(ctx, { email: uniqueEmail(), verified: false });
    expectError(await complete(token), 403, /not verified/);
  });

  it("creates exactly one organization for 10 concurrent completions of one identity", async () => {
    const email = uniqueEmail("racer");
    const token = await mintToken(ctx, { email });
    const results = await Promise.all(Array.from({ length: 10 }, () => complete(token, { ...body, company_name: "Race Co" })));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 409, 409, 409, 409, 409, 409, 409, 409, 409]);
    for (const r of results.filter((r) => r.status === 409)) expect(r.body).toEqual({ message: expect.any(String), status: "error" });
    expect(await ctx.prisma.user.count({ where: { email } })).toBe(1);
    expect(await ctx.prisma.organization.count({ where: { name: "Race Co" } })).toBe(1);
  });

  it("gives one 201 and nine 409 for 10 concurrent sign-ups with one explicit slug", async () => {
    const tokens = await Promise.all(Array.from({ length: 10 }, () => mintToken(ctx, { email: uniqueEmail("slugger") })));
    const results = await Promise.all(tokens.map((token) => complete(token, { ...body, slug: "contested" })));
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409, 409, 409, 409, 409]);
    expect(await ctx.prisma.organization.count({ where: { slug: "contested" } })).toBe(1);
  });
});
