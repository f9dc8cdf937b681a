import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, randomBytes, type KeyObject } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { SignJWT, type JWK } from "jose";
import { normalizeEmail } from "./email";

/**
 * The development issuer: an Ed25519 key pair generated on first use and kept in a data directory,
 * so the service and the `dev-token` command (separate processes) sign and verify with one key.
 */
export const DEV_ISSUER = "cloudcost-dev-issuer";
export const DEV_AUDIENCE = "cloudcost-main-api";
const KEY_FILE = "signing-key.jwk.json";

export interface DevIssuerKey {
  kid: string;
  privateKey: KeyObject;
  publicKey: KeyObject;
  /** The public key as served at /.well-known/jwks.json. */
  publicJwk: JWK;
}

/**
 * Reads the key pair from `dir`, creating it atomically on first use (concurrent first starts
 * agree). The service loads it once, in its composition root.
 */
export function loadDevIssuerKey(dir: string): DevIssuerKey {
  const file = path.join(dir, KEY_FILE);
  if (!fs.existsSync(file)) createKeyFile(dir, file);
  const jwk = JSON.parse(fs.readFileSync(file, "utf8")) as JWK;
  const privateKey = createPrivateKey({ key: jwk as import("node:crypto").JsonWebKey, format: "jwk" });
  const publicKey = createPublicKey(privateKey);
  const publicJwk = publicKey.export({ format: "jwk" }) as JWK;
  const kid = createHash("sha256").update(String(publicJwk.x)).digest("base64url").slice(0, 16);
  return { kid, privateKey, publicKey, publicJwk: { ...publicJwk, kid, alg: "EdDSA", use: "sig" } };
}

function createKeyFile(dir: string, file: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  // Generated straight to PKCS#8 and re-imported: exporting a key object that still shares its data
  // with the generation job deadlocks Node 20 when GC collects the job mid-export.
  const { privateKey: pem } = generateKeyPairSync("ed25519", {
    privateKeyEncoding: { type: "pkcs8", format: "pem" },
    publicKeyEncoding: { type: "spki", format: "pem" },
  });
  const privateKey = createPrivateKey(pem);
  // Written completely under a private name, then linked into place: link fails when another
  // process won, and a reader never sees a half-written file.
  const temp = `${file}.${process.pid}.${randomBytes(4).toString("hex")}`;
  fs.writeFileSync(temp, JSON.stringify(privateKey.export({ format: "jwk" })), { flag: "wx", mode: 0o600 });
  try {
    fs.linkSync(temp, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
  } finally {
    fs.rmSync(temp, { force: true });
  }
}

export interface DevTokenOptions {
  email: string;
  verified?: boolean;
  subject?: string;
  /** Lifetime in seconds; negative mints a token that expired that long ago. Default 3600. */
  ttlSeconds?: number;
}

/** A stable subject for an e-mail, so repeated tokens for one address are one identity. */
export function devSubjectFor(email: string): string {
  return `dev|${createHash("sha256").update(normalizeEmail(email)).digest("hex").slice(0, 24)}`;
}

export async function mintDevToken(key: DevIssuerKey, options: DevTokenOptions): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const exp = now + (options.ttlSeconds ?? 3600);
  return new SignJWT({ email: options.email, email_verified: options.verified ?? true })
    .setProtectedHeader({ alg: "EdDSA", kid: key.kid, typ: "JWT" })
    .setIssuer(DEV_ISSUER)
    .setAudience(DEV_AUDIENCE)
    .setSubject(options.subject ?? devSubjectFor(options.email))
    .setIssuedAt(Math.min(now, exp - 1))
    .setExpirationTime(exp)
    .sign(key.privateKey);
}
