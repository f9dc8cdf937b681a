import Decimal from "decimal.js";
import type { ModelListQuery, ModelPricingEntry, ModelPricingEntryData } from "@cloudcost/contracts";
import { newId } from "@cloudcost/db";
import { badRequest } from "@cloudcost/http";
import type { Prisma } from "../db";
import { keyIn, storedAmount } from "../store/columns";
import { lockAll } from "../store/locks";
import { inTransaction } from "../store/transaction";
import { findLatestRows, findModels, insertRows, MODEL_VERSIONED, type ModelRow, updateRows } from "./model-repository";
import { detailsDiffer, detailsOf, modelKeyOf, toModelEntry } from "./model-rows";
import { closeVersionedRow, nextEffectiveFrom, type VersionedTable } from "./versioned-rows";

const identityOf = (row: { model_key: string; token_bucket: string }) => `${row.model_key}|${row.token_bucket}`;
const lockNameOf = (accountId: string, identity: string) => `model:${accountId}:${identity}`;
const MODEL_TABLE: VersionedTable = {
  ...MODEL_VERSIONED,
  lockName: (accountId, row) => lockNameOf(accountId, identityOf(row as { model_key: string; token_bucket: string })),
  what: "model",
};

/**
 * Registers a batch all or nothing. Versioning per identity (account, provider, publisher, host,
 * model, model_id, region, token_bucket): the identity's open row is the one with effective_to
 * NULL (the latest version, possibly scheduled in the future). Same price and currency: the open
 * row is kept (other fields updated in place). Another price or currency: the open row is closed
 * at the new row's effective_from and a new row opens. Every identity of the batch is locked
 * (advisory transaction locks) before its open row is read, so concurrent registrations of one
 * identity run one after the other; the partial unique index is the last line of defence.
 */
export async function registerModels(prisma: Prisma, accountId: string, entries: ModelPricingEntryData[]): Promise<ModelPricingEntry[]> {
  const prepared = entries.map((entry) => {
    const modelKey = modelKeyOf(entry);
    return { entry, modelKey, identity: identityOf({ model_key: modelKey, token_bucket: entry.token_bucket }) };
  });
  const identities = [...new Set(prepared.map((p) => p.identity))];

  return inTransaction(prisma, async (tx) => {
    await lockAll(
      tx,
      identities.map((identity) => lockNameOf(accountId, identity)),
    );
    // Taken after the locks, so versions opened by concurrent requests are strictly ordered.
    const now = new Date();
    const latest = new Map<string, ModelRow>();
    for (const row of await findLatestRows(tx, accountId, identities)) latest.set(identityOf(row), row);

    const changed = new Map<string, ModelRow>(); // existing rows to update, by id
    const inserted: ModelRow[] = [];
    const results: ModelRow[] = [];

    prepared.forEach(({ entry, modelKey, identity }, index) => {
      const details = detailsOf(entry);
      const price = storedAmount(entry.unit_price_per_mtok);
      const current = latest.get(identity);
      const isNew = (row: ModelRow) => inserted.includes(row);
      let from: Date;
      if (current && current.effective_to === null) {
        if (new Decimal(current.unit_price_per_mtok).eq(price) && current.currency === entry.currency) {
          if (detailsDiffer(current, details)) {
            Object.assign(current, details);
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
          throw badRequest(
            `entries.${index}.effective_from: must not be earlier than ${current.effective_to.toISOString()}, when the last version of this entry ended`,
            [{ path: `entries.${index}.effective_from`, message: `must not be earlier than ${current.effective_to.toISOString()}` }],
          );
        }
      }
      const row: ModelRow = {
        id: newId("mpr"),
        model_key: modelKey,
        provider: entry.provider,
        publisher: keyIn(entry.publisher),
        host: keyIn(entry.host),
        model: entry.model,
        model_id: keyIn(entry.model_id),
        region: keyIn(entry.region),
        token_bucket: entry.token_bucket,
        unit_price_per_mtok: price,
        currency: entry.currency,
        effective_from: from,
        effective_to: null,
        ...details,
      };
      inserted.push(row);
      latest.set(identity, row);
      results.push(row);
    });

    // Close (and update) existing rows first, so the new open rows never meet a second open row.
    if (changed.size > 0) await updateRows(tx, accountId, [...changed.values()]);
    if (inserted.length > 0) await insertRows(tx, accountId, inserted);
    return results.map(toModelEntry);
  });
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
