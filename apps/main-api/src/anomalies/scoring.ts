import Decimal from "decimal.js";

export const BASELINE_DAYS = 14;
/** Scales the median absolute deviation to a normal distribution's standard deviation. */
export const MAD_SCALE = new Decimal("1.4826");
export const SCORE_THRESHOLD = 3;
/**
 * The smallest scaled MAD a score divides by: a flat history (MAD 0) still gives a finite score
 * (then the floors in USD and percent decide).
 */
export const MIN_SCALED_MAD = new Decimal("0.01");

export interface AnomalyFloors {
  minUsd: Decimal.Value;
  minPercent: Decimal.Value;
}

export interface DayCost {
  /** YYYY-MM-DD (UTC). */
  day: string;
  cost: Decimal.Value;
}

export interface Scored {
  day: string;
  cost: Decimal;
  /** The median of the 14 days before. */
  expected: Decimal;
  /** cost - expected. */
  impact: Decimal;
  /** impact / max(1.4826 x MAD, 0.01), four decimals. */
  score: Decimal;
  anomaly: boolean;
}

export function median(values: readonly Decimal[]): Decimal {
  const sorted = [...values].sort((a, b) => a.comparedTo(b));
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : sorted[mid - 1].plus(sorted[mid]).div(2);
}

/** Scores `cost` against its 14-day history: an anomaly exceeds the median by more than both floors, with a score above 3. */
export function scoreDay(day: string, cost: Decimal.Value, history: readonly Decimal.Value[], floors: AnomalyFloors): Scored {
  const values = history.map((value) => (value instanceof Decimal ? value : new Decimal(value)));
  const value = cost instanceof Decimal ? cost : new Decimal(cost);
  const expected = median(values);
  const mad = median(values.map((v) => v.minus(expected).abs()));
  const impact = value.minus(expected);
  const score = impact.div(Decimal.max(mad.mul(MAD_SCALE), MIN_SCALED_MAD)).toDecimalPlaces(4, Decimal.ROUND_HALF_UP);
  const anomaly = impact.gt(floors.minUsd) && impact.gt(expected.mul(floors.minPercent).div(100)) && score.gt(SCORE_THRESHOLD);
  return { day, cost: value, expected, impact, score, anomaly };
}

/**
 * The anomalies of one service's daily series (every day from its first one, ascending, days
 * without cost as 0): each day with 14 days before it is scored against them.
 */
export function detectAnomalies(series: readonly DayCost[], floors: AnomalyFloors): Scored[] {
  const found: Scored[] = [];
  const costs = series.map((d) => new Decimal(d.cost));
  for (let i = BASELINE_DAYS; i < series.length; i++) {
    const scored = scoreDay(series[i].day, costs[i], costs.slice(i - BASELINE_DAYS, i), floors);
    if (scored.anomaly) found.push(scored);
  }
  return found;
}
