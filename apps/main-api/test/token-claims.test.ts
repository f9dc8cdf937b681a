// Issue 22 finding 8: a bearer JWT must carry `exp` and `iat`, be at most 24 hours old and not be
// issued in the future (beyond the 30 s clock tolerance).
import { SignJWT } from "jose";
import request from "supertest";
import { DEV_AUDIENCE, DEV_ISSUER, devSubjectFor, loadDevIssuerKey } from "../src/auth/dev-issuer";
import { createTestContext, type TestContext } from "./helpers/context";
import { expectError, signUp, type SignedUp } from "./helpers/identity";

let ctx: TestContext;
let a: SignedUp;
beforeAll(async () => {
  ctx = await createTestContext();
  a = await signUp(ctx, { company: "Claims Co" });
});
afterAll(async () => {
  await ctx.close();
});

const me = (token: string) => request(ctx.app).get("/api/v1/me").set("Authorization", `Bearer ${token}`);

/** A dev-issuer token for the owner with exactly these time claims (undefined leaves one out). */
function token(times: { iat?: number; exp?: number }) {
  const claims = { iss: DEV_ISSUER, aud: DEV_AUDIENCE, sub: devSubjectFor(a.email), email: a.email, email_verified: true, ...times };
  return new SignJWT(claims).setProtectedHeader({ alg: "EdDSA" }).sign(loadDevIssuerKey(ctx.config.auth.devIssuerDir).privateKey);
}
const now = () => Math.floor(Date.now() / 1000);

describe("JWT time claims", () => {
  it("accepts a token with iat now and exp ahead (positive control)", async () => {
    await me(await token({ iat: now(), exp: now() + 600 })).expect(200);
  });

  it("rejects a token without exp (401)", async () => {
    expectError(await me(await token({ iat: now() })), 401, /exp/);
  });

  it("rejects a token without iat (401)", async () => {
    expectError(await me(await token({ exp: now() + 600 })), 401, /iat/);
  });

  it("rejects a token issued in the future beyond the clock tolerance (401), tolerates 20 s", async () => {
    expectError(await me(await token({ iat: now() + 365 * 86400, exp: now() + 366 * 86400 })), 401, /iat/);
    expectError(await me(await token({ iat: now() + 120, exp: now() + 600 })), 401, /iat/);
    await me(await token({ iat: now() + 20, exp: now() + 600 })).expect(200);
  });

  it("rejects a token older than 24 hours even when it has not expired (401)", async () => {
    expectError(await me(await token({ iat: now() - 25 * 3600, exp: now() + 600 })), 401, /older than|iat/);
    await me(await token({ iat: now() - 23 * 3600, exp: now() + 600 })).expect(200);
  });
});
