import { Decimal } from "@cloudcost/decimal";

const DAY_MS = 86_400_000;
/** Weekday medians need this many days of history; with fewer, the recent mean serves. */
export const WEEKDAY_HISTORY_DAYS = 28;
/** With fewer complete days of history there is no forecast. */
export const MIN_HISTORY_DAYS = 3;
const RECENT_DAYS = 7;
const WEEKS = 4;
/** The forecast's 80 % interval: these percentiles of each day's reference set. */
const LOW = "0.1";
const HIGH = "0.9";

export type ForecastBasis = "weekday_median" | "recent_mean" | "none";

/** One day's cost, split into what extrapolates (Usage-Based) and what does not (Recurring, One-Time). */
export interface DayCost {
  usage: Decimal;
  other: Decimal;
}

/** The latest charge of a series of Recurring lines (same billing account, service and SKU). */
export interface RecurringCharge {
  start: Date;
  end: Date;
  amount: Decimal;
}

export interface ForecastInput {
  period: { start: Date; end: Date };
  now: Date;
  /** Cost per UTC day (YYYY-MM-DD) that has lines, from at least 35 days before today to the period's end. */
  days: Map<string, DayCost>;
  recurring: RecurringCharge[];
}

export interface ForecastRow {
  day: string;
  actual: Decimal | null;
  /** For the days left: the run rate (today: less what it spent, at least 0) and the recurring charges due. */
  expected: Decimal | null;
  /** The 80 % interval of `expected`: its reference set's 10th and 90th percentiles in place of the run rate. */
  expectedLow: Decimal | null;
  expectedHigh: Decimal | null;
}

export interface Forecast {
  basis: ForecastBasis;
  spent: Decimal;
  recurringRemaining: Decimal;
  usageRemaining: Decimal;
  /** Null with fewer than MIN_HISTORY_DAYS days of history. */
  forecast: Decimal | null;
  /** The 80 % interval of the forecast (null with it). */
  forecastLow: Decimal | null;
  forecastHigh: Decimal | null;
  /** The last day with data (YYYY-MM-DD), today at the latest; null without data. */
  dataThrough: string | null;
  rows: ForecastRow[];
}

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const dayOf = (ms: number) => Math.floor(ms / DAY_MS) * DAY_MS;

function median(values: Decimal[]): Decimal {
  const sorted = [...values].sort((a, b) => a.comparedTo(b));
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : sorted[mid - 1].plus(sorted[mid]).div(2);
}

/**
 * The p-th percentile (0 < p < 1, as a decimal text) of `values` by linear interpolation between
 * the closest ranks: position p x (n - 1) of the sorted values (0 for no values).
 */
export function percentile(values: readonly Decimal[], p: string): Decimal {
  if (values.length === 0) return new Decimal(0);
  const sorted = [...values].sort((a, b) => a.comparedTo(b));
  const position = new Decimal(p).mul(sorted.length - 1);
  const below = position.floor().toNumber();
  const fraction = position.minus(below);
  if (below + 1 >= sorted.length) return sorted[sorted.length - 1];
  return sorted[below].plus(sorted[below + 1].minus(sorted[below]).mul(fraction));
}

/** Whether [start, end) is one whole calendar month (its repetitions then follow the calendar). */
function isCalendarMonth(start: Date, end: Date): boolean {
  return (
    start.getTime() === Date.UTC(start.getUTCFullYear(), start.getUTCMonth(), 1) &&
    end.getTime() === Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1)
  );
}

/** floor(a / b) of integers (b > 0), exact where the float quotient rounds to an integer. */
function floorDiv(a: number, b: number): number {
  let q = Math.floor(a / b);
  while (q * b > a) q--;
  while ((q + 1) * b <= a) q++;
  return q;
}

/** Months since year 0 of the month holding `ms` (UTC). */
const monthIndex = (ms: number) => new Date(ms).getUTCFullYear() * 12 + new Date(ms).getUTCMonth();

/**
 * How a charge repeats: the start of its n-th repetition (n = 1: the first after it), and the number
 * of repetitions (n >= 1) starting before a time, both in constant time. A charge shorter than a day
 * (zero length included) never repeats. A whole calendar month repeats by the calendar; any other
 * length L (at least a day) at start + n x L.
 */
