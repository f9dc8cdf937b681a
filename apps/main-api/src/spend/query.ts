import { Decimal } from "@cloudcost/decimal";
import type { SpendAllocation, SpendDimension, SpendGranularity, SpendMetric, SpendReport } from "@cloudcost/contracts";
import type { SqlClient } from "@cloudcost/db";

/** Whose lines a query reads: the organization's, limited to these tenants (null: every tenant and the unallocated lines). */
export interface SpendScope {
  organizationId: string;
  tenantIds: string[] | null;
}

export interface SpendQueryInput {
  start: string;
  end: string;
  granularity: SpendGranularity;
  metric: SpendMetric;
  /** Dimension names or `tag:<key>`. */
  group_by?: string[];
  filters: Partial<Record<SpendDimension, string[]>>;
  /** Tag key → accepted values. */
  tags: Record<string, string[]>;
  /** Dimension key → accepted values (`__unallocated__` for none); one dimension per query. */
  dimension_filters?: Record<string, string[]>;
  /** With a dimension: its splits applied (default) or not. */
  allocation?: SpendAllocation;
  /** A business metric: each row and total adds its amount and the unit cost (unit-cost.ts). */
  per?: string;
  /** The unit cost is per this many units of `per` (default 1). */
  per_scale?: number;
}

/** Each row's and each total's cost as an exact decimal, in the report's order (what a unit cost divides). */
export interface ExactCosts {
  rows: string[];
  totals: string[];
}

const DAY_MS = 86_400_000;
/** Column of each dimension in both sources ('' stands for null); resource_id is on the lines only. The lines' filters (lines.ts) use it too. */
export const DIMENSION_COLUMN: Record<Exclude<SpendDimension, "billing_period">, string> = {
  tenant: "tenant_id",
  provider: "provider",
  service_name: "service_name",
  service_category: "service_category",
  region: "region",
  resource_id: "resource_id",
  charge_category: "charge_category",
  source: "source",
  sub_account_id: "sub_account_id",
  model: "model",
  charge_frequency: "charge_frequency",
  pricing_category: "pricing_category",
  commitment_discount_id: "commitment_discount_id",
  invoice_id: "invoice_id",
};

/**
 * A dimension's value on a row of `alias` as text, '' for none. billing_period is the line's billing
 * period start as YYYY-MM-DD (UTC); a usage line, which has none, is billed in its charge's calendar month.
 */
export function dimensionSql(name: SpendDimension, alias: string): string {
  if (name === "billing_period")
    return `to_char(coalesce(${alias}.billing_period_start AT TIME ZONE 'UTC', date_trunc('month', ${alias}.charge_period_start AT TIME ZONE 'UTC')), 'YYYY-MM-DD')`;
  return `coalesce(${alias}.${DIMENSION_COLUMN[name]}, '')`;
}
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

