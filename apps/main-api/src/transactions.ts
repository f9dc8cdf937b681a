import type { Prisma } from "./generated/prisma/client";

/** The client inside an interactive transaction. */
export type Tx = Prisma.TransactionClient;

/**
 * Waits long enough for a queued transaction: the embedded database serialises them on one
 * connection, so a burst of concurrent requests queues rather than fails.
 */
export const TRANSACTION_OPTIONS = { maxWait: 20_000, timeout: 20_000 } as const;

/** A unique-constraint violation (Prisma P2002), whichever driver adapter reported it. */
export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; cause?: { code?: string }; meta?: { driverAdapterError?: { cause?: { kind?: string } } } };
  return e?.code === "P2002" || e?.meta?.driverAdapterError?.cause?.kind === "UniqueConstraintViolation";
}
