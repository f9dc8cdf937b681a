import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { jwtVerify, SignJWT } from "jose";

/**
 * Service tokens: short-lived HS256 JWTs with which the main API calls the pricing API's internal
 * endpoints. Both sides share SERVICE_TOKEN_SECRET; for local use it is generated once and kept in
 * the data directory, so `pnpm start` needs no set-up.
 */
const ISSUER = "cloudcost:main-api";
const AUDIENCE = "cloudcost:pricing-api";
const SECRET_MIN_LENGTH = 32;

export function loadServiceSecret(configured: string | undefined, dataRoot: string): Uint8Array {
  if (configured) {
    if (configured.length < SECRET_MIN_LENGTH) throw new Error(`SERVICE_TOKEN_SECRET must be at least ${SECRET_MIN_LENGTH} characters`);
    return new TextEncoder().encode(configured);
  }
  const file = path.join(dataRoot, "service-token.secret");
  fs.mkdirSync(dataRoot, { recursive: true, mode: 0o700 });
  try {
    fs.writeFileSync(file, randomBytes(32).toString("hex"), { flag: "wx", mode: 0o600 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
  }
  return new TextEncoder().encode(fs.readFileSync(file, "utf8").trim());
}

export async function signServiceToken(secret: Uint8Array, subject = "main-api"): Promise<string> {
  return new SignJWT({})
    .setProtectedHeader({ alg: "HS256" })
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setSubject(subject)
    .setIssuedAt()
    .setExpirationTime("5m")
    .sign(secret);
}

/** True when `token` is a valid, unexpired service token signed with `secret`. */
export async function verifyServiceToken(secret: Uint8Array, token: string): Promise<boolean> {
  try {
    await jwtVerify(token, secret, { issuer: ISSUER, audience: AUDIENCE, algorithms: ["HS256"], clockTolerance: 30 });
    return true;
  } catch {
    return false;
  }
}
