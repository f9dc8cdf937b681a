import type { SpendDimension, SpendLine } from "@cloudcost/contracts";
import type { CheckedStatement, RowOf, SqlClient } from "@cloudcost/db";
import type { SpendScope } from "./query";
import { dimensionSql } from "./spend-query-repository";

// The reads of spend lines one by one (the lines endpoint's pages, the export's batches and its
// unpriced count), through the driver; the writes are in lines-repository.ts.

export interface SpendLinesFilter {
  start: string;
  end: string;
  filters: Partial<Record<SpendDimension, string[]>>;
  tags: Record<string, string[]>;
}

const TS = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
const SELECT = `SELECT id, tenant_id, source, ${TS("charge_period_start")} AS charge_period_start, ${TS("charge_period_end")} AS charge_period_end,
    charge_category, charge_class, provider, service_name, service_category, region, resource_id, resource_name, sku_id, sku_price_id, pricing_id,
    unit_prices, consumed_quantity::text, consumed_unit, billed_cost::text, effective_cost::text, list_cost::text, currency, tags, sub_account_id,
    billing_account_id, ${TS("billing_period_start")} AS billing_period_start, ${TS("billing_period_end")} AS billing_period_end, import_id, priced,
    unpriced_reason, model, event_id, ${TS("created_at")} AS created_at, charge_frequency, pricing_category, pricing_quantity::text,
    pricing_unit, contracted_cost::text, contracted_unit_price::text, list_unit_price::text, resource_type, commitment_discount_id,
    commitment_discount_category, commitment_discount_type, commitment_discount_status, commitment_discount_quantity::text, commitment_discount_unit,
    invoice_issuer, charge_description, sku_meter, billing_account_name, sub_account_name, availability_zone, region_name, publisher_name,
    invoice_id, commitment_discount_name, row_id
  FROM spend_lines l`;

/** A line as read: timestamps as ISO text, amounts as numeric text. */
const LINE_COLUMNS = {
  id: "text",
  tenant_id: "text null",
  source: "text",
  charge_period_start: "text",
  charge_period_end: "text",
  charge_category: "text",
  charge_class: "text null",
  provider: "text null",
  service_name: "text null",
  service_category: "text null",
  region: "text null",
  resource_id: "text null",
  resource_name: "text null",
  sku_id: "text null",
  sku_price_id: "text null",
  pricing_id: "text null",
  unit_prices: "jsonb null",
  consumed_quantity: "text null",
  consumed_unit: "text null",
  billed_cost: "text null",
  effective_cost: "text null",
  list_cost: "text null",
  currency: "text null",
  tags: "jsonb",
  sub_account_id: "text null",
  billing_account_id: "text null",
  billing_period_start: "text null",
  billing_period_end: "text null",
  import_id: "text null",
  priced: "bool",
  unpriced_reason: "text null",
  model: "text null",
  event_id: "text null",
  created_at: "text",
  charge_frequency: "text",
  pricing_category: "text null",
  pricing_quantity: "text null",
  pricing_unit: "text null",
  contracted_cost: "text null",
  contracted_unit_price: "text null",
  list_unit_price: "text null",
  resource_type: "text null",
  commitment_discount_id: "text null",
  commitment_discount_category: "text null",
  commitment_discount_type: "text null",
  commitment_discount_status: "text null",
  commitment_discount_quantity: "text null",
  commitment_discount_unit: "text null",
  invoice_issuer: "text null",
  charge_description: "text null",
  sku_meter: "text null",
  billing_account_name: "text null",
  sub_account_name: "text null",
  availability_zone: "text null",
  region_name: "text null",
  publisher_name: "text null",
  invoice_id: "text null",
  commitment_discount_name: "text null",
  row_id: "text null",
} as const;
/** A line as read, with the contract's types where they are narrower than the column's (the source and charge frequency enumerations the writes keep to, unit prices and tags). */
export type LineRow = Omit<RowOf<typeof LINE_COLUMNS>, "source" | "charge_frequency" | "unit_prices" | "tags"> &
  Pick<SpendLine, "source" | "charge_frequency" | "tags"> & { unit_prices: Record<string, string | number> | null };

