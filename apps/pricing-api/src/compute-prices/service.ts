import { Decimal } from "@cloudcost/decimal";
import type { ComputePricingEntry, ComputePricingEntryData, ComputePricingListQuery } from "@cloudcost/contracts";
import { newId } from "@cloudcost/db";
import type { Prisma } from "../db";
import { COMPUTE_VERSIONED, type ComputePriceRepository, type ComputeRow, type IDENTITY_COLUMNS } from "./repository";
import { identityOf, storedIdentity, storedRate, toComputeEntry } from "./rows";
import { type VersionedTable, type VersionPolicy, versionedWrites } from "../store/versioned-rows";

const lockNameOf = (accountId: string, identity: string) => `compute:${accountId}:${identity}`;
const COMPUTE_TABLE: VersionedTable = {
  ...COMPUTE_VERSIONED,
  lockName: (accountId, row) => lockNameOf(accountId, identityOf(row as Pick<ComputeRow, (typeof IDENTITY_COLUMNS)[number]>)),
  what: "compute",
};

const sameAmount = (a: string | null, b: string | null) => (a === null || b === null ? a === b : new Decimal(a).eq(b));
const sameTags = (a: Record<string, unknown>, b: Record<string, unknown>) => JSON.stringify(sortKeys(a)) === JSON.stringify(sortKeys(b));
const sortKeys = (value: Record<string, unknown>) => Object.fromEntries(Object.entries(value).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)));

const computeVersions = (prices: ComputePriceRepository, accountId: string): VersionPolicy<ComputePricingEntryData, ComputeRow> => ({
  noun: "entry",
  identityOfEntry: (entry) => identityOf(storedIdentity(entry)),
  identityOfRow: identityOf,
  lockName: (identity) => lockNameOf(accountId, identity),
  findLatest: (tx, identities) => prices.findLatestRows(tx, accountId, identities),
  sameRate: (open, entry) => {
    const rate = storedRate(entry);
    return sameAmount(open.price_per_hour, rate.price_per_hour) && sameAmount(open.discount_percent, rate.discount_percent) && open.currency === entry.currency;
  },
  refresh: (open, entry) => {
    const tags = entry.tags ?? {};
    if (sameTags(open.tags, tags)) return false;
    open.tags = tags;
    return true;
  },
  newRow: (entry, from) => ({
    id: newId("cpr"),
    ...storedIdentity(entry),
    ...storedRate(entry),
    currency: entry.currency,
    effective_from: from,
    effective_to: null,
    tags: entry.tags ?? {},
  }),
  update: (tx, rows) => prices.updateRows(tx, accountId, rows),
  insert: (tx, rows) => prices.insertRows(tx, accountId, rows),
});

/**
 * An account's negotiated compute prices (built once by compute-prices/handlers.ts): `prisma` opens
 * the transactions, every query goes through `prices`. Registering is all or nothing, versioned like
 * model prices (docs/api.md, "Model prices" and "Negotiated compute prices", and registerVersions):
 * the identity is (account, provider, region, instance_type, family, operating_system, usage_type);
 * the same rate (price or discount) and currency keep the open row, its tags updated in place.
 * Closing takes a live or scheduled row (versioned-rows.ts); unknown, another account's or closed: 404.
 */
export function createComputePriceService({ prisma, prices }: { prisma: Prisma; prices: ComputePriceRepository }) {
  const writes = versionedWrites(prisma, COMPUTE_TABLE, (accountId) => computeVersions(prices, accountId), toComputeEntry);
  return {
    registerComputePrices: writes.register,
    /** Open rows (effective_to null or in the future), or every version with include_closed; newest first. */
    listComputePrices: async (accountId: string, query: ComputePricingListQuery): Promise<ComputePricingEntry[]> =>
      (await prices.findComputePrices(prisma, accountId, query, query.include_closed ?? false)).map(toComputeEntry),
    closeComputePrice: writes.close,
  };
}
