import { z } from "zod";
import type { SpendDimension, SpendLine, SpendLinesPage } from "@cloudcost/contracts";
import type { SqlClient } from "@cloudcost/db";
import { decodeCursor, encodeCursor } from "../http/pagination";
import { amount } from "./amounts";
import type { TenantRef } from "./usage-service";

export interface SpendLinesInput {
  start: string;
  end: string;
  limit: number;
  cursor?: string;
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
    unpriced_reason, model, event_id, ${TS("created_at")} AS created_at
  FROM spend_lines l`;

type Row = Omit<SpendLine, "unit_prices"> & { unit_prices: Record<string, string | number> | null };

const orNull = (value: string | null) => (value === null ? null : amount(value));

/** The tenant's lines of the range matching the filters, ordered by charge_period_start, then id. */
export async function listSpendLines(sql: SqlClient, tenant: TenantRef, input: SpendLinesInput): Promise<SpendLinesPage> {
  const after = decodeCursor(input.cursor, PageKey);
  const params: unknown[] = [tenant.organizationId, tenant.id, input.start, input.end];
  const add = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  const conditions = ["l.organization_id = $1", "l.tenant_id = $2", "l.charge_period_start >= $3::timestamptz", "l.charge_period_start < $4::timestamptz"];
  for (const [name, values] of Object.entries(input.filters)) conditions.push(`coalesce(l.${name}, '') = ANY(${add(values)}::text[])`);
  for (const [key, values] of Object.entries(input.tags)) conditions.push(`l.tags ->> ${add(key)} = ANY(${add(values)}::text[])`);
  if (after) {
    const [at, id] = after.split("|");
    conditions.push(`(l.charge_period_start, l.id) > (${add(at)}::timestamptz, ${add(id)}::text)`);
  }
  const rows = await sql.query<Row>(`${SELECT} WHERE ${conditions.join(" AND ")} ORDER BY l.charge_period_start, l.id LIMIT ${input.limit + 1}`, params);
  const items = rows.slice(0, input.limit).map(
    (row): SpendLine => ({
      ...row,
      unit_prices: row.unit_prices && Object.fromEntries(Object.entries(row.unit_prices).map(([key, price]) => [key, amount(String(price))])),
      consumed_quantity: orNull(row.consumed_quantity),
      billed_cost: orNull(row.billed_cost),
      effective_cost: orNull(row.effective_cost),
      list_cost: orNull(row.list_cost),
    }),
  );
  const last = items[items.length - 1];
  return { items, next_cursor: rows.length > input.limit ? encodeCursor(`${last.charge_period_start}|${last.id}`) : null };
}
