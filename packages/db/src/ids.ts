import { randomBytes } from "node:crypto";

const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/**
 * A new opaque id: `<prefix>_` + a ULID-style body (48-bit millisecond time, then 80 random bits,
 * Crockford base32), so ids sort by creation time and cannot be guessed.
 */
export function newId(prefix: string): string {
  let time = Date.now();
  let head = "";
  for (let i = 0; i < 10; i++) {
    head = CROCKFORD[time % 32] + head;
    time = Math.floor(time / 32);
  }
  let tail = "";
  for (const byte of randomBytes(16)) tail += CROCKFORD[byte % 32];
  return `${prefix}_${head}${tail}`;
}
