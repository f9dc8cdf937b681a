import { randomBytes, randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { jwtVerify, SignJWT } from "jose";

/**
 * Service tokens: HS256 JWTs, one per request, with which the main API (and the pricing API's own
 * CLI) call the pricing API's internal endpoints. Both sides share SERVICE_TOKEN_SECRET; for local
 * use it is generated once and kept in the data directory, so `pnpm start` needs no set-up.
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

/** The request a service token is for: the HTTP method and the path as the pricing API sees it (no query). */
export interface ServiceRequest {
  method: string;
  path: string;
}

/** A token is good for one request within this many seconds of being signed. */
export const SERVICE_TOKEN_TTL_SECONDS = 60;
/** Clock difference allowed between the services; a jti is remembered until exp plus this. */
export const SERVICE_TOKEN_CLOCK_TOLERANCE_SECONDS = 10;

/**
 * A token for exactly one request: bound to its method (`htm`) and path (`htu`), as DPoP proofs
 * are, living at most SERVICE_TOKEN_TTL_SECONDS, with a random `jti` the receiver remembers so a
 * captured token cannot be replayed against the same or another endpoint.
 */
export async function signServiceToken(secret: Uint8Array, request: ServiceRequest, subject = "main-api"): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ htm: request.method.toUpperCase(), htu: request.path })
    .setProtectedHeader({ alg: "HS256" })
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setSubject(subject)
    .setJti(randomUUID())
    .setIssuedAt(now)
    .setExpirationTime(now + SERVICE_TOKEN_TTL_SECONDS)
    .sign(secret);
}

export interface VerifiedServiceToken {
  jti: string;
  /** Until when the token would be accepted (its exp plus the clock tolerance): remember the jti that long. */
  rememberUntil: Date;
}

/**
 * The token's id when `token` is a valid, unexpired service token signed with `secret` for exactly
 * this request (method and path), with a lifetime of at most SERVICE_TOKEN_TTL_SECONDS; else null.
 * The caller must still refuse a jti it has seen (replay).
 */
export async function verifyServiceToken(secret: Uint8Array, token: string, request: ServiceRequest): Promise<VerifiedServiceToken | null> {
  try {
    const { payload } = await jwtVerify(token, secret, {
      issuer: ISSUER,
      audience: AUDIENCE,
      algorithms: ["HS256"],
      clockTolerance: SERVICE_TOKEN_CLOCK_TOLERANCE_SECONDS,
      requiredClaims: ["exp", "iat", "jti", "htm", "htu"],
      maxTokenAge: SERVICE_TOKEN_TTL_SECONDS,
    });
    const { exp, iat, jti, htm, htu } = payload as { exp: number; iat: number; jti: unknown; htm: unknown; htu: unknown };
    if (exp - iat > SERVICE_TOKEN_TTL_SECONDS) return null;
    if (iat > Date.now() / 1000 + SERVICE_TOKEN_CLOCK_TOLERANCE_SECONDS) return null;
    if (typeof jti !== "string" || jti.length === 0 || jti.length > 64) return null;
    if (htm !== request.method.toUpperCase() || htu !== request.path) return null;
    return { jti, rememberUntil: new Date((exp + SERVICE_TOKEN_CLOCK_TOLERANCE_SECONDS) * 1000) };
  } catch {
    return null;
  }
}
