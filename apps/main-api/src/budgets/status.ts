import type { BudgetFilters, BudgetThreshold } from "@cloudcost/contracts";
import type { Budget } from "../generated/prisma/client";
import { type Decimal, toCents } from "@cloudcost/decimal";
import type { Prisma } from "../db";
import type { Tx } from "../transactions";
import { periodBounds } from "../spend/forecast/periods";
import { type ForecastMetric, type ForecastRepository, forecastRepository } from "../spend/forecast/repository";
import { computeForecast, type Forecast } from "../spend/forecast/rules";
import { dayCosts, forecastRanges, lineMatcher, recurringCharges } from "../spend/forecast/series";
import { dimensionFilterOf, hasDimension, recurringDimensionMatcher } from "../spend/forecast/dimension-filter";
import { spendReport } from "../spend/dimension-query";
import { type SpendReads, spendReadsOver } from "../spend/spend-reads";
import type { DayCost } from "../spend/forecast/rules";
import { type BudgetPeriod, budgetState, isCrossed, percentUsed, type BudgetState } from "./rules";

/** What the status of a budget is computed from. */
export interface BudgetSpec {
  organizationId: string;
  tenantId: string;
  period: BudgetPeriod;
  amount: Decimal.Value;
  currency: string;
  metric: ForecastMetric;
  filters: BudgetFilters;
  thresholds: BudgetThreshold[];
}

/** What the status of a stored budget is computed from. */
export function specOf(row: Budget): BudgetSpec {
  return {
    organizationId: row.organizationId,
    tenantId: row.tenantId,
    period: row.period as BudgetSpec["period"],
    amount: row.amount.toString(),
    currency: row.currency,
    metric: row.metric as BudgetSpec["metric"],
    filters: row.filters as BudgetFilters,
    thresholds: row.thresholds as unknown as BudgetThreshold[],
  };
}

export interface BudgetStatus {
  period_start: string;
  period_end: string;
  spent: string;
  /** Null with fewer than 3 days of history. */
  forecast: string | null;
  percent_used: string;
  state: BudgetState;
  crossed: BudgetThreshold[];
}

/** What a status is read through: one client or transaction, and the repositories read with it. */
export interface BudgetStatusReads {
  db: Pick<Prisma | Tx, "$queryRawUnsafe">;
  /** The daily series and the recurring lines. */
  forecasts: ForecastRepository;
  /** A budget narrowed to a dimension's values: the spend query by dimension. */
  spend: SpendReads;
}

/** The status reads over `db` with the service's repositories. */
export function budgetStatusReadsOver(db: Pick<Prisma | Tx, "$queryRawUnsafe">): BudgetStatusReads {
  return { db, forecasts: forecastRepository, spend: spendReadsOver(queryClient(db)) };
}

/** The budget's status now, from the daily roll-up. */
export async function budgetStatus(reads: BudgetStatusReads, budget: BudgetSpec, now: Date): Promise<BudgetStatus> {
  const [status] = await budgetStatuses(reads, [budget], now);
  return status;
}

/**
 * The statuses of budgets of one tenant: one statement reads each budget's daily Usage-Based and
 * other cost over the widest of their forecast ranges (the tenant's roll-up rows, narrowed per
 * budget by its currency and filters), one more the tenant's recurring series; each budget's
 * forecast is then computed as the forecast endpoint's (docs/api.md, "Spend forecast").
 */
