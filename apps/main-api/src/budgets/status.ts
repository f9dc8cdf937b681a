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

const METRIC_COLUMN = { billed_cost: "billed_cost", effective_cost: "effective_cost", list_cost: "list_cost" } as const;

/**
 * The budget's status now, from the daily roll-up in one aggregate (the period's spend and the
 * forecast window's), in the budget's currency; lines of other currencies do not count.
 */
export async function budgetStatus(db: Pick<Prisma | Tx, "$queryRawUnsafe">, budget: BudgetSpec, now: Date): Promise<BudgetStatus> {
  const period = periodBounds(budget.period, now);
  const window = forecastWindow(period, now);
  const params: unknown[] = [budget.organizationId, budget.tenantId, period.start, period.end, budget.currency, window.start, window.end];
  const conditions: string[] = [];
  for (const name of BUDGET_FILTER_DIMENSIONS) {
    const values = budget.filters[name];
    if (!values?.length) continue;
    params.push(values);
    // Dimension names come from the fixed list; values are parameters.
    conditions.push(`AND ${name} = ANY($${params.length}::text[])`);
  }
  const column = METRIC_COLUMN[budget.metric];
  const [row] = await db.$queryRawUnsafe<{ spent: string; window_spent: string }[]>(
    `SELECT COALESCE(sum(${column}), 0)::text AS spent,
            COALESCE(sum(${column}) FILTER (WHERE day >= $6::date AND day < $7::date), 0)::text AS window_spent
       FROM spend_daily
      WHERE organization_id = $1 AND tenant_id = $2 AND day >= $3::date AND day < $4::date AND currency = $5
            ${conditions.join(" ")}`,
    ...params,
  );
  const spent = new Decimal(row.spent).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
  const projected = forecast({ spent: row.spent, windowSpent: row.window_spent, windowDays: window.days, now, periodEnd: period.end });
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
