import { randomBytes } from "node:crypto";

const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/**
 * A new opaque id: `<prefix>_` + a ULID-style body (48-bit millisecond time, then 80 random bits,
 * Crockford base32), so ids sort by creation time and cannot be guessed.
 */
export function newId(prefix: string): string {
  return newIds(prefix, 1)[0];
}

/** `count` new ids (as newId), drawing their random bits in one call: for bulk inserts. */
export function newIds(prefix: string, count: number): string[] {
  let time = Date.now();
  let head = "";
  for (let i = 0; i < 10; i++) {
    head = CROCKFORD[time % 32] + head;
    time = Math.floor(time / 32);
  }
  const random = randomBytes(16 * count);
  const ids = new Array<string>(count);
  for (let n = 0; n < count; n++) {
    let tail = "";
    for (let i = n * 16; i < n * 16 + 16; i++) tail += CROCKFORD[random[i] % 32];
    ids[n] = `${prefix}_${head}${tail}`;
  }
  return ids;
}
