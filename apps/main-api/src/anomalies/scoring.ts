import { Decimal } from "@cloudcost/decimal";

/** Days of history the recent baseline (the median of the days before) needs. */
export const BASELINE_DAYS = 14;
/** Weeks of the weekday baseline: with this many weeks of history, a day is compared with the same weekday of each. */
export const WEEKDAY_WEEKS = 4;
/** The history a monitor's day can be compared with: 28 days. */
export const HISTORY_DAYS = WEEKDAY_WEEKS * 7;
/** A day within this fraction of the same day of the month in each of the previous MONTHLY_MONTHS months is expected. */
export const MONTHLY_TOLERANCE = new Decimal("0.2");
export const MONTHLY_MONTHS = 2;
/** The days before the first day scored a detection reads: the same day of the month 2 months back is at most 62 days before. */
export const LOOKBACK_DAYS = 62;
/** A new service's anomaly lasts, while it stays above the floors, for at most this many days from its first. */
export const NEW_SERVICE_DAYS = 14;
/** Anomalous days of one monitor separated by at most this many normal days are one anomaly. */
export const MERGE_GAP_DAYS = 2;
/** Feedback mutes a monitor only for days costing at most this many times the muted anomaly's largest day. */
export const MUTE_CEILING = new Decimal("1.2");
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

/** The same day of the month `months` months before `day` (YYYY-MM-DD), or null when that month has no such day. */
export function sameDayMonthsBefore(day: string, months: number): string | null {
  const [y, m, d] = day.split("-").map(Number);
  const before = new Date(Date.UTC(y, m - 1 - months, d));
  return before.getUTCDate() === d ? before.toISOString().slice(0, 10) : null;
}

/**
 * Whether a cost is expected as a monthly job: within 20 % of the same day of the month in each of
 * the previous 2 months (`costOn` gives a day's cost, undefined before the series begins).
 */
export function monthlyExpected(day: string, cost: Decimal, costOn: (day: string) => Decimal | undefined): boolean {
  for (let months = 1; months <= MONTHLY_MONTHS; months++) {
    const before = sameDayMonthsBefore(day, months);
    const previous = before === null ? undefined : costOn(before);
    if (previous === undefined || cost.minus(previous).abs().gt(previous.mul(MONTHLY_TOLERANCE))) return false;
  }
  return true;
}

/**
 * The anomalous days of one monitor's dense series (ascending). `tenantFirstDay` is the tenant's
 * first day with usage cost in the currency: a service is new only once the tenant has 14 days
 * before (for the total monitor it is not used). A new service's anomalous first day starts a range:
 * each of the next 13 days is scored as new too (baseline 0) while every day since the first stays
 * above the floors. A day within 20 % of the same day of the month in each of the previous 2 months
 * is expected (no anomaly).
 */
export function detectAnomalies(
  series: readonly DayCost[],
  floors: AnomalyFloors,
  monitor: { kind: "service" | "total"; tenantFirstDay?: string } = { kind: "service" },
): Scored[] {
  const found: Scored[] = [];
  const costs = series.map((d) => new Decimal(d.cost));
  const index = new Map(series.map((d, i) => [d.day, i]));
  const costOn = (day: string) => {
    const i = index.get(day);
    return i === undefined ? undefined : costs[i];
  };
  const tenantFirst = monitor.tenantFirstDay ?? series[0]?.day;
  /** The index of the first day of the new service's range still running, if any. */
  let newSince: number | null = null;
  for (let i = 0; i < series.length; i++) {
    const established = tenantFirst !== undefined && (Date.parse(series[i].day) - Date.parse(tenantFirst)) / 86_400_000 >= BASELINE_DAYS;
    let baseline = baselineOf(costs, i, { kind: monitor.kind, established });
    const ramping: boolean = newSince !== null && i - newSince < NEW_SERVICE_DAYS;
    if (ramping) baseline = { values: [new Decimal(0)], reason: "new_service" };
    if (!baseline) {
      newSince = null;
      continue;
    }
    const scored = scoreDay(series[i].day, costs[i], baseline.values, floors, baseline.reason);
    // The range of a new service starts at its first anomalous day and ends at its first day under the floors.
    if (scored.reason === "new_service") newSince = scored.anomaly ? (ramping ? newSince : i) : null;
    else newSince = null;
    if (scored.anomaly && !monthlyExpected(series[i].day, costs[i], costOn)) found.push(scored);
  }
  return found;
}

/**
 * Anomalous days (YYYY-MM-DD, ascending, distinct) as runs: a day at most `gap` normal days after
 * the last of a run joins it (gap 0: consecutive days only).
 */
export function consecutiveRuns<T extends { day: string }>(days: readonly T[], gap = MERGE_GAP_DAYS): T[][] {
  const runs: T[][] = [];
  for (const item of days) {
    const run = runs.at(-1);
    const last = run?.at(-1);
    if (run && last && Date.parse(item.day) - Date.parse(last.day) <= (gap + 1) * 86_400_000) run.push(item);
    else runs.push([item]);
  }
  return runs;
}
