import type { Sql } from "./transaction";

/**
 * The statements model prices and negotiated compute prices share (versioned-rows.ts has the rules),
 * built per table; each table's repository lists its own in `checkedStatements()`.
 */

export const identitySql = (table: string, identityColumns: string) => `SELECT ${identityColumns} FROM ${table} WHERE account_id = $1 AND id = $2`;

export const closeSql = (table: string, columns: string) =>
  `UPDATE ${table} SET effective_to = GREATEST($3::timestamptz, effective_from), updated_at = now()
      WHERE account_id = $1 AND id = $2 AND (effective_to IS NULL OR effective_to > $3::timestamptz)
      RETURNING ${columns}`;

/** The identity columns of the account's row `id`; undefined: no such row. */
export async function findIdentity(tx: Sql, sql: string, accountId: string, id: string): Promise<Record<string, unknown> | undefined> {
  const [row] = await tx.$queryRawUnsafe<Record<string, unknown>[]>(sql, accountId, id);
  return row;
}

/** Closes the account's row `id` at `at` (or at its own effective_from, if later); undefined: no such open or scheduled row. */
export async function closeOpenRow<Row>(tx: Sql, sql: string, accountId: string, id: string, at: Date): Promise<Row | undefined> {
  const [row] = await tx.$queryRawUnsafe<Row[]>(sql, accountId, id, at.toISOString());
  return row;
}