export class Params {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

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
export async function querySpend(sql: Pick<SqlClient, "query">, scope: SpendScope, query: SpendQueryInput, exact?: ExactCosts): Promise<SpendReport> {
  const groupBy = query.group_by ?? [];
  const p = new Params();
  const org = p.add(scope.organizationId);
  const tenants = scope.tenantIds === null ? null : p.add(scope.tenantIds);
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

  // Each source yields: day, currency, unpriced_reason, cost, lines, g0, g1 (text, '' for none).
  const groupExpr = (name: string, alias: "d" | "l") => {
    if (name.startsWith("tag:")) return `coalesce(l.tags ->> ${p.add(name.slice(4))}, '')`;
    return dimensionSql(name as SpendDimension, alias);
  };
  const filterSql = (alias: "d" | "l") => {
    const conditions: string[] = [];
    for (const [name, values] of Object.entries(query.filters))
      conditions.push(`${dimensionSql(name as SpendDimension, alias)} = ANY(${p.add(values)}::text[])`);
    for (const [key, values] of Object.entries(query.tags)) conditions.push(`l.tags ->> ${p.add(key)} = ANY(${p.add(values)}::text[])`);
    if (tenants) conditions.push(`${alias}.tenant_id = ANY(${tenants}::text[])`);
    return conditions.map((condition) => ` AND ${condition}`).join("");
  };
  const groups = (alias: "d" | "l") => [0, 1].map((i) => (groupBy[i] ? `${groupExpr(groupBy[i], alias)} AS g${i}` : `'' AS g${i}`)).join(", ");

  const sources: string[] = [];
  if (rollupDays && tagKey !== null) {
    sources.push(...tagRollupSources(p, { org, tenants, from: iso(dayStart), to: iso(dayEnd) }, query, groupBy, tagKey, tagTable));
  } else if (rollupDays) {
    sources.push(
      `SELECT d.day, d.currency, d.unpriced_reason, d.${query.metric} AS cost, d.line_count AS lines, ${groups("d")}
         FROM ${rollupTable} d WHERE d.organization_id = ${org} AND d.day >= ${p.add(iso(dayStart))}::date AND d.day < ${p.add(iso(dayEnd))}::date${filterSql("d")}`,
    );
  }
  for (const [from, to] of lineRangesOf(startMs, endMs, dayStart, dayEnd, rollupDays)) {
    sources.push(
      `SELECT (l.charge_period_start AT TIME ZONE 'UTC')::date AS day, coalesce(l.currency, '') AS currency, coalesce(l.unpriced_reason, '') AS unpriced_reason,
          coalesce(l.${query.metric}, 0) AS cost, 1 AS lines, ${groups("l")}
         FROM spend_lines l WHERE l.organization_id = ${org}
          AND l.charge_period_start >= ${p.add(iso(from))}::timestamptz AND l.charge_period_start < ${p.add(iso(to))}::timestamptz${filterSql("l")}`,
    );
  }
  const period =
    query.granularity === "day" ? "src.day" : query.granularity === "month" ? "date_trunc('month', src.day)::date" : `${p.add(query.start.slice(0, 10))}::date`;
  // HAVING: the tag roll-up's "no such tag" rows are a total less the tag's rows, which may leave none.
  const rows = await sql.query<GroupedRow>(
    `SELECT ${period}::text AS period, g0, g1, currency, unpriced_reason AS reason, sum(cost)::text AS cost, trim_scale(round(sum(cost), 10))::text AS amount, sum(lines)::text AS lines,
        GROUPING(${period}, g0, g1) AS detail
       FROM (${sources.join("\n UNION ALL ")}) src
      GROUP BY GROUPING SETS ((${period}, g0, g1, currency, unpriced_reason), (currency, unpriced_reason))
      HAVING sum(lines) <> 0`,
    p.values,
  );
  return report(query, groupBy, rows, startMs, endMs, exact);
}

/**
 * The whole days of a query over one tag key (grouped by, filtered on, or both), from `table`:
 * spend_tag_daily when the tenant at most is beside it, spend_tag_service_daily when other
 * dimensions of spend_service_daily are (grouped by or filtered on). The key's rows by value, the
 * values filtered on if any. A grouping without a filter also needs the lines without the key (the
 * null group): the service roll-up's rows less the key's rows, under the same filters, exact in numeric.
 */
function tagRollupSources(
  p: Params,
  days: { org: string; tenants: string | null; from: string; to: string },
  query: SpendQueryInput,
  groupBy: string[],
  tagKey: string,
  table: "spend_tag_daily" | "spend_tag_service_daily",
): string[] {
  const where = [`d.organization_id = ${days.org}`, `d.day >= ${p.add(days.from)}::date`, `d.day < ${p.add(days.to)}::date`];
  if (days.tenants) where.push(`d.tenant_id = ANY(${days.tenants}::text[])`);
  // Both roll-ups hold '' for null, as the filters compare.
  for (const [name, values] of Object.entries(query.filters))
    where.push(`d.${DIMENSION_COLUMN[name as keyof typeof DIMENSION_COLUMN]} = ANY(${p.add(values)}::text[])`);
  const key = p.add(tagKey);
  const values = query.tags[tagKey];
  const groups = (tagValue: string) =>
    [0, 1]
      .map((i) => {
        const name = groupBy[i];
        if (name === undefined) return `'' AS g${i}`;
        if (name.startsWith("tag:")) return `${tagValue} AS g${i}`;
        return `d.${DIMENSION_COLUMN[name as keyof typeof DIMENSION_COLUMN]} AS g${i}`;
      })
      .join(", ");
  const select = (sign: "" | "-", tagValue: string, from: string, extra: string) =>
    `SELECT d.day, d.currency, d.unpriced_reason, ${sign}d.${query.metric} AS cost, ${sign}d.line_count AS lines, ${groups(tagValue)}
       FROM ${from} d WHERE ${where.join(" AND ")}${extra}`;
  const tagged = ` AND d.tag_key = ${key}`;
  const sources = [select("", "d.tag_value", table, `${tagged}${values ? ` AND d.tag_value = ANY(${p.add(values)}::text[])` : ""}`)];
  if (!values && groupBy.includes(`tag:${tagKey}`)) {
    sources.push(select("", "''", "spend_service_daily", ""), select("-", "''", table, tagged));
  }
  return sources;
}

/**
 * `exact`: the cost as numeric text; `approx`: the same as a float, compared first (exact whenever
 * two floats differ, as rounding is monotone; the decimals are compared only when the floats tie).
 */
/** One row of the grouped statement: a detail row, or (GROUPING(...) != 0) a total per currency and reason. */
interface GroupedRow {
  period: string | null;
  g0: string | null;
  g1: string | null;
  currency: string;
  reason: string;
  cost: string;
  amount: string;
  lines: string;
  detail: number;
}

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
