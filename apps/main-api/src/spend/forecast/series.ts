import { Decimal } from "@cloudcost/decimal";
import type { RecurringLine, ForecastMetric } from "./repository";
import type { DayCost, RecurringCharge } from "./rules";

const DAY_MS = 86_400_000;
/** The usage series the forecast reads starts this many days before today (4 weeks of weekdays and a margin). */
const SERIES_DAYS = 35;
/** Recurring charges repeat from their latest charge in this lookback (an annual fee included). */
const RECURRING_LOOKBACK_DAYS = 400;

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The days the forecast of `period` reads, and the range its recurring series are looked for in. */
export function forecastRanges(period: { start: Date; end: Date }, now: Date) {
  const today = Math.floor(now.getTime() / DAY_MS) * DAY_MS;
  return {
    days: { from: isoDay(Math.min(period.start.getTime(), today - SERIES_DAYS * DAY_MS)), to: isoDay(period.end.getTime()) },
    recurring: { from: new Date(today - RECURRING_LOOKBACK_DAYS * DAY_MS).toISOString(), to: new Date(period.end.getTime()).toISOString() },
  };
}

/** A line's value of a filter dimension ('' for null, as the spend queries compare). */
export type LineMatcher = (line: RecurringLine) => boolean;

/** Whether a recurring line passes dimension filters (values compared as the spend queries do, null as '') and tag filters. */
export function lineMatcher(filters: Record<string, string[] | undefined>, tags: Record<string, string[]> = {}): LineMatcher {
  return (line) => {
    for (const [name, values] of Object.entries(filters)) {
      if (!values?.length) continue;
      const value = (line as unknown as Record<string, unknown>)[name === "tenant" ? "tenant_id" : name];
      if (!values.includes(typeof value === "string" ? value : "")) return false;
    }
    const lineTags = (line.tags ?? {}) as Record<string, unknown>;
    for (const [key, values] of Object.entries(tags)) {
      const value = lineTags[key];
      if (typeof value !== "string" || !values.includes(value)) return false;
    }
    return true;
  };
}

/** The latest charge of every series among `lines` that passes `matches`, in `currency`, summed per series. */
export function recurringCharges(lines: RecurringLine[], metric: ForecastMetric, currency: string, matches: LineMatcher): RecurringCharge[] {
  const series = new Map<string, RecurringCharge>();
  for (const line of lines) {
    if (line.currency !== currency || !matches(line)) continue;
    const amount = line[metric];
    if (amount === null) continue;
    const key = JSON.stringify([line.billing_account_id, line.service_name, line.sku_id]);
    const charge = series.get(key);
    if (charge) charge.amount = charge.amount.plus(amount);
    else series.set(key, { start: line.charge_period_start, end: line.charge_period_end, amount: new Decimal(amount) });
  }
  return [...series.values()];
}

/** Daily costs from rows of (day, Usage-Based cost, other cost) as decimal text. */
export function dayCosts(rows: { day: string; usage: string; other: string }[]): Map<string, DayCost> {
  const days = new Map<string, DayCost>();
  for (const row of rows) {
    const cost = days.get(row.day) ?? { usage: new Decimal(0), other: new Decimal(0) };
    days.set(row.day, { usage: cost.usage.plus(row.usage), other: cost.other.plus(row.other) });
  }
  return days;
}
