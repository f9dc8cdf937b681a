import type { SqlClient } from "@cloudcost/db";
import type { CheckedStatement, RowOf } from "@cloudcost/db";

// What the ledger says about single resources (lines carrying a resource_id): whether a commitment
// covers their usage, and what they cost day by day. Read by compute (recommendations over time).

/**
 * Usage covered by a commitment, over a Usage row `alias` (a spend line of charge category `Usage`,
 * or a row of a roll-up of them): its FOCUS PricingCategory is `Committed` (the commitment paid for
 * it) and it is not the commitment's own `Unused` part. The one definition of "covered usage":
 * compute's commitment rule and commitment coverage both build on it.
 */
export const coveredUsage = (alias: string) => `(${alias}.pricing_category = 'Committed' AND coalesce(${alias}.commitment_discount_status, '') <> 'Unused')`;

const COMMITTED_RESOURCES_COLUMNS = { resource_id: "text" } as const;
const COMMITTED_RESOURCES_SQL = `SELECT DISTINCT resource_id FROM spend_lines
     WHERE organization_id = $1 AND tenant_id = $2 AND charge_period_start >= $3 AND resource_id IS NOT NULL
       AND charge_category = 'Usage' AND ${coveredUsage("spend_lines")}`;

/** The resource ids of the tenant with covered usage (coveredUsage) charged since `since`. */
export async function findResourceIdsWithCommittedUsageSince(sql: SqlClient, organizationId: string, tenantId: string, since: Date): Promise<Set<string>> {
  const rows = await sql.query<RowOf<typeof COMMITTED_RESOURCES_COLUMNS>>(COMMITTED_RESOURCES_SQL, [organizationId, tenantId, since]);
  return new Set(rows.map((row) => row.resource_id));
}

/** Days of spend lines read on each side of a moment (realized savings). */
export const DAYS_AROUND = 14;

/** Days before a moment whose covered lines make the resource committed at that moment (as the analysis counts them). */
export const COMMITTED_DAYS_BEFORE = 7;

/**
 * Per (resource, moment) and side (before: [at - 14 days, at), after: [at, at + 14 days)): how many
 * UTC days had lines of that resource and the median of the daily effective cost (the mean of the
 * two middle days for an even count), exact in numeric; and whether covered usage (coveredUsage)
 * is among its lines of the side (before: only the last 7 days count). One key range of the
 * (organization_id, resource_id, charge_period_start) index per resource.
 */
const DAILY_MEDIANS_SQL = `
  WITH c AS (SELECT * FROM unnest($3::text[], $4::timestamptz[]) AS c(resource_id, at)),
  d AS (
    SELECT c.resource_id, c.at, l.charge_period_start >= c.at AS after,
      date_trunc('day', l.charge_period_start AT TIME ZONE 'UTC') AS day, sum(l.effective_cost) AS cost,
      bool_or(${coveredUsage("l")} AND l.charge_period_start >= c.at - make_interval(days => ${COMMITTED_DAYS_BEFORE})) AS covered
    FROM c JOIN spend_lines l ON l.organization_id = $1 AND l.resource_id = c.resource_id
      AND l.charge_period_start >= c.at - make_interval(days => ${DAYS_AROUND}) AND l.charge_period_start < c.at + make_interval(days => ${DAYS_AROUND})
    WHERE l.tenant_id = $2 AND l.effective_cost IS NOT NULL
    GROUP BY 1, 2, 3, 4),
  m AS (SELECT resource_id, at, after, count(*)::int AS days, array_agg(cost ORDER BY cost) AS a, coalesce(bool_or(covered), false) AS covered FROM d GROUP BY 1, 2, 3)
  SELECT resource_id, at, after, days, ((a[(days + 1) / 2] + a[(days + 2) / 2]) / 2)::text AS median, covered FROM m`;

const DAILY_MEDIANS_COLUMNS = { resource_id: "text", at: "timestamptz", after: "bool", days: "int4", median: "text", covered: "bool" } as const;
export type DailyMedianRow = RowOf<typeof DAILY_MEDIANS_COLUMNS>;

/** Daily cost medians around each (resource, moment) of the tenant (DAILY_MEDIANS_SQL). */
export function findDailyCostMedians(
  sql: SqlClient,
  organizationId: string,
  tenantId: string,
  moments: { resourceId: string; at: Date }[],
): Promise<DailyMedianRow[]> {
  if (moments.length === 0) return Promise.resolve([]);
  return sql.query<DailyMedianRow>(DAILY_MEDIANS_SQL, [organizationId, tenantId, moments.map((m) => m.resourceId), moments.map((m) => m.at)]);
}

/** The raw statements of this module, for test/repository-row-types.test.ts. */
export function checkedStatements(): CheckedStatement[] {
  return [
    { name: "spend resources with committed usage", sql: COMMITTED_RESOURCES_SQL, columns: COMMITTED_RESOURCES_COLUMNS, notNullByFilter: ["resource_id"] },
    { name: "spend daily cost medians per resource", sql: DAILY_MEDIANS_SQL, columns: DAILY_MEDIANS_COLUMNS },
  ];
}
