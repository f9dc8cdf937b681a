import type { SpendRow } from "@cloudcost/contracts";
import { parseDecimal } from "../../shared/decimal";
import { listValue } from "../../shared/url-query";

/**
 * The spend page's view lives in its URL (bookmarkable, shareable): `preset` (or `start`/`end`
 * days of a custom range, both inclusive), `granularity`, `metric`, `group_by` (at most two) and
 * the filters, one parameter per dimension (`a,b`) or `tag:<key>`. This module turns it into the
 * spend API's query.
 */
/** The organization view (every tenant) or the view of the tenant picked in the header. */
export type SpendScope = "organization" | "tenant";

export const PRESETS = [
  ["mtd", "Month to date"],
  ["last-7", "Last 7 days"],
  ["last-30", "Last 30 days"],
  ["last-month", "Last month"],
  ["last-90", "Last 90 days"],
  ["ytd", "Year to date"],
  ["custom", "Custom range"],
] as const;
export type Preset = (typeof PRESETS)[number][0];

/** Dimensions the pages offer (the contract's list; `tenant` only in the organization view). */
export const DIMENSIONS = [
  ["tenant", "Tenant"],
  ["provider", "Provider"],
  ["service_name", "Service"],
  ["service_category", "Service category"],
  ["region", "Region"],
  ["resource_id", "Resource"],
  ["charge_category", "Charge category"],
  ["source", "Source"],
  ["sub_account_id", "Sub-account"],
  ["model", "Model"],
  ["charge_frequency", "Charge frequency"],
  ["pricing_category", "Pricing category"],
  ["commitment_discount_id", "Commitment"],
  ["billing_period", "Billing period"],
  ["invoice_id", "Invoice"],
] as const;
export type Dimension = (typeof DIMENSIONS)[number][0];
const DIMENSION_NAMES = DIMENSIONS.map(([name]) => name) as readonly string[];

export const dimensionLabel = (name: string) =>
  name.startsWith("tag:")
    ? `Tag ${name.slice(4)}`
    : name.startsWith("dimension:")
      ? `Dimension ${name.slice(10)}`
      : (DIMENSIONS.find(([key]) => key === name)?.[1] ?? name);

/** `dimension:<key>`: one of the organization's dimensions (Settings > Dimensions). */
const DIMENSION_PARAMETER = /^dimension:[a-z][a-z0-9_]{0,39}$/;
/** The spend API's filter value for a dimension's unallocated cost. */
export const UNALLOCATED = "__unallocated__";

const DAY_MS = 86_400_000;
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const midnight = (now: Date) => Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());

/**
 * The API range of a preset, as UTC days: `start` inclusive, `end` exclusive. Ranges that run to
 * today leave `end` out, so the API's own default (now) applies, as it does for the month total.
 */
export function presetRange(preset: Preset, now: Date, custom?: { start?: string | null; end?: string | null }): { start: string; end?: string } {
  const today = midnight(now);
  const y = now.getUTCFullYear();
  const m = now.getUTCMonth();
  switch (preset) {
    case "last-7":
      return { start: day(today - 6 * DAY_MS) };
    case "last-30":
      return { start: day(today - 29 * DAY_MS) };
    case "last-90":
      return { start: day(today - 89 * DAY_MS) };
    case "last-month":
      return { start: day(Date.UTC(y, m - 1, 1)), end: day(Date.UTC(y, m, 1)) };
    case "ytd":
      return { start: day(Date.UTC(y, 0, 1)) };
    case "custom": {
      const start = validDay(custom?.start) ?? day(Date.UTC(y, m, 1));
      const last = validDay(custom?.end);
      // The form's end day is inclusive; the API's end is exclusive: the day after.
      return last ? { start, end: day(Date.parse(`${last}T00:00:00Z`) + DAY_MS) } : { start };
    }
    default:
      return { start: day(Date.UTC(y, m, 1)) };
  }
}

function validDay(value: string | null | undefined): string | undefined {
  return value && /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) ? value : undefined;
}

export function presetOf(search: URLSearchParams): Preset {
  const value = search.get("preset");
  return (PRESETS.find(([key]) => key === value)?.[0] ?? "mtd") as Preset;
}

/** The view's group-by dimensions: at most two, known names or tag:<key>, no repeats, `tenant` only at organization level. */
export function groupByOf(search: URLSearchParams, orgView: boolean): string[] {
  const out: string[] = [];
  for (const name of search.getAll("group_by").flatMap(listValue)) {
    const known = DIMENSION_NAMES.includes(name) || /^tag:.+/.test(name) || DIMENSION_PARAMETER.test(name);
    if (!known || out.includes(name) || (name === "tenant" && !orgView)) continue;
    out.push(name);
  }
  return out.slice(0, 2);
}

