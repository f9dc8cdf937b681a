import type { SqlSession } from "@cloudcost/db";
import type { Prisma } from "./generated/prisma/client";

/** The client inside an interactive transaction. */
export type Tx = Prisma.TransactionClient;

export interface SessionTransactionOptions<T = unknown> {
  /** How long a statement of the transaction waits for a lock before it fails with 55P03 (`SET LOCAL lock_timeout`, e.g. "2s"). */
  lockTimeout?: string;
  /**
   * Rolls the transaction back, rather than committing it, when `fn`'s result says so (a refusal
   * found by the transaction's own statements: nothing it wrote is kept); the result is still returned.
   */
  rollbackIf?: (result: T) => boolean;
}

/**
 * Runs `fn` in a transaction of `session`, a dedicated connection (`SqlClient.withSession`; Prisma's
 * `$transaction` for the pool): BEGIN, then COMMIT once `fn` resolves (ROLLBACK when `rollbackIf`
 * holds for its result, which is returned either way); ROLLBACK, and the error thrown again, when
 * `fn` or the COMMIT fails (a failing ROLLBACK then does not hide that error).
 */
export async function inSessionTransaction<T>(session: SqlSession, fn: () => Promise<T>, options: SessionTransactionOptions<T> = {}): Promise<T> {
  await session.query("BEGIN");
  try {
    if (options.lockTimeout !== undefined) await session.query(`SET LOCAL lock_timeout = '${options.lockTimeout}'`);
    const result = await fn();
    await session.query(options.rollbackIf?.(result) ? "ROLLBACK" : "COMMIT");
    return result;
  } catch (err) {
    await session.query("ROLLBACK").catch(() => undefined);
    throw err;
  }
}
