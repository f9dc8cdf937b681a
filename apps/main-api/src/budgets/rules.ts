import { Decimal } from "@cloudcost/decimal";

export type { CalendarPeriod as BudgetPeriod } from "../spend/forecast/periods";
export type ThresholdKind = "actual" | "forecast";
export interface Threshold {
  percent: number;
  kind: ThresholdKind;
}
export type BudgetState = "ok" | "warning" | "exceeded";

/**
 * A threshold is crossed when spent (actual) or forecast (forecast) reaches `percent` of the
 * amount; a forecast threshold is not evaluated without a forecast.
 */
export function isCrossed(threshold: Threshold, amounts: { amount: Decimal.Value; spent: Decimal.Value; forecast: Decimal.Value | null }): boolean {
  const measured = threshold.kind === "actual" ? amounts.spent : amounts.forecast;
  if (measured === null) return false;
  return new Decimal(measured).gte(new Decimal(amounts.amount).mul(threshold.percent).div(100));
}

/** `exceeded` once spent reaches the amount, else `warning` when any threshold is crossed, else `ok`. */
export function budgetState(amount: Decimal.Value, spent: Decimal.Value, crossed: readonly Threshold[]): BudgetState {
  if (new Decimal(spent).gte(amount)) return "exceeded";
  return crossed.length > 0 ? "warning" : "ok";
}

/** spent / amount in percent, two decimals. */
export function percentUsed(amount: Decimal.Value, spent: Decimal.Value): Decimal {
  return new Decimal(spent).mul(100).div(amount).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
}
