import { IDEMPOTENCY_LOCK_TIMEOUT_SECONDS, IDEMPOTENCY_TTL_SECONDS, type BeginResult, type IdempotencyStore, type StoredResponse } from "./idempotency";

/** The one method of a SQL client the store needs (`@cloudcost/db`'s SqlClient fits). */
export interface SqlQuery {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
}

export interface SqlIdempotencyStoreOptions {
  ttlSeconds?: number;
  lockTimeoutSeconds?: number;
  /** At most one sweep of expired rows per this many milliseconds (per process). */
  purgeIntervalMs?: number;
  now?: () => number;
}

interface Row {
  fingerprint: string;
  status: number | null;
  content_type: string | null;
  body: string | null;
  error_code: string | null;
}

/**
 * The store on the service's own database, table `idempotency_keys` (PRIMARY KEY (scope, key)).
 * A claim is an INSERT ... ON CONFLICT: of two concurrent first requests exactly one inserts (or
 * takes over an expired row) and runs; the other sees the claim and gets a 409.
 */
export function sqlIdempotencyStore(sql: SqlQuery, options: SqlIdempotencyStoreOptions = {}): IdempotencyStore {
  const ttl = options.ttlSeconds ?? IDEMPOTENCY_TTL_SECONDS;
  const lockTimeout = options.lockTimeoutSeconds ?? IDEMPOTENCY_LOCK_TIMEOUT_SECONDS;
  const purgeIntervalMs = options.purgeIntervalMs ?? 10 * 60 * 1000;
  const now = options.now ?? Date.now;
  let lastPurge = 0;

  // Housekeeping across all callers (expired rows are already treated as absent by begin).
  const purgeExpired = async () => {
    if (now() - lastPurge < purgeIntervalMs) return;
    lastPurge = now();
    await sql.query(`DELETE FROM idempotency_keys WHERE created_at < now() - make_interval(secs => $1)`, [ttl]);
  };

  return {
    async begin(scope, key, fingerprint): Promise<BeginResult> {
      await purgeExpired();
      // A claim lost between the two statements (released meanwhile) is simply tried again.
      for (let attempt = 0; attempt < 3; attempt++) {
        const claimed = await sql.query(
          `INSERT INTO idempotency_keys (scope, key, fingerprint, created_at)
           VALUES ($1, $2, $3, now())
           ON CONFLICT (scope, key) DO UPDATE
             SET fingerprint = EXCLUDED.fingerprint, status = NULL, content_type = NULL, body = NULL, error_code = NULL, created_at = EXCLUDED.created_at
             WHERE idempotency_keys.created_at < now() - make_interval(secs => $4)
                OR (idempotency_keys.status IS NULL AND idempotency_keys.created_at < now() - make_interval(secs => $5))
           RETURNING scope`,
          [scope, key, fingerprint, ttl, lockTimeout],
        );
        if (claimed.length) return { outcome: "new" };
        const [existing] = await sql.query<Row>(
          `SELECT fingerprint, status, content_type, body, error_code FROM idempotency_keys WHERE scope = $1 AND key = $2`,
          [scope, key],
        );
        if (!existing) continue;
        if (existing.fingerprint !== fingerprint) return { outcome: "mismatch" };
        if (existing.status === null) return { outcome: "in_progress" };
        return {
          outcome: "replay",
          response: { status: Number(existing.status), contentType: existing.content_type, body: existing.body ?? "", errorCode: existing.error_code },
        };
      }
      return { outcome: "in_progress" };
    },

    async complete(scope, key, fingerprint, response: StoredResponse) {
      await sql.query(
        `UPDATE idempotency_keys SET status = $4, content_type = $5, body = $6, error_code = $7
         WHERE scope = $1 AND key = $2 AND fingerprint = $3 AND status IS NULL`,
        [scope, key, fingerprint, response.status, response.contentType, response.body, response.errorCode ?? null],
      );
    },

    async release(scope, key, fingerprint) {
      await sql.query(`DELETE FROM idempotency_keys WHERE scope = $1 AND key = $2 AND fingerprint = $3 AND status IS NULL`, [scope, key, fingerprint]);
    },
  };
}
