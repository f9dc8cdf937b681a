import { randomBytes } from "node:crypto";
import request from "supertest";
import { createTestContext, type TestContext } from "./helpers/context";
import { signUp } from "./helpers/identity";

// Security issue #22: limits and inputs at the edge of the main API.

describe("per-credential rate limit (issue #22, finding 5)", () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({ RATE_LIMIT_PER_CREDENTIAL: "3", RATE_LIMIT_PER_IP: "0" });
  });
  afterAll(() => ctx.close());

  it("counts the bearer credential the main API authenticates: a random X-API-Key per request does not reset it", async () => {
    const { token } = await signUp(ctx);
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await request(ctx.app)
        .get("/api/v1/me")
        .set("Authorization", `Bearer ${token}`)
        .set("X-API-Key", `bl_${randomBytes(21).toString("hex")}`);
      statuses.push(res.status);
    }
    // sign-up spent one request of the token's window
    expect(statuses).toEqual([200, 200, 429, 429, 429]);
  });
});

describe("deeply nested JSON bodies (issue #22, finding 9)", () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(() => ctx.close());

  /** `{"a":{"a":…{}}}` `depth` levels deep as JSON text (5000 levels: ~30 KB, more than JSON.stringify can walk). */
  const nested = (depth: number) => `${'{"a":'.repeat(depth)}{}${"}".repeat(depth)}`;

  it.each(["application/json", "application/merge-patch+json"])(
    "a body nested 5000 levels deep is a 400 in the envelope (%s), also with an Idempotency-Key",
    async (type) => {
      const { token, organization } = await signUp(ctx);
      const text = `{"name":"t","extra":${nested(5000)}}`;
      const req = request(ctx.app)
        .post(`/api/v1/organizations/${organization.id}/tenants`)
        .set("Authorization", `Bearer ${token}`)
        .set("Idempotency-Key", `deep-${type}`)
        // application/json takes the buffered fast path; a +json type body-parser's path.
        .set("Content-Type", type);
      const res = await req.send(text);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message: expect.stringMatching(/nested more than 64 levels/), status: "error" });
    },
  );
});

describe("metrics (issue #22, finding 10)", () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(() => ctx.close());

  it("labels requests by route pattern, never by the organization or user ids in the path", async () => {
    const { token, organization, owner } = await signUp(ctx);
    await request(ctx.app).get(`/api/v1/organizations/${organization.id}/users/${owner.id}`).set("Authorization", `Bearer ${token}`).expect(200);
    const text = (await request(ctx.app).get("/metrics").expect(200)).text;
    expect(text).toContain('route="/api/v1/organizations/:org_id/users/:id"');
    expect(text).not.toContain(organization.id);
    expect(text).not.toContain(owner.id);
  });
});
