import { createHmac, hash, randomInt, timingSafeEqual } from "node:crypto";

/**
 * API keys look like `bl_<36 random base62 characters><6-character checksum>`, the GitHub token
 * format: a scanner or a server can reject a mistyped or made-up key without a database read.
 * Only the SHA-256 hash and a display prefix are ever stored.
 */
export const API_KEY_PREFIX = "bl_";
const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const RANDOM_LENGTH = 36;
const CHECKSUM_LENGTH = 6;
const KEY_PATTERN = new RegExp(`^${API_KEY_PREFIX}[0-9A-Za-z]{${RANDOM_LENGTH + CHECKSUM_LENGTH}}$`);

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

/** CRC-32 of an ASCII string (key bodies are letters and digits only). */
function crc32(text: string): number {
  let crc = 0xffffffff;
  for (let i = 0; i < text.length; i++) crc = CRC_TABLE[(crc ^ text.charCodeAt(i)) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function checksum(body: string): string {
  let n = crc32(body);
  let out = "";
  for (let i = 0; i < CHECKSUM_LENGTH; i++) {
    out = ALPHABET[n % 62] + out;
    n = Math.floor(n / 62);
  }
  return out;
}

export function generateApiKey(): string {
  let body = "";
  for (let i = 0; i < RANDOM_LENGTH; i++) body += ALPHABET[randomInt(62)];
  return `${API_KEY_PREFIX}${body}${checksum(body)}`;
}

/** Format and checksum only: no database read. */
export function isWellFormedApiKey(key: string): boolean {
  if (!KEY_PATTERN.test(key)) return false;
  const body = key.slice(API_KEY_PREFIX.length, API_KEY_PREFIX.length + RANDOM_LENGTH);
  return safeEqual(checksum(body), key.slice(-CHECKSUM_LENGTH));
}

/** Lower-case hex SHA-256 of the whole key: what is stored and looked up. */
export function hashApiKey(key: string): string {
  return hash("sha256", key, "hex"); // one-shot: a quarter of createHash's cost on a short string
}

/** What a user sees in listings to recognise a key: `bl_` and the first 8 characters of its body. */
export function apiKeyDisplayPrefix(key: string): string {
  return key.slice(0, API_KEY_PREFIX.length + 8);
}

export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * The key from `X-API-Key` (any header-name case: Node lower-cases them) or `Authorization: Bearer`.
 * Returns undefined when neither carries a `bl_` credential.
 */
export function apiKeyFromHeaders(headers: Record<string, string | string[] | undefined>): string | undefined {
  const header = headers["x-api-key"];
  const direct = Array.isArray(header) ? header[0] : header;
  if (direct?.trim()) return direct.trim();
  const auth = headers.authorization;
  const match = typeof auth === "string" ? /^Bearer\s+(bl_\S+)\s*$/i.exec(auth) : null;
  return match?.[1];
}

/**
 * A well-formed key derived from a secret and a label (HMAC-SHA256): the same every start, never
 * stored. The main API uses it as its own pricing API key when none is configured.
 */
export function deriveApiKey(secret: Uint8Array, label: string): string {
  const digest = createHmac("sha256", secret).update(label).digest();
  let body = "";
  for (let i = 0; i < RANDOM_LENGTH; i++) body += ALPHABET[digest[i % digest.length] % 62];
  return `${API_KEY_PREFIX}${body}${checksum(body)}`;
}
