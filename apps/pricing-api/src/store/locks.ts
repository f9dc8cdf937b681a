import { sha256 } from "./hash";
import type { Sql } from "./transaction";

/** A signed 64-bit advisory lock key for `text` (sha256-derived; collisions only serialise more). */
export function lockKey(text: string): bigint {
  return BigInt.asIntN(64, BigInt(`0x${sha256(`cloudcost-pricing:${text}`).slice(0, 16)}`));
}

/** Takes transaction-scoped advisory locks on all keys, in ascending order (no deadlocks). */
export async function lockAll(tx: Sql, keys: Iterable<string>): Promise<void> {
  const sorted = [...new Set([...keys].map(lockKey))].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  if (sorted.length === 0) return;
  await tx.$queryRawUnsafe(
    `SELECT count(pg_advisory_xact_lock(k.key::bigint)::text)::int AS n FROM jsonb_array_elements_text($1::jsonb) AS k(key)`,
    JSON.stringify(sorted.map(String)),
  );
}
