import { Decimal } from "@cloudcost/decimal";
import type { SpendGranularity, SpendReport } from "@cloudcost/contracts";
import type { SpendReads } from "./spend-reads";
import type { GroupedRow, SpendQueryInput, SpendScope } from "./spend-query-repository";

export type { SpendQueryInput, SpendScope } from "./spend-query-repository";

/** Each row's and each total's cost as an exact decimal, in the report's order (what a unit cost divides). */
export interface ExactCosts {
  rows: string[];
  totals: string[];
}

const DAY_MS = 86_400_000;
export const LINE_ONLY = new Set<string>(["resource_id", "commitment_discount_id", "billing_period", "invoice_id"]);
/** Dimensions spend_service_daily holds (tenant is its key): a query grouping and filtering by these only reads it. */
export const SERVICE_ROLLUP = new Set<string>([
  "tenant",
  "provider",
  "service_name",
  "service_category",
  "charge_category",
  "charge_frequency",
  "pricing_category",
  "source",
]);

export const floorDay = (ms: number) => Math.floor(ms / DAY_MS) * DAY_MS;
export const ceilDay = (ms: number) => Math.ceil(ms / DAY_MS) * DAY_MS;

/**
 * The parts of [startMs, endMs) read from the lines: when the roll-up answers its whole UTC days
 * [dayStart, dayEnd) (`rollupDays`), the partial days before and after them; otherwise all of it.
 */
export function lineRangesOf(startMs: number, endMs: number, dayStart: number, dayEnd: number, rollupDays: boolean): number[][] {
  return rollupDays
    ? [
        [startMs, dayStart],
        [dayEnd, endMs],
      ].filter(([from, to]) => from < to)
    : [[startMs, endMs]];
}
const iso = (ms: number) => new Date(ms).toISOString();

/**
 * The spend report (docs/api.md, "Spend: usage, queries, lines, export"). Whole UTC days of the
 * range are read from a daily roll-up (spend_tag_daily when one tag key is grouped or filtered by,
 * with the tenant at most beside it; spend_service_daily when every dimension grouped or filtered
 * by is one of its; else spend_daily); the partial days at its edges, and every day when a
 * line-only dimension (resource_id, commitment_discount_id, billing_period, invoice_id) or several tag keys or a tag beside
 * another dimension are grouped or filtered by, from the lines (through the (organization, tenant,
 * charge_period_start) index). One statement: rows, totals per currency and unpriced counts are grouping sets of it.
 */
export async function querySpend(
  reads: Pick<SpendReads, "sql" | "queries">,
  scope: SpendScope,
  query: SpendQueryInput,
  exact?: ExactCosts,
): Promise<SpendReport> {
  const groupBy = query.group_by ?? [];
  const tagKeys = new Set([...groupBy.filter((name) => name.startsWith("tag:")).map((name) => name.slice(4)), ...Object.keys(query.tags)]);
  // One tag key, beside the tenant at most: spend_tag_daily answers it; beside the service roll-up's
  // dimensions, spend_tag_service_daily.
  const besideTag = [...groupBy.filter((name) => !name.startsWith("tag:")), ...Object.keys(query.filters)];
  const tagKey = tagKeys.size === 1 && besideTag.every((name) => SERVICE_ROLLUP.has(name)) ? [...tagKeys][0] : null;
  const tagTable = besideTag.every((name) => name === "tenant") ? "spend_tag_daily" : "spend_tag_service_daily";
  const needsLines =
    (tagKeys.size > 0 && tagKey === null) || groupBy.some((name) => LINE_ONLY.has(name)) || Object.keys(query.filters).some((name) => LINE_ONLY.has(name));

  const startMs = Date.parse(query.start);
  const endMs = Date.parse(query.end);
  const dayStart = ceilDay(startMs);
  const dayEnd = floorDay(endMs);
  const rollupDays = !needsLines && dayStart < dayEnd;
  const rollupTable = [...groupBy, ...Object.keys(query.filters)].every((name) => SERVICE_ROLLUP.has(name)) ? "spend_service_daily" : "spend_daily";
  const rows = await reads.queries.readGroupedSpend(reads.sql, {
    scope,
    query,
    groupBy,
    tagKey,
    tagTable,
    rollupTable,
    rollupDays,
    days: { from: iso(dayStart), to: iso(dayEnd) },
    lineRanges: lineRangesOf(startMs, endMs, dayStart, dayEnd, rollupDays).map(([from, to]) => [iso(from), iso(to)]),
  });
  return report(query, groupBy, rows, startMs, endMs, exact);
}

