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

/** The budget's status now, from the daily roll-up. */
export async function budgetStatus(db: Pick<Prisma | Tx, "$queryRawUnsafe">, budget: BudgetSpec, now: Date): Promise<BudgetStatus> {
  const [status] = await budgetStatuses(db, [budget], now);
  return status;
}

/**
 * The statuses of budgets of one tenant, in one pass over the tenant's roll-up rows of the widest
 * period: per budget, a filtered sum of its period's spend and one of its forecast window's, in
 * its currency (lines of other currencies do not count) and narrowed by its filters.
 */
export async function budgetStatuses(db: Pick<Prisma | Tx, "$queryRawUnsafe">, budgets: readonly BudgetSpec[], now: Date): Promise<BudgetStatus[]> {
  if (budgets.length === 0) return [];
  const { organizationId, tenantId } = budgets[0];
  const periods = budgets.map((budget) => periodBounds(budget.period, now));
  const windows = periods.map((period) => forecastWindow(period, now));
  const params: unknown[] = [
    organizationId,
    tenantId,
    new Date(Math.min(...periods.map((p) => p.start.getTime()))),
    new Date(Math.max(...periods.map((p) => p.end.getTime()))),
  ];
  const param = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  const sums = budgets.map((budget, i) => {
    if (budget.organizationId !== organizationId || budget.tenantId !== tenantId) throw new Error("budgetStatuses takes the budgets of one tenant");
    // Dimension names and metric columns come from fixed lists; values are parameters.
    const narrowed = [`currency = ${param(budget.currency)}`];
    for (const name of BUDGET_FILTER_DIMENSIONS) {
      const values = budget.filters[name];
      if (values?.length) narrowed.push(`${name} = ANY(${param(values)}::text[])`);
    }
    const column = METRIC_COLUMN[budget.metric];
    const within = (range: { start: Date; end: Date }) => `day >= ${param(range.start)}::date AND day < ${param(range.end)}::date`;
    return (
      `COALESCE(sum(${column}) FILTER (WHERE ${within(periods[i])} AND ${narrowed.join(" AND ")}), 0)::text AS s${i}, ` +
      `COALESCE(sum(${column}) FILTER (WHERE ${within(windows[i])} AND ${narrowed.join(" AND ")}), 0)::text AS w${i}`
    );
  });
  // Summed first by day, currency and the dimensions some budget filters on: the per-budget sums
  // then run over far fewer rows than the roll-up holds.
  const keys = ["day", "currency", ...BUDGET_FILTER_DIMENSIONS.filter((name) => budgets.some((budget) => budget.filters[name]?.length))].join(", ");
  const [row] = await db.$queryRawUnsafe<Record<string, string>[]>(
    `WITH d AS (
       SELECT ${keys}, sum(billed_cost) AS b, sum(effective_cost) AS e, sum(list_cost) AS l
         FROM spend_daily WHERE organization_id = $1 AND tenant_id = $2 AND day >= $3::date AND day < $4::date
        GROUP BY ${keys})
     SELECT ${sums.join(", ")} FROM d`,
    ...params,
  );
  return budgets.map((budget, i) => statusOf(budget, periods[i], windows[i].days, row[`s${i}`], row[`w${i}`], now));
}

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
