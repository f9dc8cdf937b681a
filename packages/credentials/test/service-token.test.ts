import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { SignJWT } from "jose";
import { loadServiceSecret, signServiceToken, verifyServiceToken } from "../src/service-token";

describe("service tokens", () => {
  const secret = new TextEncoder().encode("s".repeat(40));

  it("verifies a token signed with the shared secret and refuses others", async () => {
    const token = await signServiceToken(secret);
    expect(await verifyServiceToken(secret, token)).toBe(true);
    expect(await verifyServiceToken(new TextEncoder().encode("t".repeat(40)), token)).toBe(false);
    // Tamper with the middle of the signature (its last character carries padding bits).
    const [header, payload, signature] = token.split(".");
    const middle = Math.floor(signature.length / 2);
    const flipped = signature.slice(0, middle) + (signature[middle] === "A" ? "B" : "A") + signature.slice(middle + 1);
    expect(await verifyServiceToken(secret, `${header}.${payload}.${flipped}`)).toBe(false);
    expect(await verifyServiceToken(secret, "bl_notajwt")).toBe(false);
  });

  it("refuses an expired token and one for another audience", async () => {
    const expired = await new SignJWT({})
      .setProtectedHeader({ alg: "HS256" })
      .setIssuer("cloudcost:main-api")
      .setAudience("cloudcost:pricing-api")
      .setExpirationTime(Math.floor(Date.now() / 1000) - 120)
      .sign(secret);
    expect(await verifyServiceToken(secret, expired)).toBe(false);
    const other = await new SignJWT({}).setProtectedHeader({ alg: "HS256" }).setIssuer("cloudcost:main-api").setAudience("x").sign(secret);
    expect(await verifyServiceToken(secret, other)).toBe(false);
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
