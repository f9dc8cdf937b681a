import { Readable } from "node:stream";
import { Decimal } from "decimal.js";

type Amount = string | { toString(): string } | null;

/** A ledger line as the export reads it (field names of docs/api.md, "Spend: usage, queries, lines, export"). */
export interface FocusExportLine {
  tenant_id: string | null;
  source: string;
  charge_period_start: Date;
  charge_period_end: Date;
  /** Import lines carry the file's billing period; usage lines have none (the calendar month is written). */
  billing_period_start?: Date | null;
  billing_period_end?: Date | null;
  charge_category: string;
  charge_class: string | null;
  provider: string | null;
  service_name: string | null;
  service_category: string | null;
  region: string | null;
  resource_id: string | null;
  resource_name: string | null;
  sku_id: string | null;
  sku_price_id: string | null;
  pricing_id: string | null;
  consumed_quantity: Amount;
  consumed_unit: string | null;
  billed_cost: Amount;
  effective_cost: Amount;
  list_cost: Amount;
  currency: string;
  tags: Record<string, unknown> | null;
  sub_account_id: string | null;
  billing_account_id: string | null;
  unpriced_reason: string | null;
}

export interface FocusExportOptions {
  /** Written where a line has no billing account (usage lines): the organization's id, say. */
  billingAccountId: string;
  billingAccountName?: string;
  /** Written where a line has no provider (usage lines). */
  provider?: string;
}

/** Every column FOCUS 1.2 makes mandatory, the conditional ones the ledger holds, then ours. */
export const FOCUS_EXPORT_COLUMNS = [
  "BilledCost",
  "BillingAccountId",
  "BillingAccountName",
  "BillingCurrency",
  "BillingPeriodEnd",
  "BillingPeriodStart",
  "ChargeCategory",
  "ChargeClass",
  "ChargeDescription",
  "ChargePeriodEnd",
  "ChargePeriodStart",
  "ConsumedQuantity",
  "ConsumedUnit",
  "ContractedCost",
  "EffectiveCost",
  "InvoiceId",
  "InvoiceIssuerName",
  "ListCost",
  "PricingQuantity",
  "PricingUnit",
  "ProviderName",
  "PublisherName",
  "RegionId",
  "ResourceId",
  "ResourceName",
  "ServiceCategory",
  "ServiceName",
  "SkuId",
  "SkuPriceId",
  "SubAccountId",
  "Tags",
  "x_TenantId",
  "x_Source",
  "x_PricingId",
  "x_UnpricedReason",
] as const;

const LINES_PER_CHUNK = 500;

function field(value: string | null | undefined): string {
  if (value === null || value === undefined) return "";
  return /[",\r\n]|^\s|\s$/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** Columns written as numbers or timestamps: never altered by the formula escape. */
const NOT_TEXT: ReadonlySet<string> = new Set([
  "BilledCost",
  "ConsumedQuantity",
  "ContractedCost",
  "EffectiveCost",
  "ListCost",
  "PricingQuantity",
  "BillingPeriodEnd",
  "BillingPeriodStart",
  "ChargePeriodEnd",
  "ChargePeriodStart",
]);

/**
 * A text a spreadsheet would run as a formula (it begins with =, +, -, @, a tab or a carriage
 * return) gets a leading `'`; the importer reads such a cell back without it.
 */
const FORMULA_START = /^[=+\-@\t\r]/;
const escapeFormula = (value: string | null): string | null => (value !== null && FORMULA_START.test(value) ? `'${value}` : value);

const amount = (value: Amount): string | null => (value === null ? null : new Decimal(String(value)).toFixed());
const time = (value: Date): string => value.toISOString().replace(".000Z", "Z");

function monthOf(date: Date): [Date, Date] {
  return [new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1)), new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1))];
}

function row(line: FocusExportLine, options: FocusExportOptions): string {
  const [monthStart, monthEnd] = monthOf(line.charge_period_start);
  const billed = amount(line.billed_cost);
  const list = amount(line.list_cost);
  const provider = line.provider ?? options.provider ?? null;
  const accountId = line.billing_account_id ?? options.billingAccountId;
  const quantity = amount(line.consumed_quantity);
  const values: Record<(typeof FOCUS_EXPORT_COLUMNS)[number], string | null> = {
    BilledCost: billed,
    BillingAccountId: accountId,
    BillingAccountName: line.billing_account_id === null ? (options.billingAccountName ?? accountId) : accountId,
    BillingCurrency: line.currency,
    BillingPeriodEnd: time(line.billing_period_end ?? monthEnd),
    BillingPeriodStart: time(line.billing_period_start ?? monthStart),
    ChargeCategory: line.charge_category,
    ChargeClass: line.charge_class,
    ChargeDescription: null,
    ChargePeriodEnd: time(line.charge_period_end),
    ChargePeriodStart: time(line.charge_period_start),
    ConsumedQuantity: quantity,
    ConsumedUnit: line.consumed_unit,
    // The ledger keeps no negotiated rate apart: without one, FOCUS's ContractedCost is the ListCost.
    ContractedCost: list ?? billed,
    EffectiveCost: amount(line.effective_cost),
    InvoiceId: null,
    InvoiceIssuerName: provider,
    ListCost: list,
    PricingQuantity: quantity,
    PricingUnit: line.consumed_unit,
    ProviderName: provider,
    PublisherName: provider,
    RegionId: line.region,
    ResourceId: line.resource_id,
    ResourceName: line.resource_name,
    ServiceCategory: line.service_category,
    ServiceName: line.service_name,
    SkuId: line.sku_id,
    SkuPriceId: line.sku_price_id,
    SubAccountId: line.sub_account_id,
    Tags: line.tags && Object.keys(line.tags).length ? JSON.stringify(line.tags) : null,
    x_TenantId: line.tenant_id,
    x_Source: line.source,
    x_PricingId: line.pricing_id,
    x_UnpricedReason: line.unpriced_reason,
  };
  return `${FOCUS_EXPORT_COLUMNS.map((c) => field(NOT_TEXT.has(c) ? values[c] : escapeFormula(values[c]))).join(",")}\r\n`;
}

/** Streams `lines` as a FOCUS 1.2 CSV file (header first), a chunk of lines at a time. */
export function focusCsv(lines: AsyncIterable<FocusExportLine> | Iterable<FocusExportLine>, options: FocusExportOptions): Readable {
  async function* chunks(): AsyncGenerator<string> {
    yield `${FOCUS_EXPORT_COLUMNS.join(",")}\r\n`;
    let chunk = "";
    let n = 0;
    for await (const line of lines) {
      chunk += row(line, options);
      if (++n === LINES_PER_CHUNK) {
        yield chunk;
        chunk = "";
        n = 0;
      }
    }
    if (chunk) yield chunk;
  }
  return Readable.from(chunks(), { objectMode: false });
}
