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
