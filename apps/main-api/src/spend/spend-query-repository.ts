import type { SpendAllocation, SpendDimension, SpendGranularity, SpendMetric } from "@cloudcost/contracts";
import type { CheckedStatement, RowOf, SqlClient } from "@cloudcost/db";

// The spend report's one statement (query.ts decides which roll-up answers which days), through
// the driver, and the SQL fragments of the dimensions the spend reads share.

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
export class Params {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/** What querySpend decided: which roll-up reads the whole days (`rollupDays`), and the ranges the lines answer (ISO). */
export interface SpendQueryPlan {
  scope: SpendScope;
  query: SpendQueryInput;
  groupBy: string[];
  /** The one tag key a tag roll-up answers (null: none does). */
  tagKey: string | null;
  tagTable: "spend_tag_daily" | "spend_tag_service_daily";
  rollupTable: "spend_service_daily" | "spend_daily";
  rollupDays: boolean;
  /** The whole UTC days [from, to) the roll-up reads. */
  days: { from: string; to: string };
  lineRanges: string[][];
}

/** The statement of a plan: rows, totals per currency and unpriced counts are grouping sets of it. */
function groupedSpendStatement(plan: SpendQueryPlan): { sql: string; params: unknown[] } {
  const { scope, query, groupBy, tagKey, tagTable, rollupTable, rollupDays } = plan;
  const p = new Params();
  const org = p.add(scope.organizationId);
  const tenants = scope.tenantIds === null ? null : p.add(scope.tenantIds);
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
    sources.push(...tagRollupSources(p, { org, tenants, from: plan.days.from, to: plan.days.to }, query, groupBy, tagKey, tagTable));
  } else if (rollupDays) {
    sources.push(
      `SELECT d.day, d.currency, d.unpriced_reason, d.${query.metric} AS cost, d.line_count AS lines, ${groups("d")}
         FROM ${rollupTable} d WHERE d.organization_id = ${org} AND d.day >= ${p.add(plan.days.from)}::date AND d.day < ${p.add(plan.days.to)}::date${filterSql("d")}`,
    );
  }
  for (const [from, to] of plan.lineRanges) {
    sources.push(
      `SELECT (l.charge_period_start AT TIME ZONE 'UTC')::date AS day, coalesce(l.currency, '') AS currency, coalesce(l.unpriced_reason, '') AS unpriced_reason,
          coalesce(l.${query.metric}, 0) AS cost, 1 AS lines, ${groups("l")}
         FROM spend_lines l WHERE l.organization_id = ${org}
          AND l.charge_period_start >= ${p.add(from)}::timestamptz AND l.charge_period_start < ${p.add(to)}::timestamptz${filterSql("l")}`,
    );
  }
  const period =
    query.granularity === "day" ? "src.day" : query.granularity === "month" ? "date_trunc('month', src.day)::date" : `${p.add(query.start.slice(0, 10))}::date`;
  // HAVING: the tag roll-up's "no such tag" rows are a total less the tag's rows, which may leave none.
  return {
    sql: `SELECT ${period}::text AS period, g0, g1, currency, unpriced_reason AS reason, sum(cost)::text AS cost, trim_scale(round(sum(cost), 10))::text AS amount, sum(lines)::text AS lines,
        GROUPING(${period}, g0, g1) AS detail
       FROM (${sources.join("\n UNION ALL ")}) src
      GROUP BY GROUPING SETS ((${period}, g0, g1, currency, unpriced_reason), (currency, unpriced_reason))
      HAVING sum(lines) <> 0`,
    params: p.values,
  };
}

/** One row of the grouped statement: a detail row, or (GROUPING(...) != 0) a total per currency and reason. */
const GROUPED_COLUMNS = {
  period: "text null",
  g0: "text null",
  g1: "text null",
  currency: "text",
  reason: "text",
  cost: "text",
  amount: "text",
  lines: "text",
  detail: "int4",
} as const;
export type GroupedRow = RowOf<typeof GROUPED_COLUMNS>;

/** The spend report's rows and totals of a plan. */
function readGroupedSpend(sql: Pick<SqlClient, "query">, plan: SpendQueryPlan): Promise<GroupedRow[]> {
  const statement = groupedSpendStatement(plan);
  return sql.query<GroupedRow>(statement.sql, statement.params);
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

/** What the spend report reads; each function takes the driver's client it runs on. */
export const spendQueryRepository = { readGroupedSpend };
export type SpendQueryRepository = typeof spendQueryRepository;

/** The raw statements of this module, for test/repository-row-types.test.ts: one plan per kind of source (a roll-up, a tag roll-up with its null group, the lines). */
export function checkedStatements(): CheckedStatement[] {
  const scope: SpendScope = { organizationId: "o", tenantIds: ["t"] };
  const base = { start: "2026-01-01T06:00:00.000Z", end: "2026-02-01T00:00:00.000Z", metric: "billed_cost" as const, filters: {}, tags: {} };
  const days = { from: "2026-01-02T00:00:00.000Z", to: "2026-02-01T00:00:00.000Z" };
  const lineRanges = [["2026-01-01T06:00:00.000Z", "2026-01-02T00:00:00.000Z"]];
  const plan = (query: SpendQueryInput, groupBy: string[], tagKey: string | null, rollupDays: boolean): SpendQueryPlan => ({
    scope,
    query,
    groupBy,
    tagKey,
    tagTable: "spend_tag_service_daily",
    rollupTable: "spend_service_daily",
    rollupDays,
    days,
    lineRanges: rollupDays ? lineRanges : [[base.start, base.end]],
  });
  const plans: [string, SpendQueryPlan][] = [
    ["a roll-up by day", plan({ ...base, granularity: "day", filters: { provider: ["aws"] } }, ["service_name", "tenant"], null, true)],
    ["a tag roll-up by month", plan({ ...base, granularity: "month" }, ["tag:team", "provider"], "team", true)],
    ["the lines in total", plan({ ...base, granularity: "none", tags: { team: ["a"] } }, ["resource_id", "tag:env"], null, false)],
  ];
  return plans.map(([name, p]) => ({ name: `spend report from ${name}`, sql: groupedSpendStatement(p).sql, columns: GROUPED_COLUMNS }));
}
