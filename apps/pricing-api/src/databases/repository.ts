import { DATABASE_NUMBER_FIELDS, DATABASE_OPTIONAL_KEY_FIELDS, DATABASE_QUANTITY_RATE_FIELDS } from "@cloudcost/contracts";
import { type CheckedStatement, columnsOf, type RowOf } from "@cloudcost/db";
import type { Sql } from "../store/transaction";

/** The natural key's text columns (absent ones stored as ""); with period_billing_hours they make the key hash. */
export const KEY_TEXT_FIELDS = ["provider", "service", "region", ...DATABASE_OPTIONAL_KEY_FIELDS] as const;

const ROW_COLUMNS = {
  id: "text",
  key_hash: "bpchar",
  ...columnsOf(KEY_TEXT_FIELDS, "text"),
  period_billing_hours: "text",
  currency: "bpchar",
  capacity_unit: "text null",
  ...columnsOf(DATABASE_NUMBER_FIELDS, "text null"),
  raw_pricing_data: "jsonb",
  tags: "jsonb",
  created_at: "timestamptz",
  updated_at: "timestamptz",
} as const;

/** A database_prices row as selected by SELECT_LIST (numerics as text). */
export type DatabaseRow = Omit<RowOf<typeof ROW_COLUMNS>, "raw_pricing_data" | "tags"> & {
  raw_pricing_data: Record<string, unknown>;
  tags: Record<string, unknown>;
};

const SELECT_LIST = [
  "id",
  "key_hash",
  ...KEY_TEXT_FIELDS,
  "period_billing_hours::text AS period_billing_hours",
  "currency",
  "capacity_unit",
  ...DATABASE_NUMBER_FIELDS.map((field) => `${field}::text AS ${field}`),
  "raw_pricing_data",
  "tags",
  "created_at",
  "updated_at",
].join(", ");

const VALUE_FIELDS = ["currency", "capacity_unit", ...DATABASE_NUMBER_FIELDS, "raw_pricing_data", "tags"] as const;

const RECORD_COLUMNS = [
  "id text",
  "key_hash text",
  ...KEY_TEXT_FIELDS.map((field) => `${field} text`),
  "period_billing_hours numeric",
  "currency text",
  "capacity_unit text",
  ...DATABASE_NUMBER_FIELDS.map((field) => `${field} numeric`),
  "raw_pricing_data jsonb",
  "tags jsonb",
].join(", ");
const RECORD_NAMES = RECORD_COLUMNS.split(", ").map((column) => column.split(" ")[0]);

const UPSERT_SQL = `INSERT INTO database_prices (account_id, ${RECORD_NAMES.join(", ")}, created_at, updated_at)
     SELECT $1, ${RECORD_NAMES.map((name) => `v.${name}`).join(", ")}, now(), now()
       FROM jsonb_to_recordset($2::jsonb) AS v(${RECORD_COLUMNS})
     ON CONFLICT (account_id, key_hash) DO UPDATE SET
       ${VALUE_FIELDS.map((field) => `${field} = EXCLUDED.${field}`).join(", ")}, updated_at = EXCLUDED.updated_at
     RETURNING ${SELECT_LIST}`;

/**
 * Inserts the records (one per key hash; fields named as RECORD_COLUMNS), or updates the values of
 * the account's row with the same key hash; answers with a stored row per record.
 */
export function upsertDatabases(db: Sql, accountId: string, records: Record<string, unknown>[]): Promise<DatabaseRow[]> {
  return db.$queryRawUnsafe<DatabaseRow[]>(UPSERT_SQL, accountId, JSON.stringify(records));
}

export type DatabaseFilters = Partial<Record<(typeof KEY_TEXT_FIELDS)[number], string>>;

const listSql = (filtered: readonly string[], byPeriod: boolean) => {
  const where = ["account_id = $1", ...filtered.map((field, i) => `${field} = $${i + 2}`)];
  if (byPeriod) where.push(`period_billing_hours = $${filtered.length + 2}::numeric`);
  return `SELECT ${SELECT_LIST} FROM database_prices WHERE ${where.join(" AND ")} ORDER BY created_at DESC, id DESC`;
};

/** The account's rows matching the filters (`periodBillingHours`: a decimal as text), newest first. */
export function findDatabases(db: Sql, accountId: string, filters: DatabaseFilters, periodBillingHours: string | undefined): Promise<DatabaseRow[]> {
  const filtered = KEY_TEXT_FIELDS.filter((field) => filters[field] !== undefined);
  const params = [accountId, ...filtered.map((field) => filters[field]), ...(periodBillingHours === undefined ? [] : [periodBillingHours])];
  return db.$queryRawUnsafe<DatabaseRow[]>(listSql(filtered, periodBillingHours !== undefined), ...params);
}

