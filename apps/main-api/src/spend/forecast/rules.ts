import { Decimal } from "@cloudcost/decimal";

const DAY_MS = 86_400_000;
/** Weekday medians need this many days of history; with fewer, the recent mean serves. */
export const WEEKDAY_HISTORY_DAYS = 28;
/** With fewer complete days of history there is no forecast. */
export const MIN_HISTORY_DAYS = 3;
const RECENT_DAYS = 7;
const WEEKS = 4;

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
  expected: Decimal | null;
}

export interface Forecast {
  basis: ForecastBasis;
  spent: Decimal;
  recurringRemaining: Decimal;
  usageRemaining: Decimal;
  /** Null with fewer than MIN_HISTORY_DAYS days of history. */
  forecast: Decimal | null;
  rows: ForecastRow[];
}

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const dayOf = (ms: number) => Math.floor(ms / DAY_MS) * DAY_MS;

function median(values: Decimal[]): Decimal {
  const sorted = [...values].sort((a, b) => a.comparedTo(b));
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : sorted[mid - 1].plus(sorted[mid]).div(2);
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
 * - Days left: the days of the period after the last day with data.
 * - Recurring charges to come: each series' latest charge repeats with its amount and length (a
 *   whole calendar month repeats by the calendar); the repetitions starting after the last day
 *   with data and before the period's end count, counted by arithmetic. A charge shorter than a
 *   day (zero length included) is counted once, where it was billed, and never repeats. A series
 *   whose next charge was due by the last day with data and did not come has ended.
 * - Usage run rate of a day: the median Usage-Based cost of the last 4 same weekdays when 28 days of
 *   usage history exist (since the first day with Usage-Based cost), else the mean of the last 7
 *   complete days (of that history, if fewer; 0 without usage); with fewer than 3 complete days of
 *   any history, no forecast.
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
  // History: complete days since the first day with data; the run rate's own history starts at the first day with usage.
  const historyDays = first === undefined ? 0 : Math.max(0, Math.round((today - first) / DAY_MS));
  let firstUsage: number | undefined;
  for (const [day, cost] of input.days) {
    const ms = Date.parse(`${day}T00:00:00.000Z`);
    if (ms < today && !cost.usage.isZero() && (firstUsage === undefined || ms < firstUsage)) firstUsage = ms;
  }
  const usageDays = firstUsage === undefined ? 0 : Math.round((today - firstUsage) / DAY_MS);
  const basis: ForecastBasis = historyDays < MIN_HISTORY_DAYS ? "none" : usageDays >= WEEKDAY_HISTORY_DAYS ? "weekday_median" : "recent_mean";
  const usage = (ms: number) => costOf(ms)?.usage ?? new Decimal(0);
  let recentMean = new Decimal(0);
  if (basis === "recent_mean" && usageDays > 0) {
    const days = Math.min(RECENT_DAYS, usageDays);
    for (let i = 1; i <= days; i++) recentMean = recentMean.plus(usage(today - i * DAY_MS));
    recentMean = recentMean.div(days);
  }
  const rateOf = (ms: number): Decimal => {
    if (basis !== "weekday_median") return recentMean;
    // The same weekday in the 4 weeks before today.
    const back = (7 + ((new Date(today).getUTCDay() - new Date(ms).getUTCDay()) % 7)) % 7 || 7;
    const sameWeekdays = Array.from({ length: WEEKS }, (_, w) => usage(today - (back + 7 * w) * DAY_MS));
    return median(sameWeekdays);
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
  for (let ms = periodStart; ms < periodEnd; ms += DAY_MS) {
    const cost = costOf(ms);
    const actual = ms <= lastDay && cost ? cost.usage.plus(cost.other) : ms <= lastDay && ms >= (first ?? ms) ? new Decimal(0) : null;
    let expected: Decimal | null = null;
    if (basis !== "none" && ms >= expectedFrom) {
      const rate = rateOf(ms);
      const fees = recurringByDay.get(ms) ?? new Decimal(0);
      usageRemaining = usageRemaining.plus(rate);
      recurringRemaining = recurringRemaining.plus(fees);
      expected = rate.plus(fees);
    }
    rows.push({ day: isoDay(ms), actual, expected });
  }
  const forecast = basis === "none" ? null : spent.plus(recurringRemaining).plus(usageRemaining);
  return { basis, spent, recurringRemaining, usageRemaining, forecast, rows };
}
