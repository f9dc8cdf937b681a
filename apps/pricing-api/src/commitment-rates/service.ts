import { Decimal } from "@cloudcost/decimal";
import type { CommitmentRate, CommitmentRateData, CommitmentRateListQuery } from "@cloudcost/contracts";
import { newId } from "@cloudcost/db";
import { conflict } from "@cloudcost/http";
import type { Prisma } from "../db";
import { lockAll } from "../store/locks";
import { inTransaction } from "../store/transaction";
import { COMMITMENT_VERSIONED, type CommitmentRateRepository, type CommitmentRateRow } from "./repository";
import { identityOf, storedDiscount, storedIdentity, toCommitmentRate } from "./rows";
import { registerVersions, type VersionedTable, type VersionPolicy, versionedWrites } from "../store/versioned-rows";

const lockNameOf = (accountId: string, identity: string) => `commitment:${accountId}:${identity}`;
const COMMITMENT_TABLE: VersionedTable = {
  ...COMMITMENT_VERSIONED,
  lockName: (accountId, row) => lockNameOf(accountId, identityOf(row as unknown as CommitmentRateRow)),
  what: "commitment rate",
};

const commitmentVersions = (rates: CommitmentRateRepository, accountId: string): VersionPolicy<CommitmentRateData, CommitmentRateRow> => ({
  noun: "rate",
  identityOfEntry: (entry) => identityOf(storedIdentity(entry)),
  identityOfRow: identityOf,
  lockName: (identity) => lockNameOf(accountId, identity),
  findLatest: (tx, identities) => rates.findLatestRates(tx, accountId, identities),
  sameRate: (open, entry) => new Decimal(open.discount_percent).eq(storedDiscount(entry)),
  newRow: (entry, from) => ({
    id: newId("cmr"),
    ...storedIdentity(entry),
    discount_percent: storedDiscount(entry),
    effective_from: from,
    effective_to: null,
  }),
  update: (tx, rows) => rates.closeRates(tx, accountId, rows),
  insert: (tx, rows) => rates.insertRates(tx, accountId, rows),
});

/**
 * Live rates an account may hold (docs/api.md, "Limits"): the main API evaluates every one of them
 * in each purchase recommendation.
 */
export const MAX_LIVE_COMMITMENT_RATES = 100;

/**
 * An account's commitment rates (built once by app.ts: the public operations and the internal
 * listing use it): `prisma` opens the transactions, every query goes through `rates`.
 */
export function createCommitmentRateService({ prisma, rates }: { prisma: Prisma; rates: CommitmentRateRepository }) {
  const writes = versionedWrites(prisma, COMMITMENT_TABLE, (accountId) => commitmentVersions(rates, accountId), toCommitmentRate);
  /**
   * Registers a batch all or nothing, versioned like negotiated compute prices (docs/api.md,
   * "Commitment rates", and registerVersions): the identity is (account, provider, commitment_type,
   * term_months, payment_option, service_category, region, family); the same discount keeps the open row.
   * A batch that would leave the account with more than MAX_LIVE_COMMITMENT_RATES live rows is a 409
   * `limit_reached` and stores nothing. The account's lock, taken before the identities' locks, makes
   * concurrent registrations count one after the other (closing a rate only lowers the count, so it
   * takes only its identity's lock).
   */
  async function registerCommitmentRates(accountId: string, entries: CommitmentRateData[]): Promise<CommitmentRate[]> {
    const rows = await inTransaction(prisma, async (tx) => {
      await lockAll(tx, [`commitment-count:${accountId}`]);
      const registered = await registerVersions(tx, commitmentVersions(rates, accountId), entries);
      // Counted after the writes, at a time no earlier than the versions the batch closed, which no longer count.
      const live = await rates.countLiveRates(tx, accountId, new Date());
      if (live > MAX_LIVE_COMMITMENT_RATES)
        throw conflict(
          `An account holds at most ${MAX_LIVE_COMMITMENT_RATES} active commitment rates; this batch would leave ${live}. Close rates you no longer need (DELETE ?id=) first.`,
          "limit_reached",
        );
      return registered;
    });
    return rows.map(toCommitmentRate);
  }

  /** Live rows (open, or closing later than now; not a row closed before it took effect), or every version with include_closed; newest first. */
  async function listCommitmentRates(accountId: string, query: CommitmentRateListQuery): Promise<CommitmentRate[]> {
    const rows = await rates.findRates(prisma, accountId, query, query.include_closed ?? false);
    return rows.map(toCommitmentRate);
  }

  // Closing takes a live or scheduled row (versioned-rows.ts); unknown, another account's or closed: 404.
  return { registerCommitmentRates, listCommitmentRates, closeCommitmentRate: writes.close };
}

export type CommitmentRateService = ReturnType<typeof createCommitmentRateService>;
