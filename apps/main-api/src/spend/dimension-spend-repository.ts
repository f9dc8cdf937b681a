import type { DimensionLineField, DimensionRule, SpendDimension, SpendMetric, SplitRule } from "@cloudcost/contracts";
import type { CheckedStatement, SqlClient } from "@cloudcost/db";
import { versionsRead } from "../dimensions/preview";
import { fieldArray, LINE_FIELD_SQL } from "../dimensions/repository";
import { DIMENSION_COLUMN, dimensionSql, Params } from "./spend-query-repository";

/** A dimension's version as a query applies it (newest first). */
export interface QueryVersion {
  key: string;
  version: number;
  effective_from: string;
  rules: DimensionRule[];
  default_value: string | null;
  splits: SplitRule[];
}

/** Direct cost of one (day, currency, unpriced reason, charge category, other group value, dimension value) ('' for none). */
export interface DirectRow {
  day: string;
  currency: string;
  reason: string;
  charge_category: string;
  g: string;
  /** The dimension's value from the roll-up ('' unallocated); null when read from the lines (`fields` then carry what the rules read). */
  value: string | null;
  fields: (string | null)[] | null;
  cost: string;
  lines: string;
}

/** What narrows a query's direct rows: the caller's tenants, filters on spend dimensions and tags, the other grouped name. */
export interface DirectScope {
  organizationId: string;
  tenantIds: string[] | null;
  filters: Partial<Record<SpendDimension, string[]>>;
  tags: Record<string, string[]>;
  other: string | undefined;
  metric: SpendMetric;
}

const VERSIONS_SQL = `SELECT key, version, to_char(effective_from, 'YYYY-MM') AS effective_from, rules, default_value, splits
  FROM dimension_versions WHERE organization_id = $1 ORDER BY key, version DESC`;

/**
 * The versions of `keys` and of every dimension their rules read, in turn: what assigning them
 * needs, and no more (an organization may hold 50 dimensions of 100 versions of 500 rules each);
 * with the keys the organization does not hold.
 */
export async function readVersionsOf(
  sql: Pick<SqlClient, "query">,
  organizationId: string,
  keys: string[],
): Promise<{ versions: QueryVersion[]; unknown: string[] }> {
  const all = await sql.query<QueryVersion>(VERSIONS_SQL, [organizationId]);
  const unknown = keys.filter((key) => !all.some((row) => row.key === key));
  return { versions: [...versionsRead(new Set(keys), all).values()].flat(), unknown };
}

function rollupSql(p: Params, scope: DirectScope, key: string, from: string, to: string): string {
  const where = [
    `d.organization_id = ${p.add(scope.organizationId)}`,
    `d.dimension_key = ${p.add(key)}`,
    `d.day >= ${p.add(from)}::date`,
    `d.day < ${p.add(to)}::date`,
  ];
  if (scope.tenantIds) where.push(`d.tenant_id = ANY(${p.add(scope.tenantIds)}::text[])`);
  for (const [name, values] of Object.entries(scope.filters))
    where.push(`d.${DIMENSION_COLUMN[name as keyof typeof DIMENSION_COLUMN]} = ANY(${p.add(values)}::text[])`);
  const g = scope.other ? `d.${DIMENSION_COLUMN[scope.other as keyof typeof DIMENSION_COLUMN]}` : "''";
  return `SELECT d.day::text AS day, d.currency, d.unpriced_reason AS reason, d.charge_category, ${g} AS g, d.value, NULL::jsonb AS fields,
      sum(d.${scope.metric})::text AS cost, sum(d.line_count)::text AS lines
    FROM spend_dimension_daily d WHERE ${where.join(" AND ")}
    GROUP BY 1, 2, 3, 4, 5, 6`;
}

/** Whole days [from, to) (YYYY-MM-DD) from spend_dimension_daily: only when every filter and the other group are its columns. */
export function rollupDirectRows(sql: Pick<SqlClient, "query">, scope: DirectScope, key: string, from: string, to: string): Promise<DirectRow[]> {
  const p = new Params();
  return sql.query<DirectRow>(rollupSql(p, scope, key, from, to), p.values);
}