export async function budgetStatuses(reads: BudgetStatusReads, budgets: readonly BudgetSpec[], now: Date): Promise<BudgetStatus[]> {
  const { db, forecasts } = reads;
  if (budgets.length === 0) return [];
  const { organizationId, tenantId } = budgets[0];
  for (const budget of budgets)
    if (budget.organizationId !== organizationId || budget.tenantId !== tenantId) throw new Error("budgetStatuses takes the budgets of one tenant");
  const tenant = { id: tenantId, organizationId };
  const periods = budgets.map((budget) => periodBounds(budget.period, now));
  const ranges = periods.map((period) => forecastRanges(period, now));
  // ISO days and timestamps sort as text.
  const widest = (pick: (range: (typeof ranges)[number]) => { from: string; to: string }) => ({
    from: ranges.map((range) => pick(range).from).sort()[0],
    to: ranges
      .map((range) => pick(range).to)
      .sort()
      .reverse()[0],
  });
  const rows = await forecasts.readDailySeries(
    db,
    tenant,
    widest((range) => range.days),
    budgets.map((budget) => ({ metric: budget.metric, currency: budget.currency, filters: budget.filters })),
  );
  const lines = await forecasts.readRecurringLines(
    db,
    tenant,
    widest((range) => range.recurring),
  );
  const statuses: BudgetStatus[] = [];
  for (const [i, budget] of budgets.entries()) {
    const range = ranges[i].days;
    const dimension = dimensionFilterOf(budget.filters as Record<string, string[] | undefined>);
    const days = dimension
      ? await dimensionDays(reads.spend, budget, dimension, range)
      : dayCosts(rows.filter((row) => row.day >= range.from && row.day < range.to).map((row) => ({ day: row.day, usage: row[`u${i}`], other: row[`o${i}`] })));
    const matches = lineMatcher(budget.filters);
    const inDimension = dimension ? await recurringDimensionMatcher(reads.spend, organizationId, tenantId, dimension) : () => true;
    const recurring = recurringCharges(lines, budget.metric, budget.currency, (line) => matches(line) && inDimension(line));
    statuses.push(statusOf(budget, periods[i], computeForecast({ period: periods[i], now, days, recurring })));
  }
  return statuses;
}

/** The raw queries of a Prisma client or transaction as the spend queries run them. */
export const queryClient = (db: Pick<Prisma | Tx, "$queryRawUnsafe">) => ({
  query: <T>(text: string, params: unknown[] = []) => db.$queryRawUnsafe<T[]>(text, ...params),
});

/**
 * A budget narrowed to a dimension's values: its days as the spend query by that dimension answers
 * them (the split view), Usage-Based apart. A dimension deleted since counts nothing.
 */
async function dimensionDays(
  reads: SpendReads,
  budget: BudgetSpec,
  dimension: { key: string; values: string[] },
  range: { from: string; to: string },
): Promise<Map<string, DayCost>> {
  if (!(await hasDimension(reads, budget.organizationId, dimension.key))) return dayCosts([]);
  const filters = Object.fromEntries(Object.entries(budget.filters).filter(([name]) => !name.startsWith("dimension:")));
  const report = await spendReport(
    reads,
    { organizationId: budget.organizationId, tenantIds: [budget.tenantId] },
    {
      start: `${range.from}T00:00:00.000Z`,
      end: `${range.to}T00:00:00.000Z`,
      granularity: "day",
      metric: budget.metric,
      group_by: ["charge_frequency"],
      filters,
      tags: {},
      dimension_filters: { [dimension.key]: dimension.values },
    },
  );
  return dayCosts(
    report.rows.map((row) => {
      const cost = row.currency === budget.currency ? row.cost : "0";
      const usageBased = row.group.charge_frequency === "Usage-Based";
      return { day: row.period_start.slice(0, 10), usage: usageBased ? cost : "0", other: usageBased ? "0" : cost };
    }),
  );
}

function statusOf(budget: BudgetSpec, period: { start: Date; end: Date }, projection: Forecast): BudgetStatus {
  const spent = toCents(projection.spent);
  const projected = projection.forecast === null ? null : toCents(projection.forecast);
  const crossed = budget.thresholds.filter((threshold) => isCrossed(threshold, { amount: budget.amount, spent, forecast: projected }));
  return {
    period_start: period.start.toISOString(),
    period_end: period.end.toISOString(),
    spent: spent.toFixed(2),
    forecast: projected === null ? null : projected.toFixed(2),
    percent_used: percentUsed(budget.amount, spent).toFixed(2),
    state: budgetState(budget.amount, spent, crossed),
    crossed,
  };
}
