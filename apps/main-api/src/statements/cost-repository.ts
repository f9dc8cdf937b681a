import type { DimensionLineField, SpendMetric } from "@cloudcost/contracts";
import type { CheckedStatement, RowOf, SqlClient } from "@cloudcost/db";
import { fieldArray, LINE_FIELD_SQL } from "../dimensions/repository";

type Sql = Pick<SqlClient, "query">;

/*
 * What a statement is computed from: a period's costs from the roll-ups and the Correction lines,
 * through the pg client the spend queries use. The statements themselves are repository.ts's.
 */

/** The cost columns a statement may read (never interpolated from input). */
const METRIC_COLUMN: Record<SpendMetric, string> = { billed_cost: "billed_cost", effective_cost: "effective_cost" } as Record<SpendMetric, string>;
const column = (metric: SpendMetric): string => {
  const name = METRIC_COLUMN[metric];
  if (!name) throw new Error(`no statement metric ${metric}`);
  return name;
};

const TENANT_COLUMNS = { tenant: "text", charge_category: "text", service_name: "text", cost: "text" } as const;
export type TenantRow = RowOf<typeof TENANT_COLUMNS>;
const TENANT_SQL = (metric: SpendMetric) => `
  SELECT tenant_id AS tenant, charge_category, service_name, sum(${column(metric)})::text AS cost
    FROM spend_service_daily
   WHERE organization_id = $1 AND day >= $2::date AND day < $3::date AND currency = $4
   GROUP BY 1, 2, 3`;

/** The period's cost per (tenant ('' none), charge category, service) from spend_service_daily: days [from, to). */
export function tenantRows(sql: Sql, organizationId: string, metric: SpendMetric, from: string, to: string, currency: string): Promise<TenantRow[]> {
  return sql.query<TenantRow>(TENANT_SQL(metric), [organizationId, from, to, currency]);
}

const BILL_SQL = (metric: SpendMetric) => `
  SELECT coalesce(sum(${column(metric)}), 0)::text AS total
    FROM spend_service_daily
   WHERE organization_id = $1 AND day >= $2::date AND day < $3::date AND currency = $4`;

/** The metric over every line of the organization in days [from, to) and the currency. */
export async function billTotal(sql: Sql, organizationId: string, metric: SpendMetric, from: string, to: string, currency: string): Promise<string> {
  const [row] = await sql.query<{ total: string }>(BILL_SQL(metric), [organizationId, from, to, currency]);
  return row?.total ?? "0";
}

const DIMENSION_COLUMNS = { value: "text", charge_category: "text", service_name: "text", cost: "text" } as const;
export type DimensionRow = RowOf<typeof DIMENSION_COLUMNS>;
const DIMENSION_SQL = (metric: SpendMetric) => `
  SELECT value, charge_category, service_name, sum(${column(metric)})::text AS cost
    FROM spend_dimension_daily
   WHERE organization_id = $1 AND dimension_key = $2 AND day >= $3::date AND day < $4::date AND currency = $5
   GROUP BY 1, 2, 3`;

/** The period's direct cost per (value ('' unallocated), charge category, service) of dimension `key`. */
export function dimensionRows(
  sql: Sql,
  organizationId: string,
  key: string,
  metric: SpendMetric,
  from: string,
  to: string,
  currency: string,
): Promise<DimensionRow[]> {
  return sql.query<DimensionRow>(DIMENSION_SQL(metric), [organizationId, key, from, to, currency]);
}

const SOURCE_COLUMNS = { day: "text", value: "text", charge_category: "text", cost: "text" } as const;
export type SourceRow = RowOf<typeof SOURCE_COLUMNS>;
const SOURCE_SQL = (metric: SpendMetric) => `
  SELECT day::text AS day, value, charge_category, sum(${column(metric)})::text AS cost
    FROM spend_dimension_daily
   WHERE organization_id = $1 AND dimension_key = $2 AND day >= $3::date AND day < $4::date AND currency = $5
     AND unpriced_reason = '' AND value = ANY($6::text[])
   GROUP BY 1, 2, 3`;

/** The split sources' priced cost per (day, value ('' unallocated), charge category): what the splits share. */
export function sourceRows(
  sql: Sql,
  organizationId: string,
  key: string,
  metric: SpendMetric,
  from: string,
  to: string,
  currency: string,
  sources: string[],
): Promise<SourceRow[]> {
  if (sources.length === 0) return Promise.resolve([]);
  return sql.query<SourceRow>(SOURCE_SQL(metric), [organizationId, key, from, to, currency, sources]);
}

const CORRECTION_COLUMNS = { tenant: "text", charge_category: "text", service_name: "text", fields: "jsonb", cost: "text" } as const;
export type CorrectionRow = RowOf<typeof CORRECTION_COLUMNS>;

function correctionSql(metric: SpendMetric, fields: string[]): { sql: string; tags: string[] } {
  const tags: string[] = [];
  const columns = fields.map((field) => {
    if (!field.startsWith("tag:")) return LINE_FIELD_SQL[field as DimensionLineField];
    tags.push(field.slice(4));
    return `l.tags ->> $${4 + tags.length}::text`;
  });
  const sql = `
  SELECT coalesce(l.tenant_id, '') AS tenant, coalesce(l.charge_category, '') AS charge_category, coalesce(l.service_name, '') AS service_name,
         ${fieldArray(columns)} AS fields, coalesce(sum(l.${column(metric)}), 0)::text AS cost
    FROM spend_lines l
   WHERE l.organization_id = $1 AND l.charge_class = 'Correction'
     AND l.charge_period_start >= $2::timestamptz AND l.charge_period_start < $3::timestamptz AND l.currency = $4
   GROUP BY 1, 2, 3${columns.map((c) => `, ${c}`).join("")}`;
  return { sql, tags };
}

/**
 * The period's correction lines (ChargeClass Correction, which no roll-up tells apart) through
 * their partial index, per (tenant, charge category, service) and the fields dimension rules read.
 */
export function correctionRows(
  sql: Sql,
  organizationId: string,
  metric: SpendMetric,
  from: string,
  to: string,
  currency: string,
  fields: string[],
): Promise<CorrectionRow[]> {
  const statement = correctionSql(metric, fields);
  return sql.query<CorrectionRow>(statement.sql, [organizationId, from, to, currency, ...statement.tags]);
}

export const statementCostRepository = { tenantRows, billTotal, dimensionRows, sourceRows, correctionRows };
export type StatementCostRepository = typeof statementCostRepository;

/** The raw statements of this module, for test/repository-row-types.test.ts. */
export function checkedStatements(): CheckedStatement[] {
  return [
    { name: "statement tenant rows", sql: TENANT_SQL("effective_cost"), columns: TENANT_COLUMNS },
    { name: "statement bill total", sql: BILL_SQL("billed_cost"), columns: { total: "text" } },
    { name: "statement dimension rows", sql: DIMENSION_SQL("effective_cost"), columns: DIMENSION_COLUMNS },
    { name: "statement split source rows", sql: SOURCE_SQL("effective_cost"), columns: SOURCE_COLUMNS },
    { name: "statement corrections", sql: correctionSql("effective_cost", ["service_name", "tag:team", "tenant"]).sql, columns: CORRECTION_COLUMNS },
  ];
}
