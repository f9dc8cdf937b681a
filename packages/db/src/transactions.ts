/**
 * Interactive transaction options of both services. `maxWait`: how long a transaction waits for a
 * connection (the embedded database has one, so a burst of concurrent writes queues there rather
 * than failing); `timeout`: how long it may run. Together they stay under the HTTP server's 60 s
 * request timeout, so a transaction never outlives the request that began it. A long job outside a
 * request (replacing the compute catalog) sets its own.
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
