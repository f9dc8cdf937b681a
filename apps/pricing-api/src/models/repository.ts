import type { CheckedStatement, RowOf } from "@cloudcost/db";
import { iso } from "../store/columns";
import type { Sql } from "../store/transaction";
import { closeSql, identitySql } from "../store/versioned-repository";

const ROW_COLUMNS = {
  id: "text",
  model_key: "bpchar",
  provider: "text",
  publisher: "text",
  host: "text",
  model: "text",
  model_id: "text",
  region: "text",
  token_bucket: "text",
  unit_price_per_mtok: "text",
  currency: "bpchar",
  effective_from: "timestamptz",
  effective_to: "timestamptz null",
  fetched_at: "timestamptz null",
  sku_price_id: "text null",
  source: "text null",
  source_url: "text null",
  context_limit: "int4 null",
  output_limit: "int4 null",
  modalities_input: "text[] null",
  modalities_output: "text[] null",
  open_weights: "bool null",
  reasoning: "bool null",
  structured_output: "bool null",
  tool_call: "bool null",
  raw_pricing_data: "jsonb",
  tags: "jsonb",
} as const;

/** A model_prices row as selected by SELECT_LIST (numerics as text). */
export type ModelRow = Omit<RowOf<typeof ROW_COLUMNS>, "raw_pricing_data" | "tags" | "modalities_input" | "modalities_output"> & {
  raw_pricing_data: Record<string, unknown>;
  tags: Record<string, unknown>;
  // Nullable in the schema, but every write (insert and update alike) sends an array: detailsOf in model-rows.ts.
  modalities_input: string[];
  modalities_output: string[];
};

const SELECT_LIST = `id, model_key, provider, publisher, host, model, model_id, region, token_bucket,
  unit_price_per_mtok::text AS unit_price_per_mtok, currency, effective_from, effective_to, fetched_at,
  sku_price_id, source, source_url, context_limit, output_limit, modalities_input, modalities_output,
  open_weights, reasoning, structured_output, tool_call, raw_pricing_data, tags`;

const TABLE = "model_prices";
const IDENTITY_ROW_COLUMNS = { model_key: "bpchar", token_bucket: "text" } as const;

/** The statements closeVersionedRow (versioned-rows.ts) runs on this table. */
export const MODEL_VERSIONED = { identitySql: identitySql(TABLE, "model_key, token_bucket"), closeSql: closeSql(TABLE, SELECT_LIST) };

const DETAIL_COLUMNS = `fetched_at timestamptz, sku_price_id text, source text, source_url text, context_limit int,
  output_limit int, modalities_input text[], modalities_output text[], open_weights boolean, reasoning boolean,
  structured_output boolean, tool_call boolean, raw_pricing_data jsonb, tags jsonb`;
const DETAIL_NAMES = `fetched_at, sku_price_id, source, source_url, context_limit, output_limit, modalities_input,
  modalities_output, open_weights, reasoning, structured_output, tool_call, raw_pricing_data, tags`;

/** The fields of an entry that change in place (no new version): as returned, and as written back. */
export function modelDetailsOf(row: ModelRow) {
  return {
    fetched_at: iso(row.fetched_at ?? null),
    sku_price_id: row.sku_price_id,
    source: row.source,
    source_url: row.source_url,
    context_limit: row.context_limit,
    output_limit: row.output_limit,
    modalities_input: row.modalities_input,
    modalities_output: row.modalities_output,
    open_weights: row.open_weights,
    reasoning: row.reasoning,
    structured_output: row.structured_output,
    tool_call: row.tool_call,
    raw_pricing_data: row.raw_pricing_data,
    tags: row.tags,
  };
}

