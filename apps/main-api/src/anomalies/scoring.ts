import { Decimal } from "@cloudcost/decimal";

/** Days of history the recent baseline (the median of the days before) needs. */
export const BASELINE_DAYS = 14;
/** Weeks of the weekday baseline: with this many weeks of history, a day is compared with the same weekday of each. */
export const WEEKDAY_WEEKS = 4;
/** The history a monitor's day can be compared with: 28 days. */
export const HISTORY_DAYS = WEEKDAY_WEEKS * 7;
/** Scales the median absolute deviation to a normal distribution's standard deviation. */
export const MAD_SCALE = new Decimal("1.4826");
export const SCORE_THRESHOLD = 3;
/**
 * Service monitors per tenant, besides its total: the services with the most cost in the days
 * scored (a detection's cost then grows with its lines, not with services x days).
 */
export const MAX_SERVICE_MONITORS = 200;
/**
 * The smallest scaled MAD a score divides by: a flat history (MAD 0) still gives a finite score
 * (then the floors in the monitor's currency and percent decide).
 */
export const MIN_SCALED_MAD = new Decimal("0.01");

export interface AnomalyFloors {
  /** In units of the monitor's currency (the organization's `anomaly_min_usd`). */
  minUsd: Decimal.Value;
  minPercent: Decimal.Value;
}

export interface DayCost {
  /** YYYY-MM-DD (UTC). */
  day: string;
  cost: Decimal.Value;
}

export type AnomalyReason = "spike" | "new_service";

export interface Scored {
  day: string;
  cost: Decimal;
  /** The median of the baseline (0 for a new service). */
  expected: Decimal;
  /** cost - expected. */
  impact: Decimal;
  /** impact / max(1.4826 x MAD, 0.01), four decimals. */
  score: Decimal;
  reason: AnomalyReason;
  anomaly: boolean;
}

export function median(values: readonly Decimal[]): Decimal {
  const sorted = [...values].sort((a, b) => a.comparedTo(b));
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : sorted[mid - 1].plus(sorted[mid]).div(2);
}

/** Scores `cost` against its baseline: an anomaly exceeds the median by more than both floors, with a score above 3. */
export function scoreDay(day: string, cost: Decimal.Value, baseline: readonly Decimal.Value[], floors: AnomalyFloors, reason: AnomalyReason = "spike"): Scored {
  const values = baseline.map((value) => (value instanceof Decimal ? value : new Decimal(value)));
  const value = cost instanceof Decimal ? cost : new Decimal(cost);
  const expected = median(values);
  const mad = median(values.map((v) => v.minus(expected).abs()));
  const impact = value.minus(expected);
  const score = impact.div(Decimal.max(mad.mul(MAD_SCALE), MIN_SCALED_MAD)).toDecimalPlaces(4, Decimal.ROUND_HALF_UP);
  const anomaly = impact.gt(floors.minUsd) && impact.gt(expected.mul(floors.minPercent).div(100)) && score.gt(SCORE_THRESHOLD);
  return { day, cost: value, expected, impact, score, reason, anomaly };
}

/**
 * The baseline of the day at `i` of a monitor's dense series (every day from its first one, days
 * without cost as 0): a service without cost in the (up to 28) days before, while its tenant has 14
 * days of history in the currency (`established`), is new (baseline 0); with 28 days before, the
 * same weekday of the 4 weeks before; with 14, those 14 days; else none (the day is not scored).
 */
export function baselineOf(
  costs: readonly Decimal[],
  i: number,
  monitor: { kind: "service" | "total"; established: boolean },
): { values: Decimal[]; reason: AnomalyReason } | null {
  const history = costs.slice(Math.max(0, i - HISTORY_DAYS), i);
  if (monitor.kind === "service" && monitor.established && history.every((v) => v.isZero())) return { values: [new Decimal(0)], reason: "new_service" };
  if (i >= HISTORY_DAYS) return { values: Array.from({ length: WEEKDAY_WEEKS }, (_, w) => costs[i - HISTORY_DAYS + w * 7]), reason: "spike" };
  if (i >= BASELINE_DAYS) return { values: costs.slice(i - BASELINE_DAYS, i), reason: "spike" };
  return null;
}

/**
 * The anomalous days of one monitor's dense series (ascending). `tenantFirstDay` is the tenant's
 * first day with usage cost in the currency: a service is new only once the tenant has 14 days
 * before (for the total monitor it is not used).
 */
export function detectAnomalies(
  series: readonly DayCost[],
  floors: AnomalyFloors,
  monitor: { kind: "service" | "total"; tenantFirstDay?: string } = { kind: "service" },
): Scored[] {
  const found: Scored[] = [];
  const costs = series.map((d) => new Decimal(d.cost));
  const tenantFirst = monitor.tenantFirstDay ?? series[0]?.day;
  for (let i = 0; i < series.length; i++) {
    const established = tenantFirst !== undefined && (Date.parse(series[i].day) - Date.parse(tenantFirst)) / 86_400_000 >= BASELINE_DAYS;
    const baseline = baselineOf(costs, i, { kind: monitor.kind, established });
    if (!baseline) continue;
    const scored = scoreDay(series[i].day, costs[i], baseline.values, floors, baseline.reason);
    if (scored.anomaly) found.push(scored);
  }
  return found;
}

/** Consecutive days (YYYY-MM-DD, ascending, distinct) as runs of [first, last]. */
export function consecutiveRuns<T extends { day: string }>(days: readonly T[]): T[][] {
  const runs: T[][] = [];
  for (const item of days) {
    const run = runs.at(-1);
    const last = run?.at(-1);
    if (run && last && Date.parse(item.day) - Date.parse(last.day) === 86_400_000) run.push(item);
    else runs.push([item]);
  }
  return runs;
}
