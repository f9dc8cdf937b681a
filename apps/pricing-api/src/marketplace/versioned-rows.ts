import { badRequest, notFound } from "@cloudcost/http";
import { lockAll } from "../store/locks";
import type { Sql } from "../store/transaction";
import { closeOpenRow, findIdentity } from "./versioned-repository";

/**
 * The rules model prices and negotiated compute prices share: each identity has at most one open
 * row, a change closes it and opens the next version.
 */

/** The next version's effective_from: the given one (later than the open row's), or now. */
export function nextEffectiveFrom(openFrom: Date, given: string | null | undefined, now: Date, index: number): Date {
  const path = `entries.${index}.effective_from`;
  const error = (message: string) => badRequest(`${path}: ${message}`, [{ path, message: `must be later than ${openFrom.toISOString()}` }]);
  if (given) {
    const from = new Date(given);
    if (from > openFrom) return from;
    throw error(`must be later than the open row's effective_from (${openFrom.toISOString()})`);
  }
  if (now > openFrom) return now;
  // Two changes within one millisecond: the later one starts a millisecond after the earlier one.
  if (now.getTime() === openFrom.getTime()) return new Date(openFrom.getTime() + 1);
  throw error(`a price change is already scheduled for ${openFrom.toISOString()}; send an effective_from later than that`);
}

export interface VersionedTable {
  /** The statement that reads a row's identity columns (what its advisory lock is taken on): versioned-repository.ts. */
  identitySql: string;
  /** The statement that closes a row and answers with it: versioned-repository.ts. */
  closeSql: string;
  /** The advisory lock name of an identity row. */
  lockName: (accountId: string, identityRow: Record<string, unknown>) => string;
  /** "model" or "compute": named in the 404. */
  what: string;
}

/**
 * Closes a live or scheduled row inside the caller's transaction: effective_to = now (or its own
 * effective_from when it was scheduled for later, so it never takes effect). Unknown, another
 * account's or already closed: 404.
 */
export async function closeVersionedRow<Row>(tx: Sql, spec: VersionedTable, accountId: string, id: string): Promise<Row> {
  const missing = () => notFound(`No open ${spec.what} pricing entry with id ${id}.`);
  const target = await findIdentity(tx, spec.identitySql, accountId, id);
  if (!target) throw missing();
  await lockAll(tx, [spec.lockName(accountId, target)]);
  const row = await closeOpenRow<Row>(tx, spec.closeSql, accountId, id, new Date());
  if (!row) throw missing();
  return row;
}