// Per identity, the newest version only: the latest effective_from is the first entry of a backward
// walk of the (account, model_key, token_bucket, effective_from) index (max), and only the rows of that
// effective_from are read and ordered by id. A model changes price with every version, so DISTINCT ON
// over all of them (as before) read and sorted every version ever registered, and a registration of the
// same entries cost more each time (test/model-registration-flat.test.ts). ORDER BY effective_from
// DESC, id DESC LIMIT 1 sorted them all as well: the index does not hold id.
const LATEST_SQL = `SELECT m.* FROM (SELECT DISTINCT k->>0 AS model_key, k->>1 AS token_bucket FROM jsonb_array_elements($2::jsonb) AS k) AS k
     CROSS JOIN LATERAL (
       SELECT ${SELECT_LIST} FROM model_prices
        WHERE account_id = $1 AND model_key = k.model_key::bpchar AND token_bucket = k.token_bucket
          AND effective_from = (
            SELECT max(effective_from) FROM model_prices
             WHERE account_id = $1 AND model_key = k.model_key::bpchar AND token_bucket = k.token_bucket)
        ORDER BY id DESC
        LIMIT 1) AS m`;

/** The latest version of each identity (`identities`: "model_key|token_bucket"). */
export function findLatestRows(tx: Sql, accountId: string, identities: string[]): Promise<ModelRow[]> {
  const { sql, params } = latestRowsStatement(accountId, identities);
  return tx.$queryRawUnsafe<ModelRow[]>(sql, ...params);
}

/** findLatestRows' statement and parameters (also for tests that read its plan). */
export function latestRowsStatement(accountId: string, identities: string[]): { sql: string; params: unknown[] } {
  return { sql: LATEST_SQL, params: [accountId, JSON.stringify(identities.map((identity) => identity.split("|")))] };
}

const ASSIGNMENTS = DETAIL_NAMES.split(",")
  .map((name) => name.trim())
  .map((name) => `${name} = v.${name}`)
  .join(", ");

// The ids again as an array ($3), so that the rows are found by primary key whatever the planner
// knows: joined with the JSON rows alone, the statement was planned without statistics as a hash
// join over every version of the account (24,000 rows read to close 10).
const UPDATE_SQL = `UPDATE model_prices AS m SET effective_to = v.effective_to, ${ASSIGNMENTS}, updated_at = now()
       FROM jsonb_to_recordset($2::jsonb) AS v(id text, effective_to timestamptz, ${DETAIL_COLUMNS})
      WHERE m.account_id = $1 AND m.id = ANY($3::text[]) AND m.id = v.id`;

/** Writes the rows' effective_to and details. */
export async function updateRows(tx: Sql, accountId: string, rows: ModelRow[]): Promise<void> {
  const { sql, params } = updateRowsStatement(accountId, rows);
  await tx.$queryRawUnsafe(sql, ...params);
}

/** updateRows' statement and parameters (also for tests that read its plan). */
export function updateRowsStatement(accountId: string, rows: ModelRow[]): { sql: string; params: unknown[] } {
  const payload = rows.map((row) => ({ id: row.id, effective_to: row.effective_to?.toISOString() ?? null, ...modelDetailsOf(row) }));
  return { sql: UPDATE_SQL, params: [accountId, JSON.stringify(payload), rows.map((row) => row.id)] };
}

const INSERT_SQL = `INSERT INTO model_prices (account_id, id, model_key, provider, publisher, host, model, model_id, region, token_bucket,
       unit_price_per_mtok, currency, effective_from, effective_to, ${DETAIL_NAMES})
     SELECT $1, v.id, v.model_key, v.provider, v.publisher, v.host, v.model, v.model_id, v.region, v.token_bucket,
       v.unit_price_per_mtok, v.currency, v.effective_from, v.effective_to, ${DETAIL_NAMES.replace(/(\w+)/g, "v.$1")}
       FROM jsonb_to_recordset($2::jsonb) AS v(id text, model_key text, provider text, publisher text, host text, model text,
         model_id text, region text, token_bucket text, unit_price_per_mtok numeric, currency text,
         effective_from timestamptz, effective_to timestamptz, ${DETAIL_COLUMNS})`;

export async function insertRows(tx: Sql, accountId: string, rows: ModelRow[]): Promise<void> {
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
  await tx.$queryRawUnsafe(INSERT_SQL, accountId, JSON.stringify(payload));
}

const FILTER_COLUMNS = ["provider", "publisher", "host", "model", "model_id", "region", "token_bucket"] as const;
export type ModelFilters = Partial<Record<(typeof FILTER_COLUMNS)[number], string>>;

