import { isSerializationFailure, isUniqueViolation, TRANSACTION_OPTIONS } from "@cloudcost/db";
import { retry } from "@cloudcost/http";
import type { Prisma } from "../db";

/** What the stores need from Prisma: the client itself or an interactive transaction. */
export interface Sql {
  $queryRawUnsafe<T = unknown>(query: string, ...values: unknown[]): Promise<T>;
}

/**
 * Runs `fn` in a transaction, retrying a few times when a concurrent writer won a unique race or
 * the database could not serialise it: after about 10 ms, then 20 ms (+-50 %, so that the writers
 * that collided do not collide again).
 */
export function inTransaction<T>(prisma: Prisma, fn: (tx: Sql) => Promise<T>, attempts = 3): Promise<T> {
  return retry(() => prisma.$transaction((tx) => fn(tx), TRANSACTION_OPTIONS), {
    attempts,
    retryable: (err) => isUniqueViolation(err) || isSerializationFailure(err),
    backoff: { baseMs: 10, maxMs: 100, jitter: 0.5 },
  });
}
