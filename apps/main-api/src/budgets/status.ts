import type { BudgetFilters, BudgetThreshold } from "@cloudcost/contracts";
import { BUDGET_FILTER_DIMENSIONS } from "@cloudcost/contracts";
import Decimal from "decimal.js";
import type { Prisma } from "../db";
import type { Tx } from "../transactions";
import { type BudgetPeriod, budgetState, forecast, forecastWindow, isCrossed, percentUsed, periodBounds, type BudgetState } from "./rules";

/** What the status of a budget is computed from. */
export interface BudgetSpec {
  organizationId: string;
  tenantId: string;
  period: BudgetPeriod;
  amount: Decimal.Value;
  currency: string;
  metric: "billed_cost" | "effective_cost" | "list_cost";
  filters: BudgetFilters;
  thresholds: BudgetThreshold[];
}

export interface BudgetStatus {
  period_start: string;
  period_end: string;
  spent: string;
  forecast: string;
  percent_used: string;
  state: BudgetState;
  crossed: BudgetThreshold[];
}

/** The pre-aggregated sums the budgets read (one per metric). */
const METRIC_COLUMN = { billed_cost: "b", effective_cost: "e", list_cost: "l" } as const;
const METRIC_SOURCE = { b: "billed_cost", e: "effective_cost", l: "list_cost" } as const;

/** The budget's status now, from the daily roll-up. */
export async function budgetStatus(db: Pick<Prisma | Tx, "$queryRawUnsafe">, budget: BudgetSpec, now: Date): Promise<BudgetStatus> {
  const [status] = await budgetStatuses(db, [budget], now);
  return status;
}

/**
 * The statuses of budgets of one tenant, in one statement over the tenant's roll-up rows of the
 * widest period (read through the tenant-leading primary key). Every period and forecast window
 * starts and ends on one of a few boundary days, so the rows are first summed per segment between
 * two consecutive boundaries (`width_bucket`), currency and the dimensions some budget filters on,
 * and only in the metrics some budget reads: a handful of groups instead of one per day. Per
 * budget, a filtered sum of those groups then gives its period's spend and its forecast window's,
 * in its currency (lines of other currencies do not count) and narrowed by its filters.
 */
export async function budgetStatuses(db: Pick<Prisma | Tx, "$queryRawUnsafe">, budgets: readonly BudgetSpec[], now: Date): Promise<BudgetStatus[]> {
  if (budgets.length === 0) return [];
  const { organizationId, tenantId } = budgets[0];
  for (const budget of budgets)
    if (budget.organizationId !== organizationId || budget.tenantId !== tenantId) throw new Error("budgetStatuses takes the budgets of one tenant");
  const periods = budgets.map((budget) => periodBounds(budget.period, now));
  const windows = periods.map((period) => forecastWindow(period, now));
  // The boundary days, ascending: segment k (1-based) holds the days from boundaries[k - 1] to the next.
  const boundaries = [...new Set([...periods, ...windows].flatMap((range) => [range.start.getTime(), range.end.getTime()]))].sort((a, b) => a - b);
  const segment = (time: number) => boundaries.indexOf(time) + 1;
  const params: unknown[] = [organizationId, tenantId, new Date(boundaries[0]), new Date(boundaries[boundaries.length - 1]), boundaries.map(isoDay)];
  const param = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  const metrics = [...new Set(budgets.map((budget) => METRIC_COLUMN[budget.metric]))];
  const sums = budgets.map((budget, i) => {
    // Dimension names and metric columns come from fixed lists; values are parameters.
    const narrowed = [`currency = ${param(budget.currency)}`];
    for (const name of BUDGET_FILTER_DIMENSIONS) {
      const values = budget.filters[name];
      if (values?.length) narrowed.push(`${name} = ANY(${param(values)}::text[])`);
    }
    const column = METRIC_COLUMN[budget.metric];
    // Segments are numbers from the fixed list above, written into the statement.
    const within = (range: { start: Date; end: Date }) => `k >= ${segment(range.start.getTime())} AND k < ${segment(range.end.getTime())}`;
    return (
      `COALESCE(sum(${column}) FILTER (WHERE ${within(periods[i])} AND ${narrowed.join(" AND ")}), 0)::text AS s${i}, ` +
      `COALESCE(sum(${column}) FILTER (WHERE ${within(windows[i])} AND ${narrowed.join(" AND ")}), 0)::text AS w${i}`
    );
  });
  const dimensions = ["currency", ...BUDGET_FILTER_DIMENSIONS.filter((name) => budgets.some((budget) => budget.filters[name]?.length))].join(", ");
  const metricSums = metrics.map((m) => `sum(${METRIC_SOURCE[m]}) AS ${m}`).join(", ");
  // Planned without JIT (SESSION_SETTINGS): compiling its many filtered sums would take far longer
  // than running them.
  const [row] = await db.$queryRawUnsafe<Record<string, string>[]>(
    `WITH d AS (
       SELECT width_bucket(day, $5::date[]) AS k, ${dimensions}, ${metricSums}
         FROM spend_daily WHERE organization_id = $1 AND tenant_id = $2 AND day >= $3::date AND day < $4::date
        GROUP BY 1, ${dimensions})
     SELECT ${sums.join(", ")} FROM d`,
    ...params,
  );
  return budgets.map((budget, i) => statusOf(budget, periods[i], windows[i].days, row[`s${i}`], row[`w${i}`], now));
}

const isoDay = (time: number) => new Date(time).toISOString().slice(0, 10);

function statusOf(
  budget: BudgetSpec,
  period: { start: Date; end: Date },
  windowDays: number,
  periodSpent: string,
  windowSpent: string,
  now: Date,
): BudgetStatus {
  const spent = new Decimal(periodSpent).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
  const projected = forecast({ spent: periodSpent, windowSpent, windowDays, now, periodEnd: period.end });
  const amounts = { amount: budget.amount, spent, forecast: projected };
  const crossed = budget.thresholds.filter((threshold) => isCrossed(threshold, amounts));
  return {
    period_start: period.start.toISOString(),
    period_end: period.end.toISOString(),
    spent: spent.toFixed(2),
    forecast: projected.toFixed(2),
    percent_used: percentUsed(budget.amount, spent).toFixed(2),
    state: budgetState(budget.amount, spent, crossed),
    crossed,
  };
}
