import type { CheckedStatement, RowOf } from "@cloudcost/db";
import type { Sql } from "../store/transaction";
import { closeSql, identitySql } from "../store/versioned-repository";

/** The identity columns after the account: absent scope fields are stored as "" and match everything. */
export const IDENTITY_COLUMNS = ["provider", "commitment_type", "term_months", "payment_option", "service_category", "region", "family"] as const;

const ROW_COLUMNS = {
  id: "text",
  provider: "text",
  commitment_type: "text",
  term_months: "int4",
  payment_option: "text",
  service_category: "text",
  region: "text",
  family: "text",
  discount_percent: "text",
  effective_from: "timestamptz",
  effective_to: "timestamptz null",
} as const;

/** A commitment_rates row as selected by SELECT_LIST (the discount as text). */
export type CommitmentRateRow = RowOf<typeof ROW_COLUMNS>;

const SELECT_LIST = `id, provider, commitment_type, term_months, payment_option, service_category, region, family,
  discount_percent::text AS discount_percent, effective_from, effective_to`;

const IDENTITY_ROW_COLUMNS = {
  provider: "text",
  commitment_type: "text",
  term_months: "int4",
  payment_option: "text",
  service_category: "text",
  region: "text",
  family: "text",
} as const;

const TABLE = "commitment_rates";
const IDENTITY_LIST = IDENTITY_COLUMNS.join(", ");

/** The statements closeVersionedRow (versioned-rows.ts) runs on this table. */
export const COMMITMENT_VERSIONED = { identitySql: identitySql(TABLE, IDENTITY_LIST), closeSql: closeSql(TABLE, SELECT_LIST) };

const LATEST_SQL = `SELECT DISTINCT ON (${IDENTITY_LIST}) ${SELECT_LIST}
       FROM commitment_rates
      WHERE account_id = $1
        AND (${IDENTITY_LIST}) IN (SELECT k->>0, k->>1, (k->>2)::int, k->>3, k->>4, k->>5, k->>6 FROM jsonb_array_elements($2::jsonb) AS k)
      ORDER BY ${IDENTITY_LIST}, effective_from DESC, id DESC`;

/** The latest version of each identity (`keys`: JSON arrays of the identity columns, as identityOf makes them). */
export function findLatestRates(tx: Sql, accountId: string, keys: string[]): Promise<CommitmentRateRow[]> {
  return tx.$queryRawUnsafe<CommitmentRateRow[]>(LATEST_SQL, accountId, `[${keys.join(",")}]`);
}

const CLOSE_MANY_SQL = `UPDATE commitment_rates AS c SET effective_to = v.effective_to, updated_at = now()
       FROM jsonb_to_recordset($2::jsonb) AS v(id text, effective_to timestamptz)
      WHERE c.account_id = $1 AND c.id = v.id`;

/** Writes the rows' effective_to. */
export async function closeRates(tx: Sql, accountId: string, rows: CommitmentRateRow[]): Promise<void> {
  const payload = rows.map((row) => ({ id: row.id, effective_to: row.effective_to?.toISOString() ?? null }));
  await tx.$queryRawUnsafe(CLOSE_MANY_SQL, accountId, JSON.stringify(payload));
}

const INSERT_SQL = `INSERT INTO commitment_rates (account_id, id, provider, commitment_type, term_months, payment_option,
       service_category, region, family, discount_percent, effective_from, effective_to)
     SELECT $1, v.id, v.provider, v.commitment_type, v.term_months, v.payment_option, v.service_category, v.region, v.family,
       v.discount_percent, v.effective_from, v.effective_to
       FROM jsonb_to_recordset($2::jsonb) AS v(id text, provider text, commitment_type text, term_months int, payment_option text,
         service_category text, region text, family text, discount_percent numeric, effective_from timestamptz, effective_to timestamptz)`;

export async function insertRates(tx: Sql, accountId: string, rows: CommitmentRateRow[]): Promise<void> {
  const payload = rows.map((row) => ({ ...row, effective_from: row.effective_from.toISOString(), effective_to: row.effective_to?.toISOString() ?? null }));
  await tx.$queryRawUnsafe(INSERT_SQL, accountId, JSON.stringify(payload));
}

export const FILTER_COLUMNS = ["provider", "commitment_type", "payment_option"] as const;
export type CommitmentRateFilters = Partial<Record<(typeof FILTER_COLUMNS)[number], string>>;

/**
 * A live row at `at`: open, or closing later than `at`; a row closed at (or before) its own start
 * never took effect and is history. What the listing shows and the limit counts.
 */
const liveAt = (at: string) => `(effective_to IS NULL OR effective_to > GREATEST(${at}, effective_from))`;

const listSql = (filtered: readonly string[], includeClosed: boolean) => {
  const where = ["account_id = $1", ...filtered.map((column, i) => `${column} = $${i + 2}`)];
  if (!includeClosed) where.push(liveAt("now()"));
  return `SELECT ${SELECT_LIST} FROM commitment_rates WHERE ${where.join(" AND ")} ORDER BY effective_from DESC, id DESC`;
};

/** The account's rates matching the filters, live ones (open or closing later) unless `includeClosed`; newest first. */
export function findRates(db: Sql, accountId: string, filters: CommitmentRateFilters, includeClosed: boolean): Promise<CommitmentRateRow[]> {
  const filtered = FILTER_COLUMNS.filter((column) => filters[column] !== undefined);
  return db.$queryRawUnsafe<CommitmentRateRow[]>(listSql(filtered, includeClosed), accountId, ...filtered.map((column) => filters[column]));
}

const COUNT_LIVE_SQL = `SELECT count(*)::int AS live FROM commitment_rates WHERE account_id = $1 AND ${liveAt("$2::timestamptz")}`;
const COUNT_LIVE_COLUMNS = { live: "int4" } as const;

/** How many of the account's rows are live at `at` (as the listing counts them). */
export async function countLiveRates(tx: Sql, accountId: string, at: Date): Promise<number> {
  const [row] = await tx.$queryRawUnsafe<RowOf<typeof COUNT_LIVE_COLUMNS>[]>(COUNT_LIVE_SQL, accountId, at.toISOString());
  return row?.live ?? 0;
}

/** Every query the commitment-rate service makes (service.ts, createCommitmentRateService). */
export const commitmentRateRepository = { findLatestRates, closeRates, insertRates, findRates, countLiveRates };
export type CommitmentRateRepository = typeof commitmentRateRepository;

/** The raw statements of this module, for test/repository-row-types.test.ts. */
export function checkedStatements(): CheckedStatement[] {
  return [
    { name: "commitment rates latest versions", sql: LATEST_SQL, columns: ROW_COLUMNS },
    { name: "commitment rates close many", sql: CLOSE_MANY_SQL, columns: null },
    { name: "commitment rates insert", sql: INSERT_SQL, columns: null },
    { name: "commitment rates list (every filter)", sql: listSql(FILTER_COLUMNS, false), columns: ROW_COLUMNS },
    { name: "commitment rates list (closed too)", sql: listSql([], true), columns: ROW_COLUMNS },
    { name: "commitment rates live count", sql: COUNT_LIVE_SQL, columns: COUNT_LIVE_COLUMNS },
    { name: "commitment rates identity", sql: COMMITMENT_VERSIONED.identitySql, columns: IDENTITY_ROW_COLUMNS },
    { name: "commitment rates close", sql: COMMITMENT_VERSIONED.closeSql, columns: ROW_COLUMNS },
  ];
}
