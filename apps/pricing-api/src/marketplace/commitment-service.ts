import Decimal from "decimal.js";
import type { CommitmentRate, CommitmentRateData, CommitmentRateListQuery } from "@cloudcost/contracts";
import { newId } from "@cloudcost/db";
import { badRequest } from "@cloudcost/http";
import type { Prisma } from "../db";
import { lockAll } from "../store/locks";
import { inTransaction } from "../store/transaction";
import { COMMITMENT_VERSIONED, type CommitmentRateRow, closeRates, findLatestRates, findRates, insertRates } from "./commitment-repository";
import { identityOf, storedDiscount, storedIdentity, toCommitmentRate } from "./commitment-rows";
import { closeVersionedRow, nextEffectiveFrom, type VersionedTable } from "./versioned-rows";

const lockNameOf = (accountId: string, identity: string) => `commitment:${accountId}:${identity}`;
const COMMITMENT_TABLE: VersionedTable = {
  ...COMMITMENT_VERSIONED,
  lockName: (accountId, row) => lockNameOf(accountId, identityOf(row as unknown as CommitmentRateRow)),
  what: "commitment rate",
};

/**
 * Registers a batch all or nothing, versioned like negotiated compute prices (docs/api.md,
 * "Commitment rates"): per identity (account, provider, commitment_type, term_months,
 * payment_option, service_category, region, family) the open row is the one with effective_to
 * NULL. The same discount keeps the open row; another discount closes it at the new row's
 * effective_from and opens a new row with a new id. Identities are locked before their open rows
 * are read; the partial unique index on open rows is the last line of defence.
 */
export async function registerCommitmentRates(prisma: Prisma, accountId: string, entries: CommitmentRateData[]): Promise<CommitmentRate[]> {
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
    const latest = new Map<string, CommitmentRateRow>();
    for (const row of await findLatestRates(tx, accountId, keys)) latest.set(identityOf(row), row);

    const closed = new Map<string, CommitmentRateRow>();
    const inserted: CommitmentRateRow[] = [];
    const results: CommitmentRateRow[] = [];

    prepared.forEach(({ entry, identity, key }, index) => {
      const discount = storedDiscount(entry);
      const current = latest.get(key);
      let from: Date;
      if (current && current.effective_to === null) {
        if (new Decimal(current.discount_percent).eq(discount)) {
          results.push(current);
          return;
        }
        from = nextEffectiveFrom(current.effective_from, entry.effective_from, now, index);
        current.effective_to = from;
        if (!inserted.includes(current)) closed.set(current.id, current);
      } else {
        from = entry.effective_from ? new Date(entry.effective_from) : now;
        if (current?.effective_to && from < current.effective_to) {
          const end = current.effective_to.toISOString();
          throw badRequest(`entries.${index}.effective_from: must not be earlier than ${end}, when the last version of this rate ended`, [
            { path: `entries.${index}.effective_from`, message: `must not be earlier than ${end}` },
          ]);
        }
      }
      const row: CommitmentRateRow = { id: newId("cmr"), ...identity, discount_percent: discount, effective_from: from, effective_to: null };
      inserted.push(row);
      latest.set(key, row);
      results.push(row);
    });

    // Close existing rows first, so the new open rows never meet a second open row.
    if (closed.size > 0) await closeRates(tx, accountId, [...closed.values()]);
    if (inserted.length > 0) await insertRates(tx, accountId, inserted);
    return results.map(toCommitmentRate);
  });
}

/** Live rows (effective_to null or in the future), or every version with include_closed; newest first. */
export async function listCommitmentRates(prisma: Prisma, accountId: string, query: CommitmentRateListQuery): Promise<CommitmentRate[]> {
  const rows = await findRates(prisma, accountId, query, query.include_closed ?? false);
  return rows.map(toCommitmentRate);
}

/** Closes a live or scheduled row (versioned-rows.ts); unknown, another account's or closed: 404. */
export async function closeCommitmentRate(prisma: Prisma, accountId: string, id: string): Promise<CommitmentRate> {
  return inTransaction(prisma, async (tx) => toCommitmentRate(await closeVersionedRow<CommitmentRateRow>(tx, COMMITMENT_TABLE, accountId, id)));
}