const listSql = (filtered: readonly string[], includeClosed: boolean) => {
  const where = ["account_id = $1", ...filtered.map((column, i) => `${column} = $${i + 2}`)];
  if (!includeClosed) where.push("(effective_to IS NULL OR effective_to > now())");
  return `SELECT ${SELECT_LIST} FROM model_prices WHERE ${where.join(" AND ")} ORDER BY effective_from DESC, id DESC`;
};

/** The account's rows matching the filters, open ones only unless `includeClosed`; newest first. */
export function findModels(db: Sql, accountId: string, filters: ModelFilters, includeClosed: boolean): Promise<ModelRow[]> {
  const filtered = FILTER_COLUMNS.filter((column) => filters[column] !== undefined);
  return db.$queryRawUnsafe<ModelRow[]>(listSql(filtered, includeClosed), accountId, ...filtered.map((column) => filters[column]));
}

/** Only what usage pricing reads (fewer columns: the family query may return thousands of rows). */
const PRICING_COLUMNS = {
  id: "text",
  model_key: "bpchar",
  model: "text",
  model_id: "text",
  token_bucket: "text",
  unit_price_per_mtok: "text",
  currency: "bpchar",
  effective_from: "timestamptz",
  effective_to: "timestamptz null",
} as const;
export type ModelPricingRow = RowOf<typeof PRICING_COLUMNS>;

const PRICING_SELECT_LIST =
  "id, model_key, model, model_id, token_bucket, unit_price_per_mtok::text AS unit_price_per_mtok, currency, effective_from, effective_to";

// The named rows' ids and model keys are collected first into arrays, so that both halves are index
// scans (primary key; account, model key, bucket, from) whatever the account holds: a subquery or an
// OR of both halves is planned as a scan of the whole account (docs/performance.md, "Usage pricing").
const FAMILIES_SQL = `WITH named AS MATERIALIZED (
       SELECT id, model_key FROM model_prices WHERE account_id = $1 AND id = ANY(ARRAY(SELECT jsonb_array_elements_text($2::jsonb))))
     SELECT ${PRICING_SELECT_LIST} FROM model_prices WHERE account_id = $1 AND id = ANY(ARRAY(SELECT id FROM named))
     UNION
     SELECT ${PRICING_SELECT_LIST} FROM model_prices
      WHERE account_id = $1 AND model_key = ANY(ARRAY(SELECT DISTINCT model_key FROM named))
        AND effective_from <= $4 AND (effective_to IS NULL OR effective_to > $3)`;

/**
 * The account's rows `ids`, and every version of their models (same model_key) in effect somewhere
 * in [span.from, span.to].
 */
export function findModelFamilies(db: Sql, accountId: string, ids: string[], span: { from: Date; to: Date }): Promise<ModelPricingRow[]> {
  return db.$queryRawUnsafe<ModelPricingRow[]>(FAMILIES_SQL, accountId, JSON.stringify(ids), span.from, span.to);
}

/** Every query the model price service makes (service.ts, createModelService). */
export const modelRepository = { findLatestRows, updateRows, insertRows, findModels };
export type ModelRepository = typeof modelRepository;

/** The raw statements of this module, for test/repository-row-types.test.ts. */
export function checkedStatements(): CheckedStatement[] {
  return [
    { name: "model latest versions", sql: LATEST_SQL, columns: ROW_COLUMNS },
    { name: "model update", sql: UPDATE_SQL, columns: null },
    { name: "model insert", sql: INSERT_SQL, columns: null },
    { name: "model list (every filter)", sql: listSql(FILTER_COLUMNS, false), columns: ROW_COLUMNS },
    { name: "model list (closed too)", sql: listSql([], true), columns: ROW_COLUMNS },
    { name: "model identity", sql: MODEL_VERSIONED.identitySql, columns: IDENTITY_ROW_COLUMNS },
    { name: "model close", sql: MODEL_VERSIONED.closeSql, columns: ROW_COLUMNS },
    { name: "model families for usage pricing", sql: FAMILIES_SQL, columns: PRICING_COLUMNS },
  ];
}
