import { Decimal } from "@cloudcost/decimal";
import { z } from "zod";
import type { SpendLine, SpendLinesPage } from "@cloudcost/contracts";
import type { SqlClient } from "@cloudcost/db";
import { decodeCursor, encodeCursor } from "../http/pagination";
import { amount } from "./amounts";
import type { FocusExportLine } from "./focus";
import type { LineReadRepository, SpendLinesFilter } from "./line-reads-repository";
import type { SpendScope } from "./query";

/** A page key: the last line's charge_period_start and id. */
const PageKey = z.string().regex(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z\|[A-Za-z0-9_-]{1,64}$/);

/** A stored amount as delivered: every decimal place kept (up to 20), trailing zeros trimmed, no exponent. */
const orNull = (value: string | null) => (value === null ? null : new Decimal(value).toFixed());

const keyOf = (row: { charge_period_start: string; id: string }) => `${row.charge_period_start}|${row.id}`;

/** A page of the scope's lines with their provenance. */
export async function listSpendLines(
  lineReads: LineReadRepository,
  sql: SqlClient,
  scope: SpendScope,
  input: SpendLinesFilter & { limit: number; cursor?: string },
): Promise<SpendLinesPage> {
  const rows = await lineReads.readLines(sql, scope, input, decodeCursor(input.cursor, PageKey), input.limit + 1);
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
  lineReads: LineReadRepository,
  sql: SqlClient,
  scope: SpendScope,
  input: SpendLinesFilter,
  options: { fallbackCurrency: string; includeUnpriced: boolean },
): AsyncGenerator<FocusExportLine> {
  const fallbackCurrency = options.fallbackCurrency;
  let after: string | undefined;
  for (;;) {
    const rows = await lineReads.readLines(sql, scope, input, after, EXPORT_BATCH, { pricedOnly: !options.includeUnpriced });
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
