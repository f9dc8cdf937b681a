import type { BudgetFilters, BudgetThreshold } from "@cloudcost/contracts";
import Decimal from "decimal.js";
import type { Prisma } from "../db";
import type { Tx } from "../transactions";
import { type BudgetMetric, sumSpend } from "./repository";
import { type BudgetPeriod, budgetState, forecast, forecastWindow, isCrossed, percentUsed, periodBounds, type BudgetState } from "./rules";

/** What the status of a budget is computed from. */
export interface BudgetSpec {
  organizationId: string;
  tenantId: string;
  period: BudgetPeriod;
  amount: Decimal.Value;
  currency: string;
  metric: BudgetMetric;
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

/** The budget's status now, from the daily roll-up. */
export async function budgetStatus(db: Pick<Prisma | Tx, "$queryRawUnsafe">, budget: BudgetSpec, now: Date): Promise<BudgetStatus> {
  const [status] = await budgetStatuses(db, [budget], now);
  return status;
}

/**
 * The statuses of budgets of one tenant, in one statement over the tenant's roll-up rows of the
 * widest period. Every period and forecast window starts and ends on one of a few boundary days, so
 * the statement sums the rows per segment between two consecutive boundaries first (a handful of
 * groups instead of one per day); per budget, a filtered sum of those groups then gives its period's
 * spend and its forecast window's, in its currency (lines of other currencies do not count) and
 * narrowed by its filters.
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
  const segments = (range: { start: Date; end: Date }) => ({
    from: boundaries.indexOf(range.start.getTime()) + 1,
    to: boundaries.indexOf(range.end.getTime()) + 1,
  });
  const sums = await sumSpend(
    db,
    { id: tenantId, organizationId },
    boundaries.map((time) => new Date(time)),
    budgets.map((budget, i) => ({
      metric: budget.metric,
      currency: budget.currency,
      filters: budget.filters,
      period: segments(periods[i]),
      window: segments(windows[i]),
    })),
  );
  return budgets.map((budget, i) => statusOf(budget, periods[i], windows[i].days, sums[i].spent, sums[i].windowSpent, now));
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