const LOCK_COLUMNS = { id: "text" } as const;
const LOCK_SQL = `SELECT id FROM database_prices WHERE account_id = $1 AND id = $2 FOR UPDATE`;

/** Locks the account's row `id` until the transaction ends; false: no such row. */
export async function lockDatabaseForDelete(tx: Sql, accountId: string, id: string): Promise<boolean> {
  const rows = await tx.$queryRawUnsafe<RowOf<typeof LOCK_COLUMNS>[]>(LOCK_SQL, accountId, id);
  return rows.length > 0;
}

const REFERENCE_SAMPLE = 5;
const REFERENCE_COLUMNS = { what: "text", total: "int4" } as const;
export type DatabaseReference = RowOf<typeof REFERENCE_COLUMNS>;

const REFERENCES_SQL = `(SELECT 'pin ' || kind || '/' || resource_id AS what, (count(*) OVER ())::int AS total
            FROM pricing_pins WHERE account_id = $1 AND database_price_id = $2
           ORDER BY resource_id COLLATE "C" LIMIT ${REFERENCE_SAMPLE})
         UNION ALL
         (SELECT 'report ' || report_id, (count(*) OVER ())::int
            FROM pricing_report_database_refs WHERE account_id = $1 AND database_price_id = $2
           ORDER BY report_id LIMIT ${REFERENCE_SAMPLE})`;

/**
 * The pins ("pin kind/resource_id") and reports ("report id") that reference the row: the first
 * few of each, with how many there are of that kind (`total`).
 */
export function findDatabaseReferences(tx: Sql, accountId: string, id: string): Promise<DatabaseReference[]> {
  return tx.$queryRawUnsafe<DatabaseReference[]>(REFERENCES_SQL, accountId, id);
}

const DELETE_SQL = `DELETE FROM database_prices WHERE account_id = $1 AND id = $2 RETURNING ${SELECT_LIST}`;

/** Deletes the account's row `id`, which the caller has locked (lockDatabaseForDelete). */
export async function deleteDatabaseRow(tx: Sql, accountId: string, id: string): Promise<DatabaseRow> {
  const [row] = await tx.$queryRawUnsafe<DatabaseRow[]>(DELETE_SQL, accountId, id);
  return row;
}

const RATE_COLUMNS = Object.values(DATABASE_QUANTITY_RATE_FIELDS);
/** Only what usage pricing reads: the rate of each database quantity. */
const PRICING_COLUMNS = { id: "text", currency: "bpchar", ...columnsOf(RATE_COLUMNS, "text null") } as const;
export type DatabasePricingRow = RowOf<typeof PRICING_COLUMNS>;

const pricingSql = (lock: boolean) =>
  `SELECT ${["id", "currency", ...RATE_COLUMNS.map((column) => `${column}::text AS ${column}`)].join(", ")} FROM database_prices
      WHERE account_id = $1 AND id IN (SELECT jsonb_array_elements_text($2::jsonb))
      ORDER BY id${lock ? " FOR KEY SHARE" : ""}`;
const PRICING_SQL = pricingSql(false);
const PRICING_LOCKED_SQL = pricingSql(true);

/** The account's rows `ids` with their rates; `lock`: held FOR KEY SHARE until the surrounding transaction ends. */
export function findDatabasesForPricing(db: Sql, accountId: string, ids: string[], lock: boolean): Promise<DatabasePricingRow[]> {
  return db.$queryRawUnsafe<DatabasePricingRow[]>(lock ? PRICING_LOCKED_SQL : PRICING_SQL, accountId, JSON.stringify(ids));
}

/** Every query the database price service makes (service.ts, createDatabaseService). */
export const databaseRepository = { upsertDatabases, findDatabases, lockDatabaseForDelete, findDatabaseReferences, deleteDatabaseRow };
export type DatabaseRepository = typeof databaseRepository;

/** The raw statements of this module, for test/repository-row-types.test.ts. */
export function checkedStatements(): CheckedStatement[] {
  return [
    { name: "database upsert", sql: UPSERT_SQL, columns: ROW_COLUMNS },
    { name: "database list (every filter)", sql: listSql(KEY_TEXT_FIELDS, true), columns: ROW_COLUMNS },
    { name: "database list (no filter)", sql: listSql([], false), columns: ROW_COLUMNS },
    { name: "database lock for delete", sql: LOCK_SQL, columns: LOCK_COLUMNS },
    { name: "database references", sql: REFERENCES_SQL, columns: REFERENCE_COLUMNS },
    { name: "database delete", sql: DELETE_SQL, columns: ROW_COLUMNS },
    { name: "database rates for usage pricing", sql: PRICING_SQL, columns: PRICING_COLUMNS },
    { name: "database rates for usage pricing (locked)", sql: PRICING_LOCKED_SQL, columns: PRICING_COLUMNS },
  ];
}
