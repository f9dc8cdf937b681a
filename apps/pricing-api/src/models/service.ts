import { Decimal } from "@cloudcost/decimal";
import type { ModelListQuery, ModelPricingEntry, ModelPricingEntryData } from "@cloudcost/contracts";
import { newId } from "@cloudcost/db";
import type { Prisma } from "../db";
import { keyIn, storedAmount } from "../store/columns";
import { inTransaction } from "../store/transaction";
import { findLatestRows, findModels, insertRows, MODEL_VERSIONED, type ModelRow, updateRows } from "./repository";
import { detailsDiffer, detailsOf, modelKeyOf, toModelEntry } from "./rows";
import { closeVersionedRow, registerVersions, type VersionedTable, type VersionPolicy } from "../store/versioned-rows";

const identityOf = (row: { model_key: string; token_bucket: string }) => `${row.model_key}|${row.token_bucket}`;
const lockNameOf = (accountId: string, identity: string) => `model:${accountId}:${identity}`;
const MODEL_TABLE: VersionedTable = {
  ...MODEL_VERSIONED,
  lockName: (accountId, row) => lockNameOf(accountId, identityOf(row as { model_key: string; token_bucket: string })),
  what: "model",
};

const modelVersions = (accountId: string): VersionPolicy<ModelPricingEntryData, ModelRow> => ({
  noun: "entry",
  identityOfEntry: (entry) => identityOf({ model_key: modelKeyOf(entry), token_bucket: entry.token_bucket }),
  identityOfRow: identityOf,
  lockName: (identity) => lockNameOf(accountId, identity),
  findLatest: (tx, identities) => findLatestRows(tx, accountId, identities),
  sameRate: (open, entry) => new Decimal(open.unit_price_per_mtok).eq(storedAmount(entry.unit_price_per_mtok)) && open.currency === entry.currency,
  refresh: (open, entry) => {
    const details = detailsOf(entry);
    if (!detailsDiffer(open, details)) return false;
    Object.assign(open, details);
    return true;
  },
  newRow: (entry, from) => ({
    id: newId("mpr"),
    model_key: modelKeyOf(entry),
    provider: entry.provider,
    publisher: keyIn(entry.publisher),
    host: keyIn(entry.host),
    model: entry.model,
    model_id: keyIn(entry.model_id),
    region: keyIn(entry.region),
    token_bucket: entry.token_bucket,
    unit_price_per_mtok: storedAmount(entry.unit_price_per_mtok),
    currency: entry.currency,
    effective_from: from,
    effective_to: null,
    ...detailsOf(entry),
  }),
  update: (tx, rows) => updateRows(tx, accountId, rows),
  insert: (tx, rows) => insertRows(tx, accountId, rows),
});

/**
 * Registers a batch all or nothing (registerVersions): the identity is (account, provider,
 * publisher, host, model, model_id, region, token_bucket); the same price and currency keep the
 * open row, its other fields updated in place.
 */
export async function registerModels(prisma: Prisma, accountId: string, entries: ModelPricingEntryData[]): Promise<ModelPricingEntry[]> {
  const rows = await inTransaction(prisma, (tx) => registerVersions(tx, modelVersions(accountId), entries));
  return rows.map(toModelEntry);
}

/** Open rows (effective_to null or in the future), or every version with include_closed; newest first. */
export async function listModels(prisma: Prisma, accountId: string, query: ModelListQuery): Promise<ModelPricingEntry[]> {
  const rows = await findModels(prisma, accountId, query, query.include_closed ?? false);
  return rows.map(toModelEntry);
}

/** Closes a live or scheduled row (versioned-rows.ts); unknown, another account's or closed: 404. */
export async function closeModel(prisma: Prisma, accountId: string, id: string): Promise<ModelPricingEntry> {
  return inTransaction(prisma, async (tx) => toModelEntry(await closeVersionedRow<ModelRow>(tx, MODEL_TABLE, accountId, id)));
}
