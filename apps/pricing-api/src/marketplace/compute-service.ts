import Decimal from "decimal.js";
import type { ComputePricingEntry, ComputePricingEntryData, ComputePricingListQuery } from "@cloudcost/contracts";
import { newId } from "@cloudcost/db";
import { badRequest } from "@cloudcost/http";
import type { Prisma } from "../db";
import { lockAll } from "../store/locks";
import { inTransaction } from "../store/transaction";
import { COMPUTE_VERSIONED, type ComputeRow, findComputePrices, findLatestRows, type IDENTITY_COLUMNS, insertRows, updateRows } from "./compute-repository";
import { identityOf, storedIdentity, storedRate, toComputeEntry } from "./compute-rows";
import { closeVersionedRow, nextEffectiveFrom, type VersionedTable } from "./versioned-rows";

const lockNameOf = (accountId: string, identity: string) => `compute:${accountId}:${identity}`;
const COMPUTE_TABLE: VersionedTable = {
  ...COMPUTE_VERSIONED,
  lockName: (accountId, row) => lockNameOf(accountId, identityOf(row as Pick<ComputeRow, (typeof IDENTITY_COLUMNS)[number]>)),
  what: "compute",
};

const sameAmount = (a: string | null, b: string | null) => (a === null || b === null ? a === b : new Decimal(a).eq(b));
const sameTags = (a: Record<string, unknown>, b: Record<string, unknown>) => JSON.stringify(sortKeys(a)) === JSON.stringify(sortKeys(b));
const sortKeys = (value: Record<string, unknown>) => Object.fromEntries(Object.entries(value).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)));

/**
 * Registers a batch all or nothing, versioned like model prices (docs/api.md, "Model prices" and "Negotiated compute prices"):
 * per identity (account, provider, region, instance_type, family, operating_system, usage_type) the
 * open row is the one with effective_to NULL. Same rate (price or discount) and currency: the open
 * row is kept (tags updated in place). Another rate: the open row closes at the new row's
 * effective_from and a new row with a new id opens. Identities are locked before their open rows
 * are read; the partial unique index on open rows is the last line of defence.
 */
export async function registerComputePrices(prisma: Prisma, accountId: string, entries: ComputePricingEntryData[]): Promise<ComputePricingEntry[]> {
  const prepared = entries.map((entry) => {
    const identity = storedIdentity(entry);
    return { entry, identity, key: identityOf(identity) };
  });
  const keys = [...new Set(prepared.map((p) => p.key))];

  return inTransaction(prisma, async (tx) => {
    await lockAll(
      tx,
      keys.map((key) => lockNameOf(accountId, key)),
    );
    const now = new Date();
    const latest = new Map<string, ComputeRow>();
    for (const row of await findLatestRows(tx, accountId, keys)) latest.set(identityOf(row), row);

    const changed = new Map<string, ComputeRow>();
    const inserted: ComputeRow[] = [];
    const results: ComputeRow[] = [];

    prepared.forEach(({ entry, identity, key }, index) => {
      const rate = storedRate(entry);
      const tags = entry.tags ?? {};
      const current = latest.get(key);
      const isNew = (row: ComputeRow) => inserted.includes(row);
      let from: Date;
      if (current && current.effective_to === null) {
        const sameRate =
          sameAmount(current.price_per_hour, rate.price_per_hour) &&
          sameAmount(current.discount_percent, rate.discount_percent) &&
          current.currency === entry.currency;
        if (sameRate) {
          if (!sameTags(current.tags, tags)) {
            current.tags = tags;
            if (!isNew(current)) changed.set(current.id, current);
          }
          results.push(current);
          return;
        }
        from = nextEffectiveFrom(current.effective_from, entry.effective_from, now, index);
        current.effective_to = from;
        if (!isNew(current)) changed.set(current.id, current);
      } else {
        from = entry.effective_from ? new Date(entry.effective_from) : now;
        if (current?.effective_to && from < current.effective_to) {
          const end = current.effective_to.toISOString();
          throw badRequest(`entries.${index}.effective_from: must not be earlier than ${end}, when the last version of this entry ended`, [
            { path: `entries.${index}.effective_from`, message: `must not be earlier than ${end}` },
          ]);
        }
      }
      const row: ComputeRow = { id: newId("cpr"), ...identity, ...rate, currency: entry.currency, effective_from: from, effective_to: null, tags };
      inserted.push(row);
      latest.set(key, row);
      results.push(row);
    });

    // Close (and update) existing rows first, so the new open rows never meet a second open row.
    if (changed.size > 0) await updateRows(tx, accountId, [...changed.values()]);
    if (inserted.length > 0) await insertRows(tx, accountId, inserted);
    return results.map(toComputeEntry);
  });
}

/** Open rows (effective_to null or in the future), or every version with include_closed; newest first. */
export async function listComputePrices(prisma: Prisma, accountId: string, query: ComputePricingListQuery): Promise<ComputePricingEntry[]> {
  const rows = await findComputePrices(prisma, accountId, query, query.include_closed ?? false);
  return rows.map(toComputeEntry);
}

/** Closes a live or scheduled row (versioned-rows.ts); unknown, another account's or closed: 404. */
export async function closeComputePrice(prisma: Prisma, accountId: string, id: string): Promise<ComputePricingEntry> {
  return inTransaction(prisma, async (tx) => toComputeEntry(await closeVersionedRow<ComputeRow>(tx, COMPUTE_TABLE, accountId, id)));
}
