import { type CheckedStatement, columnsOf, type RowOf } from "@cloudcost/db";
import type { Sql } from "../store/transaction";
import { closeSql, identitySql } from "../store/versioned-repository";

/** The identity columns after the account: absent ones are stored as "" and match everything. */
export const IDENTITY_COLUMNS = ["provider", "region", "instance_type", "family", "operating_system", "usage_type"] as const;

const ROW_COLUMNS = {
  id: "text",
  provider: "text",
  region: "text",
  instance_type: "text",
  family: "text",
  operating_system: "text",
  usage_type: "text",
  price_per_hour: "text null",
  discount_percent: "text null",
  currency: "bpchar",
  effective_from: "timestamptz",
  effective_to: "timestamptz null",
  tags: "jsonb",
} as const;

/** A negotiated_compute_prices row as selected by SELECT_LIST (numerics as text). */
export type ComputeRow = Omit<RowOf<typeof ROW_COLUMNS>, "tags"> & { tags: Record<string, unknown> };

const SELECT_LIST = `id, provider, region, instance_type, family, operating_system, usage_type,
  price_per_hour::text AS price_per_hour, discount_percent::text AS discount_percent, currency, effective_from, effective_to, tags`;

const TABLE = "negotiated_compute_prices";
const IDENTITY_LIST = IDENTITY_COLUMNS.join(", ");
const IDENTITY_ROW_COLUMNS = columnsOf(IDENTITY_COLUMNS, "text");

/** The statements closeVersionedRow (versioned-rows.ts) runs on this table. */
export const COMPUTE_VERSIONED = { identitySql: identitySql(TABLE, IDENTITY_LIST), closeSql: closeSql(TABLE, SELECT_LIST) };

const LATEST_SQL = `SELECT DISTINCT ON (${IDENTITY_LIST}) ${SELECT_LIST}
       FROM negotiated_compute_prices
      WHERE account_id = $1
        AND (${IDENTITY_LIST}) IN (SELECT ${IDENTITY_COLUMNS.map((_, i) => `k->>${i}`).join(", ")} FROM jsonb_array_elements($2::jsonb) AS k)
      ORDER BY ${IDENTITY_LIST}, effective_from DESC, id DESC`;

/** The latest version of each identity (`keys`: JSON arrays of the identity columns, as identityOf makes them). */
export function findLatestRows(tx: Sql, accountId: string, keys: string[]): Promise<ComputeRow[]> {
  return tx.$queryRawUnsafe<ComputeRow[]>(LATEST_SQL, accountId, `[${keys.join(",")}]`);
}

const UPDATE_SQL = `UPDATE negotiated_compute_prices AS c SET effective_to = v.effective_to, tags = v.tags, updated_at = now()
       FROM jsonb_to_recordset($2::jsonb) AS v(id text, effective_to timestamptz, tags jsonb)
      WHERE c.account_id = $1 AND c.id = v.id`;

/** Writes the rows' effective_to and tags. */
export async function updateRows(tx: Sql, accountId: string, rows: ComputeRow[]): Promise<void> {
  const payload = rows.map((row) => ({ id: row.id, effective_to: row.effective_to?.toISOString() ?? null, tags: row.tags }));
  await tx.$queryRawUnsafe(UPDATE_SQL, accountId, JSON.stringify(payload));
}

const INSERT_SQL = `INSERT INTO negotiated_compute_prices (account_id, id, provider, region, instance_type, family, operating_system, usage_type,
       price_per_hour, discount_percent, currency, effective_from, effective_to, tags)
     SELECT $1, v.id, v.provider, v.region, v.instance_type, v.family, v.operating_system, v.usage_type,
       v.price_per_hour, v.discount_percent, v.currency, v.effective_from, v.effective_to, v.tags
       FROM jsonb_to_recordset($2::jsonb) AS v(id text, provider text, region text, instance_type text, family text,
         operating_system text, usage_type text, price_per_hour numeric, discount_percent numeric, currency text,
         effective_from timestamptz, effective_to timestamptz, tags jsonb)`;

export async function insertRows(tx: Sql, accountId: string, rows: ComputeRow[]): Promise<void> {
  const payload = rows.map((row) => ({ ...row, effective_from: row.effective_from.toISOString(), effective_to: row.effective_to?.toISOString() ?? null }));
  await tx.$queryRawUnsafe(INSERT_SQL, accountId, JSON.stringify(payload));
}

export type ComputeFilters = Partial<Record<(typeof IDENTITY_COLUMNS)[number], string>>;

const listSql = (filtered: readonly string[], includeClosed: boolean) => {
  const where = ["account_id = $1", ...filtered.map((column, i) => `${column} = $${i + 2}`)];
  if (!includeClosed) where.push("(effective_to IS NULL OR effective_to > now())");
  return `SELECT ${SELECT_LIST} FROM negotiated_compute_prices WHERE ${where.join(" AND ")} ORDER BY effective_from DESC, id DESC`;
};

/** The account's rows matching the filters, open ones only unless `includeClosed`; newest first. */
export function findComputePrices(db: Sql, accountId: string, filters: ComputeFilters, includeClosed: boolean): Promise<ComputeRow[]> {
  const filtered = IDENTITY_COLUMNS.filter((column) => filters[column] !== undefined);
  return db.$queryRawUnsafe<ComputeRow[]>(listSql(filtered, includeClosed), accountId, ...filtered.map((column) => filters[column]));
}

const LIVE_SQL = `SELECT ${SELECT_LIST} FROM negotiated_compute_prices WHERE account_id = $1 AND (effective_to IS NULL OR effective_to > now())`;

/** The rows the compute query may apply now or later: open or closing in the future. */
export function liveComputePrices(db: Sql, accountId: string): Promise<ComputeRow[]> {
  return db.$queryRawUnsafe<ComputeRow[]>(LIVE_SQL, accountId);
}

/** Every query the negotiated compute price service makes (service.ts, createComputePriceService). */
export const computePriceRepository = { findLatestRows, updateRows, insertRows, findComputePrices };
export type ComputePriceRepository = typeof computePriceRepository;

/** The raw statements of this module, for test/repository-row-types.test.ts. */
export function checkedStatements(): CheckedStatement[] {
  return [
    { name: "compute latest versions", sql: LATEST_SQL, columns: ROW_COLUMNS },
    { name: "compute update", sql: UPDATE_SQL, columns: null },
    { name: "compute insert", sql: INSERT_SQL, columns: null },
    { name: "compute list (every filter)", sql: listSql(IDENTITY_COLUMNS, false), columns: ROW_COLUMNS },
    { name: "compute list (closed too)", sql: listSql([], true), columns: ROW_COLUMNS },
    { name: "compute live", sql: LIVE_SQL, columns: ROW_COLUMNS },
    { name: "compute identity", sql: COMPUTE_VERSIONED.identitySql, columns: IDENTITY_ROW_COLUMNS },
    { name: "compute close", sql: COMPUTE_VERSIONED.closeSql, columns: ROW_COLUMNS },
  ];
}
