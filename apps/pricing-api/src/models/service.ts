import { Decimal } from "@cloudcost/decimal";
import type { ModelListQuery, ModelPricingEntry, ModelPricingEntryData } from "@cloudcost/contracts";
import { newId } from "@cloudcost/db";
import type { Prisma } from "../db";
import { keyIn, storedAmount } from "../store/columns";
import { MODEL_VERSIONED, type ModelRepository, type ModelRow } from "./repository";
import { detailsDiffer, detailsOf, modelKeyOf, toModelEntry } from "./rows";
import { type VersionedTable, type VersionPolicy, versionedWrites } from "../store/versioned-rows";

const identityOf = (row: { model_key: string; token_bucket: string }) => `${row.model_key}|${row.token_bucket}`;
const lockNameOf = (accountId: string, identity: string) => `model:${accountId}:${identity}`;
const MODEL_TABLE: VersionedTable = {
  ...MODEL_VERSIONED,
  lockName: (accountId, row) => lockNameOf(accountId, identityOf(row as { model_key: string; token_bucket: string })),
  what: "model",
};

const modelVersions = (models: ModelRepository, accountId: string): VersionPolicy<ModelPricingEntryData, ModelRow> => ({
  noun: "entry",
  identityOfEntry: (entry) => identityOf({ model_key: modelKeyOf(entry), token_bucket: entry.token_bucket }),
  identityOfRow: identityOf,
  lockName: (identity) => lockNameOf(accountId, identity),
  findLatest: (tx, identities) => models.findLatestRows(tx, accountId, identities),
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
  update: (tx, rows) => models.updateRows(tx, accountId, rows),
  insert: (tx, rows) => models.insertRows(tx, accountId, rows),
});

/**
 * An account's custom model prices (built once by models/handlers.ts): `prisma` opens the
 * transactions, every query goes through `models`. Registering is all or nothing (registerVersions):
 * the identity is (account, provider, publisher, host, model, model_id, region, token_bucket); the
 * same price and currency keep the open row, its other fields updated in place. Closing takes a live
 * or scheduled row (versioned-rows.ts); unknown, another account's or closed: 404.
 */
export function createModelService({ prisma, models }: { prisma: Prisma; models: ModelRepository }) {
  const writes = versionedWrites(prisma, MODEL_TABLE, (accountId) => modelVersions(models, accountId), toModelEntry);
  /** Open rows (effective_to null or in the future), or every version with include_closed; newest first. */
  const listModels = async (accountId: string, query: ModelListQuery): Promise<ModelPricingEntry[]> =>
    (await models.findModels(prisma, accountId, query, query.include_closed ?? false)).map(toModelEntry);
  return { registerModels: writes.register, listModels, closeModel: writes.close };
}
