import type { PinKind } from "@cloudcost/contracts";
import type { CheckedStatement, RowOf } from "@cloudcost/db";
import type { Sql } from "../store/transaction";

const PIN_ROW_COLUMNS = { kind: "text", resource_id: "text", pricing_id: "text", created_at: "timestamptz", updated_at: "timestamptz" } as const;
export type PinRow = Omit<RowOf<typeof PIN_ROW_COLUMNS>, "kind"> & { kind: PinKind };

// A CHECK constraint sets exactly one of the two ids, so pricing_id is never null.
const PIN_COLUMNS = `kind, resource_id, COALESCE(database_price_id, model_price_id) AS pricing_id, created_at, updated_at`;

const FOUND_COLUMNS = { found: "int4" } as const;
const SHARE_DATABASE_SQL = `SELECT 1 AS found FROM database_prices WHERE account_id = $1 AND id = $2 FOR SHARE`;
const SHARE_OPEN_MODEL_SQL = `SELECT 1 AS found FROM model_prices
                WHERE account_id = $1 AND id = $2 AND (effective_to IS NULL OR effective_to > $3::timestamptz) FOR SHARE`;

/** Locks the account's database entry `id` (FOR SHARE) until the transaction ends; false: no such entry. */
export async function shareDatabaseEntry(tx: Sql, accountId: string, id: string): Promise<boolean> {
  const rows = await tx.$queryRawUnsafe<RowOf<typeof FOUND_COLUMNS>[]>(SHARE_DATABASE_SQL, accountId, id);
  return rows.length > 0;
}

/** Locks the account's model row `id` (FOR SHARE) if it is not closed at `at` (ISO); false: no such row. */
export async function shareOpenModelEntry(tx: Sql, accountId: string, id: string, at: string): Promise<boolean> {
  const rows = await tx.$queryRawUnsafe<RowOf<typeof FOUND_COLUMNS>[]>(SHARE_OPEN_MODEL_SQL, accountId, id, at);
  return rows.length > 0;
}

const UPSERT_SQL = `INSERT INTO pricing_pins (account_id, kind, resource_id, database_price_id, model_price_id, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6::timestamptz, $6::timestamptz)
         ON CONFLICT (account_id, kind, resource_id) DO UPDATE SET
           database_price_id = EXCLUDED.database_price_id, model_price_id = EXCLUDED.model_price_id, updated_at = EXCLUDED.updated_at
         RETURNING ${PIN_COLUMNS}`;

/** Creates or repoints the pin of (kind, resource) to `pricingId`, at `at` (ISO). */
export async function upsertPin(tx: Sql, accountId: string, kind: PinKind, resourceId: string, pricingId: string, at: string): Promise<PinRow> {
  const [row] = await tx.$queryRawUnsafe<PinRow[]>(
    UPSERT_SQL,
    accountId,
    kind,
    resourceId,
    kind === "database" ? pricingId : null,
    kind === "model" ? pricingId : null,
    at,
  );
  return row;
}

const DELETE_COLUMNS = { deleted: "int4" } as const;
const DELETE_SQL = `DELETE FROM pricing_pins WHERE account_id = $1 AND kind = $2 AND resource_id = $3 RETURNING 1 AS deleted`;

/** False: the account has no such pin. */
export async function deletePinRow(db: Sql, accountId: string, kind: PinKind, resourceId: string): Promise<boolean> {
  const rows = await db.$queryRawUnsafe<RowOf<typeof DELETE_COLUMNS>[]>(DELETE_SQL, accountId, kind, resourceId);
  return rows.length > 0;
}

const LIST_SQL = `SELECT ${PIN_COLUMNS} FROM pricing_pins
      WHERE account_id = $1 AND ($2::text IS NULL OR database_price_id = $2 OR model_price_id = $2)
      ORDER BY kind, resource_id COLLATE "C"`;

/** The account's pins, or only those to `pricingId`. */
export function findPins(db: Sql, accountId: string, pricingId: string | undefined): Promise<PinRow[]> {
  return db.$queryRawUnsafe<PinRow[]>(LIST_SQL, accountId, pricingId ?? null);
}

/** Every query the pin service makes (pin-service.ts, createPinService). */
export const pinRepository = { shareDatabaseEntry, shareOpenModelEntry, upsertPin, deletePinRow, findPins };
export type PinRepository = typeof pinRepository;

/** The raw statements of this module, for test/repository-row-types.test.ts. */
export function checkedStatements(): CheckedStatement[] {
  return [
    { name: "pin: database entry lock", sql: SHARE_DATABASE_SQL, columns: FOUND_COLUMNS },
    { name: "pin: open model entry lock", sql: SHARE_OPEN_MODEL_SQL, columns: FOUND_COLUMNS },
    { name: "pin upsert", sql: UPSERT_SQL, columns: PIN_ROW_COLUMNS },
    { name: "pin delete", sql: DELETE_SQL, columns: DELETE_COLUMNS },
    { name: "pin list", sql: LIST_SQL, columns: PIN_ROW_COLUMNS },
  ];
}
