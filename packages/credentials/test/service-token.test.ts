import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { SignJWT } from "jose";
import { loadServiceSecret, signServiceToken, verifyServiceToken } from "../src/service-token";

describe("service tokens", () => {
  const secret = new TextEncoder().encode("s".repeat(40));
  const put = { method: "PUT", path: "/internal/api-keys/abc" };
  const now = () => Math.floor(Date.now() / 1000);

  it("verifies a token signed with the shared secret for this request and refuses others", async () => {
    const token = await signServiceToken(secret, put);
    expect(await verifyServiceToken(secret, token, put)).toEqual({ jti: expect.any(String), rememberUntil: expect.any(Date) });
    expect(await verifyServiceToken(new TextEncoder().encode("t".repeat(40)), token, put)).toBeNull();
    // Tamper with the middle of the signature (its last character carries padding bits).
    const [header, payload, signature] = token.split(".");
    const middle = Math.floor(signature.length / 2);
    const flipped = signature.slice(0, middle) + (signature[middle] === "A" ? "B" : "A") + signature.slice(middle + 1);
    expect(await verifyServiceToken(secret, `${header}.${payload}.${flipped}`, put)).toBeNull();
    expect(await verifyServiceToken(secret, "bl_notajwt", put)).toBeNull();
  });

  it("binds the token to the method and path, lives at most 60 seconds, and carries a fresh jti", async () => {
    const token = await signServiceToken(secret, put);
    expect(await verifyServiceToken(secret, token, { method: "DELETE", path: put.path })).toBeNull();
    expect(await verifyServiceToken(secret, token, { method: "PUT", path: "/internal/api-keys/abd" })).toBeNull();
    expect(await verifyServiceToken(secret, token, { method: "put", path: put.path })).not.toBeNull();
    const claims = JSON.parse(Buffer.from(token.split(".")[1], "base64url").toString());
    expect(claims.exp - claims.iat).toBeLessThanOrEqual(60);
    const verified = await verifyServiceToken(secret, token, put);
    expect(verified!.rememberUntil.getTime()).toBeGreaterThanOrEqual(claims.exp * 1000);
    const other = await verifyServiceToken(secret, await signServiceToken(secret, put), put);
    expect(other!.jti).not.toBe(verified!.jti);
  });

  const signed = (claims: Record<string, unknown>, build: (jwt: SignJWT) => SignJWT) =>
    build(
      new SignJWT({ htm: "PUT", htu: put.path, ...claims })
        .setProtectedHeader({ alg: "HS256" })
        .setIssuer("cloudcost:main-api")
        .setAudience("cloudcost:pricing-api"),
    ).sign(secret);

  it("refuses expired, long-lived, future, unbound or id-less tokens, and another audience", async () => {
    const cases = {
      expired: await signed({}, (j) =>
        j
          .setJti("a")
          .setIssuedAt(now() - 200)
          .setExpirationTime(now() - 120),
      ),
      longLived: await signed({}, (j) =>
        j
          .setJti("b")
          .setIssuedAt(now())
          .setExpirationTime(now() + 300),
      ),
      noExpiry: await signed({}, (j) => j.setJti("c").setIssuedAt(now())),
      future: await signed({}, (j) =>
        j
          .setJti("d")
          .setIssuedAt(now() + 120)
          .setExpirationTime(now() + 150),
      ),
      noJti: await signed({}, (j) => j.setIssuedAt(now()).setExpirationTime(now() + 30)),
      noPath: await signed({ htu: undefined }, (j) =>
        j
          .setJti("e")
          .setIssuedAt(now())
          .setExpirationTime(now() + 30),
      ),
      otherAudience: await new SignJWT({ htm: "PUT", htu: put.path })
        .setProtectedHeader({ alg: "HS256" })
        .setIssuer("cloudcost:main-api")
        .setAudience("x")
        .setJti("f")
        .setIssuedAt()
        .setExpirationTime("30s")
        .sign(secret),
    };
    for (const [name, token] of Object.entries(cases)) expect({ name, result: await verifyServiceToken(secret, token, put) }).toEqual({ name, result: null });
    const fine = await signed({}, (j) =>
      j
        .setJti("g")
        .setIssuedAt(now())
        .setExpirationTime(now() + 30),
    );
    expect(await verifyServiceToken(secret, fine, put)).toEqual({ jti: "g", rememberUntil: expect.any(Date) });
  });

  it("generates a local secret once and reuses it; refuses a short configured one", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "secret-"));
    const a = loadServiceSecret(undefined, dir);
    const b = loadServiceSecret(undefined, dir);
    expect(Buffer.from(a).toString()).toHaveLength(64);
    expect(Buffer.from(b)).toEqual(Buffer.from(a));
    expect(() => loadServiceSecret("short", dir)).toThrow(/SERVICE_TOKEN_SECRET/);
  });
});
