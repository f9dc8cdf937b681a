import { BUDGET_FILTER_DIMENSIONS, type BudgetFilters } from "@cloudcost/contracts";
import type { TenantRef } from "../../context";
import type { Prisma } from "../../db";
import type { CheckedStatement, Columns, RowOf } from "@cloudcost/db";
import type { Tx } from "../../transactions";

type Db = Pick<Prisma | Tx, "$queryRawUnsafe">;
export type ForecastMetric = "billed_cost" | "effective_cost" | "list_cost" | "contracted_cost";

/** What one series of daily sums counts: a metric in one currency, narrowed by roll-up dimensions. */
export interface DailySeriesRequest {
  metric: ForecastMetric;
  currency: string;
  filters: BudgetFilters;
}

/**
 * Per UTC day of [from, to) that has lines, each request's Usage-Based cost (`u<i>`) and other
 * cost (`o<i>`), in one pass over the tenant's spend_daily rows (read through the tenant-leading
 * key): the rows are first summed per day, frequency kind, currency and the dimensions some request
 * filters on; each request's filtered sums of those groups follow.
 */
export function dailySeriesStatement(tenant: TenantRef, from: string, to: string, requests: readonly DailySeriesRequest[]) {
  const params: unknown[] = [tenant.organizationId, tenant.id, from, to];
  const param = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  const metrics = [...new Set(requests.map((request) => request.metric))];
  const sums = requests.map((request, i) => {
    // Dimension names and metric columns come from fixed lists; values are parameters.
    const narrowed = [`currency = ${param(request.currency)}`];
    for (const name of BUDGET_FILTER_DIMENSIONS) {
      const values = request.filters[name];
      if (values?.length) narrowed.push(`${name} = ANY(${param(values)}::text[])`);
    }
    const where = narrowed.join(" AND ");
    return (
      `COALESCE(sum(${request.metric}) FILTER (WHERE usage AND ${where}), 0)::text AS u${i}, ` +
      `COALESCE(sum(${request.metric}) FILTER (WHERE NOT usage AND ${where}), 0)::text AS o${i}`
    );
  });
  const dimensions = ["currency", ...BUDGET_FILTER_DIMENSIONS.filter((name) => requests.some((request) => request.filters[name]?.length))].join(", ");
  const sql = `WITH d AS (
       SELECT day, charge_frequency = 'Usage-Based' AS usage, ${dimensions}, ${metrics.map((m) => `sum(${m}) AS ${m}`).join(", ")}
         FROM spend_daily WHERE organization_id = $1 AND tenant_id = $2 AND day >= $3::date AND day < $4::date
        GROUP BY day, 2, ${dimensions})
     SELECT day::text AS day${sums.length ? `, ${sums.join(", ")}` : ""} FROM d GROUP BY day ORDER BY day`;
  return { sql, params };
}

export async function readDailySeries(
  db: Db,
  tenant: TenantRef,
  range: { from: string; to: string },
  requests: readonly DailySeriesRequest[],
): Promise<Record<string, string>[]> {
  const { sql, params } = dailySeriesStatement(tenant, range.from, range.to, requests);
  return db.$queryRawUnsafe<Record<string, string>[]>(sql, ...params);
}

const RECURRING_COLUMNS = {
  billing_account_id: "text null",
  service_name: "text null",
  sku_id: "text null",
  charge_period_start: "timestamptz",
  charge_period_end: "timestamptz",
  currency: "text null",
  provider: "text null",
  service_category: "text null",
  region: "text null",
  resource_name: "text null",
  sub_account_name: "text null",
  billing_account_name: "text null",
  sku_meter: "text null",
  charge_category: "text",
  charge_frequency: "text",
  source: "text",
  sub_account_id: "text null",
  model: "text null",
  resource_id: "text null",
  pricing_category: "text null",
  commitment_discount_id: "text null",
  tags: "jsonb",
  billed_cost: "text null",
  effective_cost: "text null",
  list_cost: "text null",
  contracted_cost: "text null",
} as const satisfies Columns;
export type RecurringLine = RowOf<typeof RECURRING_COLUMNS>;

/**
 * The lines of each series of the tenant's Recurring lines (same billing account, service and SKU)
 * at the series' latest charge period start in [$3, $4): what repeats. Read through the partial
 * index of the lines that are not Usage-Based.
 */
const RECURRING_SQL = `WITH r AS (
    SELECT * FROM spend_lines
     WHERE organization_id = $1 AND tenant_id = $2 AND charge_frequency = 'Recurring'
       AND charge_period_start >= $3::timestamptz AND charge_period_start < $4::timestamptz),
  latest AS (
    SELECT billing_account_id, service_name, sku_id, max(charge_period_start) AS start FROM r GROUP BY 1, 2, 3)
  SELECT r.billing_account_id, r.service_name, r.sku_id, r.charge_period_start, r.charge_period_end, r.currency, r.provider, r.service_category,
      r.region, r.resource_name, r.sub_account_name, r.billing_account_name, r.sku_meter, r.charge_category, r.charge_frequency, r.source, r.sub_account_id, r.model, r.resource_id, r.pricing_category,
      r.commitment_discount_id, r.tags, r.billed_cost::text, r.effective_cost::text, r.list_cost::text, r.contracted_cost::text
    FROM r JOIN latest ON r.billing_account_id IS NOT DISTINCT FROM latest.billing_account_id
      AND r.service_name IS NOT DISTINCT FROM latest.service_name AND r.sku_id IS NOT DISTINCT FROM latest.sku_id
      AND r.charge_period_start = latest.start
   ORDER BY r.billing_account_id, r.service_name, r.sku_id`;

export function readRecurringLines(db: Db, tenant: TenantRef, range: { from: string; to: string }): Promise<RecurringLine[]> {
  return db.$queryRawUnsafe<RecurringLine[]>(RECURRING_SQL, tenant.organizationId, tenant.id, range.from, range.to);
}

/** The raw statements of this module, for test/repository-row-types.test.ts. */
export function checkedStatements(): CheckedStatement[] {
  const request: DailySeriesRequest = { metric: "billed_cost", currency: "USD", filters: { provider: ["aws"] } };
  return [
    {
      name: "forecast daily series",
      sql: dailySeriesStatement({ id: "t", organizationId: "o" }, "2026-01-01", "2026-02-01", [request]).sql,
      columns: { day: "text", u0: "text", o0: "text" },
    },
    { name: "forecast recurring lines", sql: RECURRING_SQL, columns: RECURRING_COLUMNS },
  ];
}

/** What the forecast (and the budgets' status) reads; each function takes the client it runs on. */
export const forecastRepository = { readDailySeries, readRecurringLines };
export type ForecastRepository = typeof forecastRepository;