interface Repetitions {
  start(n: number): number;
  /** #{n >= 1 : start(n) < t}. */
  before(t: number): number;
}

function repetitionsOf(charge: RecurringCharge): Repetitions | null {
  const s0 = charge.start.getTime();
  const length = charge.end.getTime() - s0;
  if (!(length >= DAY_MS)) return null;
  if (isCalendarMonth(charge.start, charge.end)) {
    const m0 = monthIndex(s0);
    return {
      start: (n) => Date.UTC(charge.start.getUTCFullYear(), charge.start.getUTCMonth() + n, 1),
      // Repetition n starts on the 1st of month m0 + n: those before t are the months after m0 whose 1st is before t.
      before: (t) => Math.max(0, monthIndex(t) - m0 - (t === Date.UTC(new Date(t).getUTCFullYear(), new Date(t).getUTCMonth(), 1) ? 1 : 0)),
    };
  }
  return {
    start: (n) => s0 + n * length,
    // s0 + n x L < t  <=>  n <= floor((t - s0 - 1) / L) for integer milliseconds.
    before: (t) => Math.max(0, floorDiv(t - s0 - 1, length)),
  };
}

/**
 * The forecast of a period: spent so far + the recurring charges still to come + the usage run
 * rate x the days left.
 * - Data through: the last day with data, today at the latest. Complete days with data are the days
 *   before both today and the day after it: the run rate is taken from those only, so days whose
 *   bill has not arrived yet are not read as zeros.
 * - Days left: the days of the period after the last day with data, each at its run rate, and today
 *   when it has data: counted in `spent`, and expected at its run rate less the usage it already
 *   spent (at least 0).
 * - Recurring charges to come: each series' latest charge repeats with its amount and length (a
 *   whole calendar month repeats by the calendar); the repetitions starting after the last day
 *   with data and before the period's end count, counted by arithmetic. A charge shorter than a
 *   day (zero length included) is counted once, where it was billed, and never repeats. A series
 *   whose next charge was due by the last day with data and did not come has ended.
 * - Usage run rate of a day: the median Usage-Based cost of its reference set, the last 4 same
 *   weekdays among the complete days with data, when 28 such days of usage history exist (since the
 *   first day with Usage-Based cost), else the mean of its reference set, the last 7 complete days
 *   with data (of that history, if fewer; 0 without usage); with fewer than 3 complete days of any
 *   history, no forecast.
 * - Interval (80 %): the same sum with each day left at the 10th and the 90th percentile of its
 *   reference set (linear interpolation; today less what it spent, at least 0).
 */
