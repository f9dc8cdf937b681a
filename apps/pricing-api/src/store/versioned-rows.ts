import { badRequest, notFound } from "@cloudcost/http";
import { lockAll } from "./locks";
import type { Prisma } from "../db";
import { inTransaction, type Sql } from "./transaction";
import { closeOpenRow, findIdentity } from "./versioned-repository";

/**
 * The rules model prices, negotiated compute prices and commitment rates share: each identity has at most one open
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

/** A stored version: what registerVersions reads and writes of every versioned table. */
export interface VersionRow {
  id: string;
  effective_from: Date;
  effective_to: Date | null;
}

/** What differs between the versioned tables: their identity, what "the same rate" means, their rows and statements. */
export interface VersionPolicy<Entry extends { effective_from?: string | null }, Row extends VersionRow> {
  /** "entry" or "rate": named in the 400 of an effective_from before the last version's end. */
  noun: string;
  identityOfEntry(entry: Entry): string;
  identityOfRow(row: Row): string;
  lockName(identity: string): string;
  findLatest(tx: Sql, identities: string[]): Promise<Row[]>;
  /** True when the entry keeps the open row. */
  sameRate(open: Row, entry: Entry): boolean;
  /** Updates the kept open row's other fields in place; true when anything changed. */
  refresh?(open: Row, entry: Entry): boolean;
  newRow(entry: Entry, from: Date): Row;
  /** Writes the changed existing rows (closed, or refreshed in place). */
  update(tx: Sql, rows: Row[]): Promise<void>;
  insert(tx: Sql, rows: Row[]): Promise<void>;
}

/**
 * Registers a batch inside the caller's transaction, all or nothing: per identity the open row is
 * the one with effective_to NULL (the latest version, possibly scheduled in the future). The same
 * rate keeps the open row (refreshed in place); another rate closes it at the new row's
 * effective_from and opens a new row. Every identity is locked (advisory transaction locks) before
 * its open row is read, so concurrent registrations of one identity run one after the other; the
 * partial unique index on open rows is the last line of defence. Answers the rows in entry order.
 */
export async function registerVersions<Entry extends { effective_from?: string | null }, Row extends VersionRow>(
  tx: Sql,
  policy: VersionPolicy<Entry, Row>,
  entries: Entry[],
): Promise<Row[]> {
  const identities = entries.map((entry) => policy.identityOfEntry(entry));
  const distinct = [...new Set(identities)];
  await lockAll(
    tx,
    distinct.map((identity) => policy.lockName(identity)),
  );
  // Taken after the locks, so versions opened by concurrent requests are strictly ordered.
  const now = new Date();
  const latest = new Map<string, Row>();
  for (const row of await policy.findLatest(tx, distinct)) latest.set(policy.identityOfRow(row), row);

  const changed = new Map<string, Row>(); // existing rows to update, by id
  const inserted = new Set<Row>();
  const results = entries.map((entry, index) => {
    const identity = identities[index] as string;
    const open = latest.get(identity);
    let from: Date;
    if (open && open.effective_to === null) {
      if (policy.sameRate(open, entry)) {
        if (policy.refresh?.(open, entry) && !inserted.has(open)) changed.set(open.id, open);
        return open;
      }
      from = nextEffectiveFrom(open.effective_from, entry.effective_from, now, index);
      open.effective_to = from;
      if (!inserted.has(open)) changed.set(open.id, open);
    } else {
      from = entry.effective_from ? new Date(entry.effective_from) : now;
      if (open?.effective_to && from < open.effective_to) {
        const end = open.effective_to.toISOString();
        throw badRequest(`entries.${index}.effective_from: must not be earlier than ${end}, when the last version of this ${policy.noun} ended`, [
          { path: `entries.${index}.effective_from`, message: `must not be earlier than ${end}` },
        ]);
      }
    }
    const row = policy.newRow(entry, from);
    inserted.add(row);
    latest.set(identity, row);
    return row;
  });

  // Close (and update) existing rows first, so the new open rows never meet a second open row.
  if (changed.size > 0) await policy.update(tx, [...changed.values()]);
  if (inserted.size > 0) await policy.insert(tx, [...inserted]);
  return results;
}

/**
 * The register and close operations of a versioned service, each in a transaction of its own:
 * registerVersions under the account's policy, closeVersionedRow on its table, the rows answered
 * through `toEntry`.
 */
export function versionedWrites<Entry extends { effective_from?: string | null }, Row extends VersionRow, Out>(
  prisma: Prisma,
  table: VersionedTable,
  policyOf: (accountId: string) => VersionPolicy<Entry, Row>,
  toEntry: (row: Row) => Out,
) {
  return {
    register: async (accountId: string, entries: Entry[]): Promise<Out[]> =>
      (await inTransaction(prisma, (tx) => registerVersions(tx, policyOf(accountId), entries))).map(toEntry),
    close: async (accountId: string, id: string): Promise<Out> =>
      inTransaction(prisma, async (tx) => toEntry(await closeVersionedRow<Row>(tx, table, accountId, id))),
  };
}
