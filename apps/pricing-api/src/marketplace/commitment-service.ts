import Decimal from "decimal.js";
import type { CommitmentRate, CommitmentRateData, CommitmentRateListQuery } from "@cloudcost/contracts";
import { newId } from "@cloudcost/db";
import type { Prisma } from "../db";
import { inTransaction } from "../store/transaction";
import { COMMITMENT_VERSIONED, type CommitmentRateRow, closeRates, findLatestRates, findRates, insertRates } from "./commitment-repository";
import { identityOf, storedDiscount, storedIdentity, toCommitmentRate } from "./commitment-rows";
import { closeVersionedRow, registerVersions, type VersionedTable, type VersionPolicy } from "./versioned-rows";

const lockNameOf = (accountId: string, identity: string) => `commitment:${accountId}:${identity}`;
const COMMITMENT_TABLE: VersionedTable = {
  ...COMMITMENT_VERSIONED,
  lockName: (accountId, row) => lockNameOf(accountId, identityOf(row as unknown as CommitmentRateRow)),
  what: "commitment rate",
};

const commitmentVersions = (accountId: string): VersionPolicy<CommitmentRateData, CommitmentRateRow> => ({
  noun: "rate",
  identityOfEntry: (entry) => identityOf(storedIdentity(entry)),
  identityOfRow: identityOf,
  lockName: (identity) => lockNameOf(accountId, identity),
  findLatest: (tx, identities) => findLatestRates(tx, accountId, identities),
  sameRate: (open, entry) => new Decimal(open.discount_percent).eq(storedDiscount(entry)),
  newRow: (entry, from) => ({
    id: newId("cmr"),
    ...storedIdentity(entry),
    discount_percent: storedDiscount(entry),
    effective_from: from,
    effective_to: null,
  }),
  update: (tx, rows) => closeRates(tx, accountId, rows),
  insert: (tx, rows) => insertRates(tx, accountId, rows),
});

/**
 * Registers a batch all or nothing, versioned like negotiated compute prices (docs/api.md,
 * "Commitment rates", and registerVersions): the identity is (account, provider, commitment_type,
 * term_months, payment_option, service_category, region, family); the same discount keeps the open row.
 */
export async function registerCommitmentRates(prisma: Prisma, accountId: string, entries: CommitmentRateData[]): Promise<CommitmentRate[]> {
  const rows = await inTransaction(prisma, (tx) => registerVersions(tx, commitmentVersions(accountId), entries));
  return rows.map(toCommitmentRate);
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