/** The filters of the view: dimension (or tag:<key>) → values. */
export function filtersOf(search: URLSearchParams, orgView: boolean): [string, string[]][] {
  const out: [string, string[]][] = [];
  for (const key of new Set(search.keys())) {
    const isDimension = DIMENSION_NAMES.includes(key) && (orgView || key !== "tenant");
    if (!isDimension && !/^tag:.+/.test(key) && !DIMENSION_PARAMETER.test(key)) continue;
    const values = search.getAll(key).flatMap(listValue);
    if (values.length) out.push([key, [...new Set(values)]]);
  }
  return out;
}

/** The spend API query of the view (`granularity` overridable: the table reads the whole range as one period). */
export function spendQuery(search: URLSearchParams, now: Date, orgView: boolean, override: { granularity?: string } = {}): URLSearchParams {
  const out = new URLSearchParams();
  const range = presetRange(presetOf(search), now, { start: search.get("start"), end: search.get("end") });
  out.set("start", range.start);
  if (range.end) out.set("end", range.end);
  const granularity = override.granularity ?? search.get("granularity");
  out.set("granularity", granularity === "month" || granularity === "none" ? granularity : "day");
  const metric = search.get("metric");
  out.set("metric", metric === "effective_cost" || metric === "list_cost" || metric === "contracted_cost" ? metric : "billed_cost");
  const groupBy = groupByOf(search, orgView);
  if (groupBy.length) out.set("group_by", groupBy.join(","));
  for (const [key, values] of filtersOf(search, orgView)) out.set(key, values.join(","));
  if (search.get("allocation") === "direct" && allocationApplies(groupBy, search, orgView)) out.set("allocation", "direct");
  const per = perOf(search);
  if (per) {
    out.set("per", per.metric);
    if (per.scale !== 1) out.set("per_scale", String(per.scale));
  }
  return out;
}

/** The scales a unit cost is given per (the API's per_scale). */
export const PER_SCALES = [1, 100, 1000, 1_000_000] as const;
export type PerScale = (typeof PER_SCALES)[number];

/** The view's unit cost: `per` (a business metric's name) and `per_scale` (1 unless one of the API's scales), or undefined without `per`. */
export function perOf(search: URLSearchParams): { metric: string; scale: PerScale } | undefined {
  const metric = search.get("per");
  if (!metric || !/^[a-z][a-z0-9_]{0,39}$/.test(metric)) return undefined;
  const scale = PER_SCALES.find((s) => String(s) === search.get("per_scale")) ?? 1;
  return { metric, scale };
}

/** "1,000 orders", "order" (scale 1 and the unit as the metric says it). */
export const perText = (unit: string, scale: number) => (scale === 1 ? unit : `${scale.toLocaleString("en-US")} ${unit}`);

/** A unit cost in its currency: cents from 1 up, three significant digits below (0.00234 USD per order), never rounded to 0. */
export function unitMoney(value: string, currency: string): string {
  const n = Number(value);
  if (!Number.isFinite(n)) return `${value} ${currency}`;
  const options: Intl.NumberFormatOptions = Math.abs(n) >= 1 || n === 0 ? {} : { maximumSignificantDigits: 3 };
  try {
    return new Intl.NumberFormat("en-US", { style: "currency", currency, ...options }).format(n);
  } catch {
    return `${value} ${currency}`;
  }
}

/**
 * The query of the unit-cost line: the chart's periods without grouping (one row per period and
 * currency), so each point is the API's own unit cost of the period's whole cost.
 */
export function unitCostQuery(chartQuery: URLSearchParams): URLSearchParams {
  const out = new URLSearchParams(chartQuery);
  out.delete("group_by");
  // Shared costs only move between a dimension's values: without one filtered on, allocation changes no total.
  if (![...out.keys()].some((key) => DIMENSION_PARAMETER.test(key))) out.delete("allocation");
  return out;
}

/** Whether the view names one of the organization's dimensions (grouped or filtered), where `allocation` means something. */
export function allocationApplies(groupBy: string[], search: URLSearchParams, orgView: boolean): boolean {
  return groupBy.some((name) => DIMENSION_PARAMETER.test(name)) || filtersOf(search, orgView).some(([key]) => DIMENSION_PARAMETER.test(key));
}