/**
 * `exact`: the cost as numeric text; `approx`: the same as a float, compared first (exact whenever
 * two floats differ, as rounding is monotone; the decimals are compared only when the floats tie).
 */
type ReportRow = SpendReport["rows"][number] & { exact: string; approx: number; keys: (string | null)[] };

function report(query: SpendQueryInput, groupBy: string[], rows: GroupedRow[], startMs: number, endMs: number, exact?: ExactCosts): SpendReport {
  const out: ReportRow[] = [];
  const totals: (SpendReport["totals"][number] & { exact: string })[] = [];
  const byReason: Record<string, number> = {};
  let unpricedLines = 0;
  /** Each period's bounds, computed once (many rows share a period). */
  const periods = new Map<string, [string, string]>();
  for (const row of rows) {
    const isDetail = Number(row.detail) === 0;
    if (row.reason !== "") {
      if (!isDetail) {
        byReason[row.reason] = (byReason[row.reason] ?? 0) + Number(row.lines);
        unpricedLines += Number(row.lines);
      }
      continue;
    }
    if (row.currency === "") continue;
    if (!isDetail) {
      totals.push({ currency: row.currency, cost: row.amount, exact: row.cost });
      continue;
    }
    let bounds = periods.get(row.period as string);
    if (!bounds) {
      const [from, to] = periodOf(query.granularity, row.period as string, startMs, endMs);
      bounds = [iso(from), iso(to)];
      periods.set(row.period as string, bounds);
    }
    const keys = [row.g0, row.g1].slice(0, groupBy.length).map((value) => (value === "" || value === null ? null : value));
    out.push({
      period_start: bounds[0],
      period_end: bounds[1],
      group: Object.fromEntries(groupBy.map((name, i) => [name, keys[i]])),
      currency: row.currency,
      // amount() as the database computes it: rounded half away from zero to 10 places, trailing zeros trimmed.
      cost: row.amount,
      exact: row.cost,
      approx: Number(row.cost),
      keys,
    });
  }
  out.sort((a, b) => {
    if (a.period_start !== b.period_start) return a.period_start < b.period_start ? -1 : 1;
    const byCost = a.approx !== b.approx ? (b.approx > a.approx ? 1 : -1) : new Decimal(b.exact).comparedTo(a.exact);
    if (byCost !== 0) return byCost;
    for (let i = 0; i < a.keys.length; i++) {
      const byKey = compareBytes(a.keys[i], b.keys[i]);
      if (byKey !== 0) return byKey;
    }
    return compareBytes(a.currency, b.currency);
  });
  totals.sort((a, b) => compareBytes(a.currency, b.currency));
  if (exact) {
    exact.rows = out.map((row) => row.exact);
    exact.totals = totals.map((total) => total.exact);
  }
  return {
    start: iso(startMs),
    end: iso(endMs),
    granularity: query.granularity,
    metric: query.metric,
    group_by: groupBy,
    rows: out.map(({ exact: _exact, approx: _approx, keys: _keys, ...row }) => row),
    totals: totals.map(({ exact: _exact, ...total }) => total),
    unpriced: { lines: unpricedLines, by_reason: byReason },
  };
}

/** The UTC days a range touches, [from, to) as YYYY-MM-DD. */
export function rangeDays(start: string, end: string): { from: string; to: string } {
  return { from: iso(floorDay(Date.parse(start))).slice(0, 10), to: iso(ceilDay(Date.parse(end))).slice(0, 10) };
}

/** A period's bounds, clipped to the range. */
export function periodOf(granularity: SpendGranularity, day: string, startMs: number, endMs: number): [number, number] {
  if (granularity === "none") return [startMs, endMs];
  const from = Date.parse(`${day}T00:00:00.000Z`);
  const date = new Date(from);
  const to = granularity === "day" ? from + DAY_MS : Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1);
  return [Math.max(from, startMs), Math.min(to, endMs)];
}

/** Byte order of the UTF-8 encodings (PostgreSQL's COLLATE "C"); null after every value. */
export function compareBytes(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}
