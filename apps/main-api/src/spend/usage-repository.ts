import type { RepriceRequest, UsageLine } from "@cloudcost/contracts";
import type { Database } from "@cloudcost/db";
import type { TenantRef } from "../context";
import type { CheckedStatement, RowOf } from "@cloudcost/db";

/** Unpriced usage lines are repriced this many at a time. */
export const UNPRICED_CHUNK = 10_000;

const UNPRICED_COLUMNS = { id: "text", at: "text", usage: "jsonb", unpriced_reason: "text null" } as const;
/** `at`: the line's charge period start as an ISO timestamp; `usage`: the usage line it was priced from. */
export type UnpricedRow = Omit<RowOf<typeof UNPRICED_COLUMNS>, "usage"> & { usage: UsageLine };

const UNPRICED_SQL = `SELECT id, to_char(charge_period_start AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS at, usage, unpriced_reason
         FROM spend_lines
        WHERE organization_id = $1 AND tenant_id = $2 AND NOT priced AND source = 'usage' AND usage IS NOT NULL
          AND ($3::timestamptz IS NULL OR charge_period_start >= $3) AND ($4::timestamptz IS NULL OR charge_period_start < $4)
          AND ($5::timestamptz IS NULL OR (charge_period_start, id) > ($5::timestamptz, $6::text))
        ORDER BY charge_period_start, id LIMIT ${UNPRICED_CHUNK}`;

const UNPRICED_COUNT_COLUMNS = { lines: "int4" } as const;

const UNPRICED_COUNT_SQL = `SELECT count(*)::int AS lines FROM spend_lines
      WHERE organization_id = $1 AND tenant_id = $2 AND NOT priced AND source = 'usage'
        AND ($3::timestamptz IS NULL OR charge_period_start >= $3) AND ($4::timestamptz IS NULL OR charge_period_start < $4)`;

/** The next chunk of the tenant's unpriced usage lines of the range, after `after` in (charge period start, id) order. */
export function readUnpricedChunk(db: Database, tenant: TenantRef, range: RepriceRequest, after: { at: string; id: string } | null): Promise<UnpricedRow[]> {
  return db.sql.query<UnpricedRow>(UNPRICED_SQL, [
    tenant.organizationId,
    tenant.id,
    range.start ?? null,
    range.end ?? null,
    after?.at ?? null,
    after?.id ?? null,
  ]);
}

/** How many of the tenant's usage lines of the range are unpriced. */
export async function countUnpriced(db: Database, tenant: TenantRef, range: RepriceRequest): Promise<number> {
  const [row] = await db.sql.query<RowOf<typeof UNPRICED_COUNT_COLUMNS>>(UNPRICED_COUNT_SQL, [
    tenant.organizationId,
    tenant.id,
    range.start ?? null,
    range.end ?? null,
  ]);
  return row.lines;
}

/** The raw statements of this module, for test/repository-row-types.test.ts. */
export function checkedStatements(): CheckedStatement[] {
  return [
    { name: "unpriced usage lines", sql: UNPRICED_SQL, columns: UNPRICED_COLUMNS, notNullByFilter: ["usage"] },
    { name: "unpriced usage count", sql: UNPRICED_COUNT_SQL, columns: UNPRICED_COUNT_COLUMNS },
  ];
}

/** What the usage service reads through; each function takes the database it runs on. */
export const usageRepository = { readUnpricedChunk, countUnpriced };
export type UsageRepository = typeof usageRepository;
