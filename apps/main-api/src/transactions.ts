import type { SqlSession } from "@cloudcost/db";
import type { Prisma } from "./generated/prisma/client";

/** The client inside an interactive transaction. */
export type Tx = Prisma.TransactionClient;

export interface SessionTransactionOptions {
  /** How long a statement of the transaction waits for a lock before it fails with 55P03 (`SET LOCAL lock_timeout`, e.g. "2s"). */
  lockTimeout?: string;
}

/**
 * Runs `fn` in a transaction of `session`, a dedicated connection (`SqlClient.withSession`; Prisma's
 * `$transaction` for the pool): BEGIN, then COMMIT once `fn` resolves; ROLLBACK, and the error
 * thrown again, when `fn` or the COMMIT fails.
 */
export async function inSessionTransaction<T>(session: SqlSession, fn: () => Promise<T>, options: SessionTransactionOptions = {}): Promise<T> {
  await session.query("BEGIN");
  try {
    if (options.lockTimeout !== undefined) await session.query(`SET LOCAL lock_timeout = '${options.lockTimeout}'`);
    const result = await fn();
    await session.query("COMMIT");
    return result;
  } catch (err) {
    await session.query("ROLLBACK");
    throw err;
  }
}
