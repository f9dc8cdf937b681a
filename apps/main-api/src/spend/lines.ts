import { Decimal } from "@cloudcost/decimal";
import { z } from "zod";
import type { SpendDimension, SpendLine, SpendLinesPage } from "@cloudcost/contracts";
import type { SqlClient } from "@cloudcost/db";
import { decodeCursor, encodeCursor } from "../http/pagination";
import { amount } from "./amounts";
import type { FocusExportLine } from "./focus";
import { dimensionSql, type SpendScope } from "./query";

export interface SpendLinesFilter {
  start: string;
  end: string;
  filters: Partial<Record<SpendDimension, string[]>>;
  tags: Record<string, string[]>;
}

/** A page key: the last line's charge_period_start and id. */
const PageKey = z.string().regex(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z\|[A-Za-z0-9_-]{1,64}$/);

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

type Row = Omit<SpendLine, "unit_prices"> & { unit_prices: Record<string, string | number> | null };

/** A stored amount as delivered: every decimal place kept (up to 20), trailing zeros trimmed, no exponent. */
const orNull = (value: string | null) => (value === null ? null : new Decimal(value).toFixed());

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

/** The scope's lines of the range matching the filters after `after` ("at|id"), ordered by charge_period_start, then id. */
async function readLines(
  sql: SqlClient,
  scope: SpendScope,
  input: SpendLinesFilter,
  after: string | undefined,
  limit: number,
  options: { pricedOnly?: boolean } = {},
): Promise<Row[]> {
  const { conditions, params, add } = linesWhere(scope, input);
  if (options.pricedOnly) conditions.push("l.priced");
  if (after) {
    const [at, id] = after.split("|");
    conditions.push(`(l.charge_period_start, l.id) > (${add(at)}::timestamptz, ${add(id)}::text)`);
  }
  return sql.query<Row>(`${SELECT} WHERE ${conditions.join(" AND ")} ORDER BY l.charge_period_start, l.id LIMIT ${limit}`, params);
}

/** How many of the scope's lines of the range matching the filters have no price. */
export async function countUnpricedLines(sql: SqlClient, scope: SpendScope, input: SpendLinesFilter): Promise<number> {
  const { conditions, params } = linesWhere(scope, input);
  const [row] = await sql.query<{ lines: string }>(
    `SELECT count(*)::text AS lines FROM spend_lines l WHERE ${conditions.join(" AND ")} AND NOT l.priced`,
    params,
  );
  return Number(row.lines);
}

const keyOf = (row: { charge_period_start: string; id: string }) => `${row.charge_period_start}|${row.id}`;

/** A page of the scope's lines with their provenance. */
export async function listSpendLines(sql: SqlClient, scope: SpendScope, input: SpendLinesFilter & { limit: number; cursor?: string }): Promise<SpendLinesPage> {
  const rows = await readLines(sql, scope, input, decodeCursor(input.cursor, PageKey), input.limit + 1);
  const items = rows.slice(0, input.limit).map(
    (row): SpendLine => ({
      ...row,
      unit_prices: row.unit_prices && Object.fromEntries(Object.entries(row.unit_prices).map(([key, price]) => [key, amount(String(price))])),
      consumed_quantity: orNull(row.consumed_quantity),
      billed_cost: orNull(row.billed_cost),
      effective_cost: orNull(row.effective_cost),
      list_cost: orNull(row.list_cost),
      pricing_quantity: orNull(row.pricing_quantity),
      contracted_cost: orNull(row.contracted_cost),
      contracted_unit_price: orNull(row.contracted_unit_price),
      list_unit_price: orNull(row.list_unit_price),
      commitment_discount_quantity: orNull(row.commitment_discount_quantity),
    }),
  );
  return { items, next_cursor: rows.length > input.limit ? encodeCursor(keyOf(items[items.length - 1])) : null };
}

const EXPORT_BATCH = 5000;

/**
 * Every line of the scope and range for the FOCUS export (the unpriced ones only when
 * `includeUnpriced`), read in batches of 5000 (keyset pages), so memory stays flat whatever the
 * range holds. Lines without a price have no currency of their own; FOCUS requires
 * BillingCurrency, so `fallbackCurrency` is written.
 */
export async function* exportLines(
  sql: SqlClient,
  scope: SpendScope,
  input: SpendLinesFilter,
  options: { fallbackCurrency: string; includeUnpriced: boolean },
): AsyncGenerator<FocusExportLine> {
  const fallbackCurrency = options.fallbackCurrency;
  let after: string | undefined;
  for (;;) {
    const rows = await readLines(sql, scope, input, after, EXPORT_BATCH, { pricedOnly: !options.includeUnpriced });
    for (const row of rows) {
      yield {
        ...row,
        charge_period_start: new Date(row.charge_period_start),
        charge_period_end: new Date(row.charge_period_end),
        billing_period_start: row.billing_period_start ? new Date(row.billing_period_start) : null,
        billing_period_end: row.billing_period_end ? new Date(row.billing_period_end) : null,
        currency: row.currency ?? fallbackCurrency,
      };
    }
    if (rows.length < EXPORT_BATCH) return;
    after = keyOf(rows[rows.length - 1]);
  }
}