export function computeForecast(input: ForecastInput): Forecast {
  const today = dayOf(input.now.getTime());
  const periodStart = input.period.start.getTime();
  const periodEnd = input.period.end.getTime();
  const costOf = (ms: number) => input.days.get(isoDay(ms));
  let first: number | undefined;
  let last: number | undefined;
  for (const day of input.days.keys()) {
    const ms = Date.parse(`${day}T00:00:00.000Z`);
    if (ms > today) continue;
    if (first === undefined || ms < first) first = ms;
    if (last === undefined || ms > last) last = ms;
  }
  let spent = new Decimal(0);
  for (const [day, cost] of input.days) {
    const ms = Date.parse(`${day}T00:00:00.000Z`);
    if (ms >= periodStart && ms < periodEnd) spent = spent.plus(cost.usage).plus(cost.other);
  }
  // Complete days with data end (exclusive) at today or the day after the last day with data, whichever is first.
  const completeEnd = last === undefined ? today : Math.min(last + DAY_MS, today);
  // History: complete days since the first day with data; the run rate's own history starts at the first day with usage.
  const historyDays = first === undefined ? 0 : Math.max(0, Math.round((today - first) / DAY_MS));
  let firstUsage: number | undefined;
  for (const [day, cost] of input.days) {
    const ms = Date.parse(`${day}T00:00:00.000Z`);
    if (ms < completeEnd && !cost.usage.isZero() && (firstUsage === undefined || ms < firstUsage)) firstUsage = ms;
  }
  const usageDays = firstUsage === undefined ? 0 : Math.round((completeEnd - firstUsage) / DAY_MS);
  const basis: ForecastBasis = historyDays < MIN_HISTORY_DAYS ? "none" : usageDays >= WEEKDAY_HISTORY_DAYS ? "weekday_median" : "recent_mean";
  const usage = (ms: number) => costOf(ms)?.usage ?? new Decimal(0);
  const recentSet = Array.from({ length: Math.min(RECENT_DAYS, usageDays) }, (_, i) => usage(completeEnd - (i + 1) * DAY_MS));
  const recentMean = recentSet.length ? recentSet.reduce((a, b) => a.plus(b), new Decimal(0)).div(recentSet.length) : new Decimal(0);
  const recent = { rate: recentMean, low: percentile(recentSet, LOW), high: percentile(recentSet, HIGH) };
  const rateOf = (ms: number): { rate: Decimal; low: Decimal; high: Decimal } => {
    if (basis !== "weekday_median") return recent;
    // The same weekday in the 4 weeks of complete days with data.
    const back = (7 + ((new Date(completeEnd).getUTCDay() - new Date(ms).getUTCDay()) % 7)) % 7 || 7;
    const sameWeekdays = Array.from({ length: WEEKS }, (_, w) => usage(completeEnd - (back + 7 * w) * DAY_MS));
    return { rate: median(sameWeekdays), low: percentile(sameWeekdays, LOW), high: percentile(sameWeekdays, HIGH) };
  };

  const lastDay = last ?? today - DAY_MS;
  const expectedFrom = Math.max(lastDay + DAY_MS, periodStart);
  // Each series' repetitions in [expectedFrom, periodEnd) are counted by arithmetic, never stepped
  // through: their number is before(periodEnd) - before(expectedFrom). Each is at least a day long, so
  // they fall on distinct days of the period and placing them on their days takes at most a step per
  // day of the period, whatever the charge says.
  const recurringByDay = new Map<number, Decimal>();
  for (const charge of input.recurring) {
    const repetitions = repetitionsOf(charge);
    if (!repetitions) continue;
    // A series whose next charge was due by the last day with data and did not come has ended.
    if (repetitions.start(1) <= lastDay) continue;
    const first = repetitions.before(expectedFrom) + 1;
    const count = repetitions.before(periodEnd) - first + 1;
    if (count <= 0) continue;
    for (let n = first; n < first + count; n++) {
      const day = dayOf(repetitions.start(n));
      recurringByDay.set(day, (recurringByDay.get(day) ?? new Decimal(0)).plus(charge.amount));
    }
  }

  const rows: ForecastRow[] = [];
  let recurringRemaining = new Decimal(0);
  let usageRemaining = new Decimal(0);
  let lowRemaining = new Decimal(0);
  let highRemaining = new Decimal(0);
  const zero = new Decimal(0);
  for (let ms = periodStart; ms < periodEnd; ms += DAY_MS) {
    const cost = costOf(ms);
    const actual = ms <= lastDay && cost ? cost.usage.plus(cost.other) : ms <= lastDay && ms >= (first ?? ms) ? new Decimal(0) : null;
    const row: ForecastRow = { day: isoDay(ms), actual, expected: null, expectedLow: null, expectedHigh: null };
    // Today, with data: what its run rate still expects beyond the usage it spent.
    const partial = ms === today && ms === last;
    if (basis !== "none" && (ms >= expectedFrom || partial)) {
      const { rate, low, high } = rateOf(ms);
      const less = partial ? usage(ms) : zero;
      const rest = (value: Decimal) => Decimal.max(value.minus(less), zero);
      const fees = recurringByDay.get(ms) ?? zero;
      usageRemaining = usageRemaining.plus(rest(rate));
      lowRemaining = lowRemaining.plus(rest(low));
      highRemaining = highRemaining.plus(rest(high));
      recurringRemaining = recurringRemaining.plus(fees);
      row.expected = rest(rate).plus(fees);
      row.expectedLow = rest(low).plus(fees);
      row.expectedHigh = rest(high).plus(fees);
    }
    rows.push(row);
  }
  const known = spent.plus(recurringRemaining);
  const none = basis === "none";
  return {
    basis,
    spent,
    recurringRemaining,
    usageRemaining,
    forecast: none ? null : known.plus(usageRemaining),
    forecastLow: none ? null : known.plus(lowRemaining),
    forecastHigh: none ? null : known.plus(highRemaining),
    dataThrough: last === undefined ? null : isoDay(last),
    rows,
  };
}