function linesSql(p: Params, scope: DirectScope, fields: string[], from: string, to: string): string {
  const where = [
    `l.organization_id = ${p.add(scope.organizationId)}`,
    `l.charge_period_start >= ${p.add(from)}::timestamptz`,
    `l.charge_period_start < ${p.add(to)}::timestamptz`,
  ];
  if (scope.tenantIds) where.push(`l.tenant_id = ANY(${p.add(scope.tenantIds)}::text[])`);
  for (const [name, values] of Object.entries(scope.filters)) where.push(`${dimensionSql(name as SpendDimension, "l")} = ANY(${p.add(values)}::text[])`);
  for (const [tag, values] of Object.entries(scope.tags)) where.push(`l.tags ->> ${p.add(tag)} = ANY(${p.add(values)}::text[])`);
  const g = !scope.other
    ? "''"
    : scope.other.startsWith("tag:")
      ? `coalesce(l.tags ->> ${p.add(scope.other.slice(4))}, '')`
      : dimensionSql(scope.other as SpendDimension, "l");
  const columns = fields.map((field) => (field.startsWith("tag:") ? `l.tags ->> ${p.add(field.slice(4))}::text` : LINE_FIELD_SQL[field as DimensionLineField]));
  return `SELECT (l.charge_period_start AT TIME ZONE 'UTC')::date::text AS day, coalesce(l.currency, '') AS currency, coalesce(l.unpriced_reason, '') AS reason,
      coalesce(l.charge_category, '') AS charge_category, ${g} AS g, NULL::text AS value, ${fieldArray(columns)} AS fields,
      coalesce(sum(l.${scope.metric}), 0)::text AS cost, count(*)::text AS lines
    FROM spend_lines l WHERE ${where.join(" AND ")}
    GROUP BY 1, 2, 3, 4, 5${columns.map((column) => `, ${column}`).join("")}`;
}

/** The lines of [from, to) (timestamps) grouped by day, the other group and the fields the rules read (assigned by the caller). */
export function lineDirectRows(sql: Pick<SqlClient, "query">, scope: DirectScope, fields: string[], from: string, to: string): Promise<DirectRow[]> {
  const p = new Params();
  return sql.query<DirectRow>(linesSql(p, scope, fields, from, to), p.values);
}

const SHARES_SQL = (metric: SpendMetric) => `SELECT d.day::text AS day, d.currency, d.value, d.${metric}::text AS cost
  FROM spend_dimension_value_daily d
  WHERE d.organization_id = $1 AND d.dimension_key = $2 AND d.day >= $3::date AND d.day < $4::date`;

/** Each value's direct cost per day and currency over the whole organization (what split shares are made of), days [from, to). */
export function organizationDayCosts(
  sql: Pick<SqlClient, "query">,
  organizationId: string,
  key: string,
  metric: SpendMetric,
  from: string,
  to: string,
): Promise<{ day: string; currency: string; value: string; cost: string }[]> {
  return sql.query(SHARES_SQL(metric), [organizationId, key, from, to]);
}

export function checkedStatements(): CheckedStatement[] {
  const scope: DirectScope = {
    organizationId: "org",
    tenantIds: ["t"],
    filters: { service_name: ["s"] },
    tags: { team: ["a"] },
    other: "provider",
    metric: "billed_cost",
  };
  const direct = {
    day: "text",
    currency: "text",
    reason: "text",
    charge_category: "text",
    g: "text",
    value: "text null",
    fields: "jsonb null",
    cost: "text",
    lines: "text",
  } as const;
  return [
    {
      name: "dimension query versions",
      sql: VERSIONS_SQL,
      columns: { key: "text", version: "int4", effective_from: "text", rules: "jsonb", default_value: "text null", splits: "jsonb" },
    },
    {
      name: "dimension query roll-up rows",
      sql: rollupSql(new Params(), { ...scope, tags: {} }, "team", "2026-01-01", "2026-02-01"),
      columns: { ...direct, value: "text", fields: "jsonb null" },
    },
    {
      name: "dimension query line rows",
      sql: linesSql(new Params(), scope, ["service_name", "tag:team"], "2026-01-01", "2026-02-01"),
      columns: { ...direct, value: "text null", fields: "jsonb" },
    },
    { name: "dimension query day costs", sql: SHARES_SQL("effective_cost"), columns: { day: "text", currency: "text", value: "text", cost: "text" } },
  ];
}

/** What the spend queries and the export read of the dimensions; each function takes the client it runs on. */
export const dimensionSpendRepository = { readVersionsOf, rollupDirectRows, lineDirectRows, organizationDayCosts };
export type DimensionSpendRepository = typeof dimensionSpendRepository;
