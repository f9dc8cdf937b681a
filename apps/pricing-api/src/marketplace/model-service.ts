import Decimal from "decimal.js";
import type { ModelListQuery, ModelPricingEntry, ModelPricingEntryData } from "@cloudcost/contracts";
import { newId } from "@cloudcost/db";
import { badRequest } from "@cloudcost/http";
import type { Prisma } from "../db";
import { keyIn, storedAmount } from "../store/columns";
import { lockAll } from "../store/locks";
import { inTransaction, type Sql } from "../store/transaction";
import { detailsDiffer, detailsOf, MODEL_COLUMNS, modelDetailsOf, modelKeyOf, toModelEntry, type ModelRow } from "./model-rows";
import { closeVersionedRow, nextEffectiveFrom, type VersionedTable } from "./versioned-rows";

const identityOf = (row: { model_key: string; token_bucket: string }) => `${row.model_key}|${row.token_bucket}`;
const lockNameOf = (accountId: string, identity: string) => `model:${accountId}:${identity}`;
const MODEL_TABLE: VersionedTable = {
  table: "model_prices",
  columns: MODEL_COLUMNS,
  identityColumns: "model_key, token_bucket",
  lockName: (accountId, row) => lockNameOf(accountId, identityOf(row as { model_key: string; token_bucket: string })),
  what: "model",
};

const DETAIL_COLUMNS = `fetched_at timestamptz, sku_price_id text, source text, source_url text, context_limit int,
  output_limit int, modalities_input text[], modalities_output text[], open_weights boolean, reasoning boolean,
  structured_output boolean, tool_call boolean, raw_pricing_data jsonb, tags jsonb`;
const DETAIL_NAMES = `fetched_at, sku_price_id, source, source_url, context_limit, output_limit, modalities_input,
  modalities_output, open_weights, reasoning, structured_output, tool_call, raw_pricing_data, tags`;

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
    for (const row of await latestRows(tx, accountId, identities)) latest.set(identityOf(row), row);

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

async function latestRows(tx: Sql, accountId: string, identities: string[]): Promise<ModelRow[]> {
  const keys = identities.map((identity) => identity.split("|"));
  return tx.$queryRawUnsafe<ModelRow[]>(
    `SELECT DISTINCT ON (model_key, token_bucket) ${MODEL_COLUMNS}
       FROM model_prices
      WHERE account_id = $1
        AND (model_key, token_bucket) IN (SELECT k->>0, k->>1 FROM jsonb_array_elements($2::jsonb) AS k)
      ORDER BY model_key, token_bucket, effective_from DESC, id DESC`,
    accountId,
    JSON.stringify(keys),
  );
}

async function updateRows(tx: Sql, accountId: string, rows: ModelRow[]): Promise<void> {
  const payload = rows.map((row) => ({ id: row.id, effective_to: row.effective_to?.toISOString() ?? null, ...modelDetailsOf(row) }));
  const assignments = DETAIL_NAMES.split(",")
    .map((name) => name.trim())
    .map((name) => `${name} = v.${name}`)
    .join(", ");
  await tx.$queryRawUnsafe(
    `UPDATE model_prices AS m SET effective_to = v.effective_to, ${assignments}, updated_at = now()
       FROM jsonb_to_recordset($2::jsonb) AS v(id text, effective_to timestamptz, ${DETAIL_COLUMNS})
      WHERE m.account_id = $1 AND m.id = v.id`,
    accountId,
    JSON.stringify(payload),
  );
}

async function insertRows(tx: Sql, accountId: string, rows: ModelRow[]): Promise<void> {
  const payload = rows.map((row) => ({
    id: row.id,
    model_key: row.model_key,
    provider: row.provider,
    publisher: row.publisher,
    host: row.host,
    model: row.model,
    model_id: row.model_id,
    region: row.region,
    token_bucket: row.token_bucket,
    unit_price_per_mtok: row.unit_price_per_mtok,
    currency: row.currency,
    effective_from: row.effective_from.toISOString(),
    effective_to: row.effective_to?.toISOString() ?? null,
    ...modelDetailsOf(row),
  }));
  await tx.$queryRawUnsafe(
    `INSERT INTO model_prices (account_id, id, model_key, provider, publisher, host, model, model_id, region, token_bucket,
       unit_price_per_mtok, currency, effective_from, effective_to, ${DETAIL_NAMES})
     SELECT $1, v.id, v.model_key, v.provider, v.publisher, v.host, v.model, v.model_id, v.region, v.token_bucket,
       v.unit_price_per_mtok, v.currency, v.effective_from, v.effective_to, ${DETAIL_NAMES.replace(/(\w+)/g, "v.$1")}
       FROM jsonb_to_recordset($2::jsonb) AS v(id text, model_key text, provider text, publisher text, host text, model text,
         model_id text, region text, token_bucket text, unit_price_per_mtok numeric, currency text,
         effective_from timestamptz, effective_to timestamptz, ${DETAIL_COLUMNS})`,
    accountId,
    JSON.stringify(payload),
  );
}

const FILTER_COLUMNS = ["provider", "publisher", "host", "model", "model_id", "region", "token_bucket"] as const;

/** Open rows (effective_to null or in the future), or every version with include_closed; newest first. */
export async function listModels(prisma: Prisma, accountId: string, query: ModelListQuery): Promise<ModelPricingEntry[]> {
  const params: unknown[] = [accountId];
  const where = ["account_id = $1"];
  for (const column of FILTER_COLUMNS) {
    const value = query[column];
    if (value === undefined) continue;
    params.push(value);
    where.push(`${column} = $${params.length}`);
  }
  if (!query.include_closed) where.push("(effective_to IS NULL OR effective_to > now())");
  const rows = await prisma.$queryRawUnsafe<ModelRow[]>(
    `SELECT ${MODEL_COLUMNS} FROM model_prices WHERE ${where.join(" AND ")} ORDER BY effective_from DESC, id DESC`,
    ...params,
  );
  return rows.map(toModelEntry);
}

/** Closes a live or scheduled row (versioned-rows.ts); unknown, another account's or closed: 404. */
export async function closeModel(prisma: Prisma, accountId: string, id: string): Promise<ModelPricingEntry> {
  return inTransaction(prisma, async (tx) => toModelEntry(await closeVersionedRow<ModelRow>(tx, MODEL_TABLE, accountId, id)));
}
