import type { SqlClient } from "@cloudcost/db";
import type { CheckedStatement, RowOf } from "@cloudcost/db";

const REMEMBERED_COLUMNS = { jti: "text" } as const;
const REMEMBER_SQL = `WITH pruned AS (DELETE FROM service_token_jtis WHERE expires_at < now())
         INSERT INTO service_token_jtis (jti, expires_at) VALUES ($1, $2)
         ON CONFLICT (jti) DO NOTHING
         RETURNING jti`;

/** Records `jti` until `until` (pruning expired ids); false when it was already recorded. */
export async function rememberJti(sql: Pick<SqlClient, "query">, jti: string, until: Date): Promise<boolean> {
  // The primary key decides (insert-or-fail), never a read before the write.
  const rows = await sql.query<RowOf<typeof REMEMBERED_COLUMNS>>(REMEMBER_SQL, [jti, until]);
  return rows.length === 1;
}

/** Every query the service-token check makes (service-token.ts, serviceTokenJtis). */
export const serviceTokenRepository = { rememberJti };
export type ServiceTokenRepository = typeof serviceTokenRepository;

/** The raw statements of this module, for test/repository-row-types.test.ts. */
export function checkedStatements(): CheckedStatement[] {
  return [{ name: "service token id record", sql: REMEMBER_SQL, columns: REMEMBERED_COLUMNS }];
}
