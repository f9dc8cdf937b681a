import type { CheckedStatement, RowOf, SqlClient } from "@cloudcost/db";

/*
 * What spend reports, exports and statements read of business metrics (amounts to share splits
 * by, and to divide unit costs by), through the pg client the spend queries use; the metrics'
 * own writes and reads are repository.ts's, through Prisma.
 */

const QUERY_METRIC_COLUMNS = { name: "text", unit: "text", dimension_key: "text null" } as const;
export type QueryMetric = RowOf<typeof QUERY_METRIC_COLUMNS>;
const QUERY_METRIC_SQL = `SELECT name, unit, dimension_key FROM business_metrics WHERE organization_id = $1 AND name = $2`;

/** A metric as a spend query divides by it; undefined when the organization has none of that name. */
export async function findQueryMetric(sql: Pick<SqlClient, "query">, organizationId: string, name: string): Promise<QueryMetric | undefined> {
  const [row] = await sql.query<QueryMetric>(QUERY_METRIC_SQL, [organizationId, name]);
  return row;
}

const AMOUNT_COLUMNS = { metric: "text", day: "text", label: "text", amount: "text" } as const;
export type MetricAmountRow = RowOf<typeof AMOUNT_COLUMNS>;
const AMOUNTS_SQL = `
  SELECT metric_name AS metric, day::text AS day, label, trim_scale(amount)::text AS amount
    FROM business_metric_values
   WHERE organization_id = $1 AND metric_name = ANY($2::text[]) AND day >= $3::date AND day < $4::date`;

/** The amounts of the metrics `names` of days [from, to) (YYYY-MM-DD), label '' for none: read once per query. */
export function findMetricAmounts(
  sql: Pick<SqlClient, "query">,
  organizationId: string,
  names: string[],
  from: string,
  to: string,
): Promise<MetricAmountRow[]> {
  if (names.length === 0 || from >= to) return Promise.resolve([]);
  return sql.query<MetricAmountRow>(AMOUNTS_SQL, [organizationId, names, from, to]);
}

const DAY_TOTALS_SQL = `
  SELECT day::text AS day, ''::text AS label, trim_scale(sum(amount))::text AS amount
    FROM business_metric_values
   WHERE organization_id = $1 AND metric_name = $2 AND day >= $3::date AND day < $4::date
   GROUP BY day`;

/** A metric's amount per day of [from, to), every label together (label ''): what a unit cost divides by when no label matters. */
export function findMetricDayTotals(
  sql: Pick<SqlClient, "query">,
  organizationId: string,
  name: string,
  from: string,
  to: string,
): Promise<Omit<MetricAmountRow, "metric">[]> {
  if (from >= to) return Promise.resolve([]);
  return sql.query(DAY_TOTALS_SQL, [organizationId, name, from, to]);
}

export const metricAmountsRepository = { findQueryMetric, findMetricAmounts, findMetricDayTotals };
export type MetricAmountsRepository = typeof metricAmountsRepository;

/** The raw statements of this module, for test/repository-row-types.test.ts. */
export function checkedStatements(): CheckedStatement[] {
  return [
    { name: "business metric of a spend query", sql: QUERY_METRIC_SQL, columns: QUERY_METRIC_COLUMNS },
    { name: "business metric amounts of a spend query", sql: AMOUNTS_SQL, columns: AMOUNT_COLUMNS },
    { name: "business metric day totals of a spend query", sql: DAY_TOTALS_SQL, columns: { day: "text", label: "text", amount: "text" } },
  ];
}
