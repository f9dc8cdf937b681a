/**
 * The default interactive transaction options of both services, for a request's transaction:
 * `maxWait` (20 s) is how long it waits for a connection (the embedded database has one, so a
 * burst of concurrent writes queues there rather than failing); `timeout` (30 s) is how long it
 * may run before Prisma rolls it back. The HTTP server's 60 s `requestTimeout` bounds receiving a
 * request, not handling it, so it is no bound on a transaction.
 *
 * Jobs that are known to take longer pass their own options instead, each stating why:
 * - a FOCUS bill import parses its whole (already received) file inside its transaction: up to
 *   30 minutes; deleting an import, or replacing the allocation rules (which re-allocates every
 *   stored import line of the organization), up to 2 minutes (apps/main-api/src/spend/imports/service.ts);
 * - replacing the compute catalog (tens of thousands of rows, at start-up or an operator's import)
 *   waits up to 60 s for its connection and runs up to 5 minutes
 *   (apps/pricing-api/src/compute/catalog-repository.ts).
 */
export const TRANSACTION_OPTIONS = { maxWait: 20_000, timeout: 30_000 } as const;

interface ErrorLayer {
  code?: unknown;
  kind?: unknown;
  originalCode?: unknown;
  cause?: unknown;
  meta?: { driverAdapterError?: unknown };
}

/**
 * The codes a database error carries at every layer that may have thrown it: Prisma's own (P2002),
 * a raw query's P2010 wrapping the driver adapter's error, the adapter's error (`kind` and the
 * PostgreSQL SQLSTATE as `originalCode`), or the driver's (pg, PGlite: the SQLSTATE as `code`).
 */
function errorCodes(err: unknown): Set<string> {
  const codes = new Set<string>();
  const pending: unknown[] = [err];
  for (let depth = 0; pending.length && depth < 8; depth++) {
    const layer = pending.shift();
    if (!layer || typeof layer !== "object") continue;
    const { code, kind, originalCode, cause, meta } = layer as ErrorLayer;
    for (const value of [code, kind, originalCode]) if (typeof value === "string") codes.add(value);
    pending.push(cause, meta?.driverAdapterError);
  }
  return codes;
}

const hasAny = (err: unknown, wanted: string[]) => {
  const codes = errorCodes(err);
  return wanted.some((code) => codes.has(code));
};

/** A unique-constraint violation, whichever layer reported it. */
export const isUniqueViolation = (err: unknown): boolean => hasAny(err, ["P2002", "UniqueConstraintViolation", "23505"]);

/** A foreign-key violation, whichever layer reported it. */
export const isForeignKeyViolation = (err: unknown): boolean => hasAny(err, ["P2003", "ForeignKeyConstraintViolation", "23503"]);

/** A serialization failure or deadlock: the transaction may succeed when retried. */
export const isSerializationFailure = (err: unknown): boolean => hasAny(err, ["P2034", "TransactionWriteConflict", "40001", "40P01"]);