/** The condition selecting the scope's lines of the range matching the filters, and its parameters. */
function linesWhere(scope: SpendScope, input: SpendLinesFilter): { conditions: string[]; params: unknown[]; add: (value: unknown) => string } {
  const params: unknown[] = [scope.organizationId, input.start, input.end];
  const add = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  const conditions = ["l.organization_id = $1", "l.charge_period_start >= $2::timestamptz", "l.charge_period_start < $3::timestamptz"];
  if (scope.tenantIds) conditions.push(`l.tenant_id = ANY(${add(scope.tenantIds)}::text[])`);
  for (const [name, values] of Object.entries(input.filters)) conditions.push(`${dimensionSql(name as SpendDimension, "l")} = ANY(${add(values)}::text[])`);
  for (const [key, values] of Object.entries(input.tags)) conditions.push(`l.tags ->> ${add(key)} = ANY(${add(values)}::text[])`);
  return { conditions, params, add };
}

/** The statement reading the scope's lines of the range matching the filters after `after` ("at|id"), ordered by charge_period_start, then id. */
function linesStatement(
  scope: SpendScope,
  input: SpendLinesFilter,
  after: string | undefined,
  limit: number,
  options: { pricedOnly?: boolean } = {},
): { sql: string; params: unknown[] } {
  const { conditions, params, add } = linesWhere(scope, input);
  if (options.pricedOnly) conditions.push("l.priced");
  if (after) {
    const [at, id] = after.split("|");
    conditions.push(`(l.charge_period_start, l.id) > (${add(at)}::timestamptz, ${add(id)}::text)`);
  }
  return { sql: `${SELECT} WHERE ${conditions.join(" AND ")} ORDER BY l.charge_period_start, l.id LIMIT ${limit}`, params };
}

/** The scope's lines of the range matching the filters after `after` ("at|id"), ordered by charge_period_start, then id; at most `limit`. */
function readLines(
  sql: Pick<SqlClient, "query">,
  scope: SpendScope,
  input: SpendLinesFilter,
  after: string | undefined,
  limit: number,
  options: { pricedOnly?: boolean } = {},
): Promise<LineRow[]> {
  const statement = linesStatement(scope, input, after, limit, options);
  return sql.query<LineRow>(statement.sql, statement.params);
}

const UNPRICED_COUNT_COLUMNS = { lines: "text" } as const;

/** The statement counting the scope's lines of the range matching the filters that have no price. */
function unpricedCountStatement(scope: SpendScope, input: SpendLinesFilter): { sql: string; params: unknown[] } {
  const { conditions, params } = linesWhere(scope, input);
  return { sql: `SELECT count(*)::text AS lines FROM spend_lines l WHERE ${conditions.join(" AND ")} AND NOT l.priced`, params };
}

/** How many of the scope's lines of the range matching the filters have no price. */
async function countUnpricedLines(sql: Pick<SqlClient, "query">, scope: SpendScope, input: SpendLinesFilter): Promise<number> {
  const statement = unpricedCountStatement(scope, input);
  const [row] = await sql.query<RowOf<typeof UNPRICED_COUNT_COLUMNS>>(statement.sql, statement.params);
  return Number(row.lines);
}

/** What the lines endpoint and the export read; each function takes the driver's client it runs on. */
export const lineReadRepository = { readLines, countUnpricedLines };
export type LineReadRepository = typeof lineReadRepository;

/** The raw statements of this module (built per request: checked with every optional condition present), for test/repository-row-types.test.ts. */
export function checkedStatements(): CheckedStatement[] {
  const scope: SpendScope = { organizationId: "o", tenantIds: ["t"] };
  const input: SpendLinesFilter = { start: "2026-01-01T00:00:00.000Z", end: "2026-02-01T00:00:00.000Z", filters: { provider: ["aws"] }, tags: { team: ["a"] } };
  return [
    { name: "spend lines page", sql: linesStatement(scope, input, "2026-01-01T00:00:00.000Z|spl_1", 10, { pricedOnly: true }).sql, columns: LINE_COLUMNS },
    { name: "spend lines unpriced count", sql: unpricedCountStatement(scope, input).sql, columns: UNPRICED_COUNT_COLUMNS },
  ];
}