/** The export's query: the same range and filters (the export takes no grouping). */
export function exportQuery(search: URLSearchParams, now: Date, orgView: boolean): URLSearchParams {
  const query = spendQuery(search, now, orgView);
  for (const key of ["granularity", "metric", "group_by", "allocation", "per", "per_scale"]) query.delete(key);
  // The export does not filter on dimensions yet.
  for (const key of [...query.keys()]) if (DIMENSION_PARAMETER.test(key)) query.delete(key);
  return query;
}

export interface StackedPeriod {
  period_start: string;
  total: number;
  values: Record<string, number>;
}

/**
 * Rows of one currency as chart series stacked by `dimension` (the first group-by): the largest
 * `maxSeries - 1` values over the range keep their own series, the rest add up in "Other".
 * The chart draws floats; the exact amounts are in the table.
 */
export function stackRows(
  rows: readonly SpendRow[],
  dimension: string | undefined,
  currency: string,
  label: (value: string | null) => string = (value) => value ?? "(none)",
  maxSeries = 8,
): { keys: string[]; periods: StackedPeriod[] } {
  const mine = rows.filter((row) => row.currency === currency);
  const seriesOf = (row: SpendRow) => (dimension ? label(row.group[dimension] ?? null) : "Total");
  const byKey = new Map<string, bigint>();
  for (const row of mine) byKey.set(seriesOf(row), (byKey.get(seriesOf(row)) ?? 0n) + parseDecimal(row.cost));
  const ranked = [...byKey.entries()].sort((a, b) => (b[1] > a[1] ? 1 : b[1] < a[1] ? -1 : a[0] < b[0] ? -1 : 1)).map(([key]) => key);
  const keep = ranked.length > maxSeries ? ranked.slice(0, maxSeries - 1) : ranked;
  const keys = ranked.length > maxSeries ? [...keep, "Other"] : keep;
  const periods = new Map<string, StackedPeriod>();
  for (const row of mine) {
    const period = periods.get(row.period_start) ?? { period_start: row.period_start, total: 0, values: {} };
    const key = keep.includes(seriesOf(row)) ? seriesOf(row) : "Other";
    const cost = Number(row.cost);
    period.values[key] = (period.values[key] ?? 0) + cost;
    period.total += cost;
    periods.set(row.period_start, period);
  }
  return { keys, periods: [...periods.values()].sort((a, b) => (a.period_start < b.period_start ? -1 : 1)) };
}

/** The currencies of a report, the one with the largest total first (the chart shows one). */
export function currenciesOf(totals: readonly { currency: string; cost: string }[]): string[] {
  return [...totals].sort((a, b) => (parseDecimal(b.cost) > parseDecimal(a.cost) ? 1 : -1)).map((t) => t.currency);
}

/** One day of the forecast as a running total: what was spent so far, and the forecast with its 80 % interval. */
export interface ForecastPoint {
  day: string;
  /** The running total of `actual` (null after the last day with data). */
  spent: number | null;
  /** The running total of actual + expected, and the same with expected_low / expected_high: the band. */
  mid: number;
  low: number;
  high: number;
  /** Whether the day holds an expected cost (a day left, or today's remainder). */
  expected: boolean;
}

interface ForecastRowLike {
  day: string;
  actual: string | null;
  expected: string | null;
  expected_low?: string | null;
  expected_high?: string | null;
}

/**
 * The forecast's days as running totals: spent (actual) up to the last day with data, then the
 * forecast (actual + expected) between its low and high ends (the API's expected_low / expected_high
 * per day). The last point's mid, low and high are the API's forecast, forecast_low and forecast_high
 * (within a cent per day: the chart's figures are numbers; the exact amounts are the API's strings).
 */
export function forecastCurve(rows: readonly ForecastRowLike[], dataThrough: string | null): ForecastPoint[] {
  let actual = 0;
  let mid = 0;
  let low = 0;
  let high = 0;
  return rows.map((row) => {
    const spent = row.actual === null ? 0 : Number(row.actual);
    const expected = row.expected === null ? 0 : Number(row.expected);
    actual += spent;
    mid += spent + expected;
    low += spent + (row.expected_low == null ? expected : Number(row.expected_low));
    high += spent + (row.expected_high == null ? expected : Number(row.expected_high));
    const known = dataThrough !== null && row.day <= dataThrough;
    return { day: row.day, spent: known ? actual : null, mid, low, high, expected: row.expected !== null };
  });
}
