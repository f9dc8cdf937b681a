import Decimal from "decimal.js";

export type BudgetPeriod = "monthly" | "quarterly" | "annual";
export type ThresholdKind = "actual" | "forecast";
export interface Threshold {
  percent: number;
  kind: ThresholdKind;
}
export type BudgetState = "ok" | "warning" | "exceeded";

const DAY_MS = 86_400_000;
const MONTHS: Record<BudgetPeriod, number> = { monthly: 1, quarterly: 3, annual: 12 };

/** The UTC period holding `at`: [start, end), calendar months, quarters (Jan, Apr, Jul, Oct) or years. */
export function periodBounds(period: BudgetPeriod, at: Date): { start: Date; end: Date } {
  const months = MONTHS[period];
  const year = at.getUTCFullYear();
  const first = Math.floor(at.getUTCMonth() / months) * months;
  return { start: new Date(Date.UTC(year, first, 1)), end: new Date(Date.UTC(year, first + months, 1)) };
}

/** Midnight UTC of the day holding `at`. */
export function dayStart(at: Date): Date {
  return new Date(Math.floor(at.getTime() / DAY_MS) * DAY_MS);
}

/**
 * The window the forecast's daily mean is taken over: the last 7 complete days of the period before
 * `now`, or every complete day of the period when fewer (none on its first day).
 */
export function forecastWindow(period: { start: Date; end: Date }, now: Date): { start: Date; end: Date; days: number } {
  const end = new Date(Math.min(dayStart(now).getTime(), period.end.getTime()));
  const complete = Math.max(0, Math.round((end.getTime() - period.start.getTime()) / DAY_MS));
  const days = Math.min(7, complete);
  return { start: new Date(end.getTime() - days * DAY_MS), end, days };
}

/**
 * forecast = spent + mean daily spend of the window x the days left in the period (from `now`, in
 * fractional days: today's spend so far is already in `spent`). Without a complete day, the spend so
 * far is the forecast. Rounded half-up to cents.
 */
export function forecast(input: { spent: Decimal.Value; windowSpent: Decimal.Value; windowDays: number; now: Date; periodEnd: Date }): Decimal {
  const spent = new Decimal(input.spent);
  const left = Math.max(0, input.periodEnd.getTime() - input.now.getTime());
  if (input.windowDays === 0 || left === 0) return spent.toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
  const mean = new Decimal(input.windowSpent).div(input.windowDays);
  return spent.plus(mean.mul(new Decimal(left).div(DAY_MS))).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
}

/** A threshold is crossed when spent (actual) or forecast (forecast) reaches `percent` of the amount. */
export function isCrossed(threshold: Threshold, amounts: { amount: Decimal.Value; spent: Decimal.Value; forecast: Decimal.Value }): boolean {
  const measured = new Decimal(threshold.kind === "actual" ? amounts.spent : amounts.forecast);
  return measured.gte(new Decimal(amounts.amount).mul(threshold.percent).div(100));
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
