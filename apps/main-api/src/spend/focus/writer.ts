import { Readable } from "node:stream";
import { Decimal } from "@cloudcost/decimal";
import { MANDATORY_1_0 } from "./columns";
import type { FocusLineText } from "./line";

type Amount = string | { toString(): string } | null;

/** A ledger line as the export reads it (field names of docs/api.md, "Spend: usage, queries, lines, export"). */
export interface FocusExportLine extends FocusLineText {
  tenant_id: string | null;
  source: string;
  charge_period_start: Date;
  charge_period_end: Date;
  /** Import lines carry the file's billing period; usage lines have none (the calendar month is written). */
  billing_period_start?: Date | null;
  billing_period_end?: Date | null;
  charge_category: string;
  charge_class: string | null;
  pricing_id: string | null;
  consumed_quantity: Amount;
  consumed_unit: string | null;
  billed_cost: Amount;
  effective_cost: Amount;
  list_cost: Amount;
  currency: string;
  tags: Record<string, unknown> | null;
  billing_account_id: string | null;
  priced: boolean;
  charge_frequency: string;
  pricing_category: string | null;
  pricing_quantity: Amount;
  contracted_cost: Amount;
  contracted_unit_price: Amount;
  list_unit_price: Amount;
  commitment_discount_category: string | null;
  commitment_discount_status: string | null;
  commitment_discount_quantity: Amount;
  billing_account_name?: string | null;
  sub_account_name?: string | null;
  availability_zone?: string | null;
  region_name?: string | null;
  publisher_name?: string | null;
  invoice_id?: string | null;
  commitment_discount_name?: string | null;
  row_id?: string | null;
  /** The line's value under each exported dimension (null: unallocated). */
  dimensions?: Record<string, string | null>;
  /** A split piece: the split's id and the piece's ratio of its line (FOCUS 1.3 allocation columns; the ratio a decimal text, written as a JSON number as it is). */
  allocated?: { methodId: string; ratio: string };
}

export interface FocusExportOptions {
  /** Written where a line has no billing account (usage lines): the organization's id, say. */
  billingAccountId: string;
  billingAccountName?: string;
  /** Written where a line has no provider (usage lines). */
  provider?: string;
  /** An `x_Dimension_<key>` column each, after ours. */
  dimensionKeys?: string[];
  /** FOCUS 1.3's AllocatedMethodId and AllocatedMethodDetails, last (an export with allocation=split). */
  allocation?: boolean;
}

/** The header of an export with these options: the FOCUS columns, then the dimensions' and the allocation's. */
export function exportColumns(options: FocusExportOptions): string[] {
  return [
    ...FOCUS_EXPORT_COLUMNS,
    ...(options.dimensionKeys ?? []).map((key) => `x_Dimension_${key}`),
    ...(options.allocation ? ["AllocatedMethodId", "AllocatedMethodDetails"] : []),
  ];
}

/** The columns FOCUS 1.2 makes conditional (or recommends) that the ledger holds, and a bill's own `Id`. */
const EXPORTED_CONDITIONAL_COLUMNS = [
  "AvailabilityZone",
  "ChargeFrequency",
  "CommitmentDiscountCategory",
  "CommitmentDiscountId",
  "CommitmentDiscountName",
  "CommitmentDiscountQuantity",
  "CommitmentDiscountStatus",
  "CommitmentDiscountType",
  "CommitmentDiscountUnit",
  "ConsumedQuantity",
  "ConsumedUnit",
  "ContractedUnitPrice",
  "Id",
  "InvoiceId",
  "ListUnitPrice",
  "PricingCategory",
  "RegionId",
  "RegionName",
  "ResourceId",
  "ResourceName",
  "ResourceType",
  "SkuId",
  "SkuMeter",
  "SkuPriceId",
  "SubAccountId",
  "SubAccountName",
  "Tags",
] as const;

/** Every column FOCUS 1.2 makes mandatory and the conditional ones the ledger holds, in byte order, then ours. */
export const FOCUS_EXPORT_COLUMNS = [
  ...[...MANDATORY_1_0, ...EXPORTED_CONDITIONAL_COLUMNS].sort(),
  "x_TenantId",
  "x_Source",
  "x_PricingId",
  "x_Priced",
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
  "CommitmentDiscountQuantity",
  "ConsumedQuantity",
  "ContractedCost",
  "ContractedUnitPrice",
  "EffectiveCost",
  "ListCost",
  "ListUnitPrice",
  "PricingQuantity",
  "BillingPeriodEnd",
  "BillingPeriodStart",
  "ChargePeriodEnd",
  "ChargePeriodStart",
  "x_Priced",
]);

/**
 * A text a spreadsheet would run as a formula (it begins with =, +, -, @, a tab or a carriage
 * return) gets a leading `'`; the importer reads such a cell back without it.
 */
const FORMULA_START = /^[=+\-@\t\r]/;
const escapeFormula = (value: string | null): string | null => (value !== null && FORMULA_START.test(value) ? `'${value}` : value);

const amount = (value: Amount | undefined): string | null => (value === null || value === undefined ? null : new Decimal(String(value)).toFixed());
const time = (value: Date): string => value.toISOString().replace(".000Z", "Z");

function monthOf(date: Date): [Date, Date] {
  return [new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1)), new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1))];
}

function row(line: FocusExportLine, options: FocusExportOptions): string {
  const [monthStart, monthEnd] = monthOf(line.charge_period_start);
  // FOCUS forbids null costs: an unpriced usage line (written only on request) carries zeros and x_Priced false.
  const cost = (value: Amount) => (line.priced ? amount(value) : "0");
  const billed = cost(line.billed_cost);
  const list = cost(line.list_cost);
  const provider = line.provider ?? options.provider ?? null;
  // A bill line is written as it was delivered (a null stays empty); a usage line, which no bill
  // describes, is given the organization's account, its provider as publisher and issuer, and its
  // list cost as contracted cost (it has no contract).
  const usage = line.source === "usage";
  const accountId = line.billing_account_id ?? options.billingAccountId;
  // FOCUS requires a pricing quantity and unit on usage and purchases that are not corrections: a
  // usage line stored without them (one of several quantities) is written with its consumed quantity,
  // else 1. A bill line is written as delivered, without them if the bill had none.
  const pricingRequired = usage && (line.charge_category === "Usage" || line.charge_category === "Purchase") && line.charge_class !== "Correction";
  const pricingQuantity = amount(line.pricing_quantity) ?? (pricingRequired ? (amount(line.consumed_quantity) ?? "1") : null);
  const values: Record<(typeof FOCUS_EXPORT_COLUMNS)[number], string | null> = {
    AvailabilityZone: line.availability_zone ?? null,
    BilledCost: billed,
    BillingAccountId: accountId,
    BillingAccountName: line.billing_account_name ?? (line.billing_account_id === null ? (options.billingAccountName ?? accountId) : null),
    BillingCurrency: line.currency,
    BillingPeriodEnd: time(line.billing_period_end ?? monthEnd),
    BillingPeriodStart: time(line.billing_period_start ?? monthStart),
    ChargeCategory: line.charge_category,
    ChargeClass: line.charge_class,
    ChargeDescription: line.charge_description,
    ChargeFrequency: line.charge_frequency,
    ChargePeriodEnd: time(line.charge_period_end),
    ChargePeriodStart: time(line.charge_period_start),
    CommitmentDiscountCategory: line.commitment_discount_category,
    CommitmentDiscountId: line.commitment_discount_id,
    CommitmentDiscountName: line.commitment_discount_name ?? null,
    CommitmentDiscountQuantity: amount(line.commitment_discount_quantity),
    CommitmentDiscountStatus: line.commitment_discount_status,
    CommitmentDiscountType: line.commitment_discount_type,
    CommitmentDiscountUnit: line.commitment_discount_unit,
    ConsumedQuantity: amount(line.consumed_quantity),
    ConsumedUnit: line.consumed_unit,
    ContractedCost: !line.priced ? "0" : usage ? (amount(line.contracted_cost) ?? list ?? billed) : amount(line.contracted_cost),
    ContractedUnitPrice: amount(line.contracted_unit_price),
    EffectiveCost: cost(line.effective_cost),
    Id: line.row_id ?? null,
    InvoiceId: line.invoice_id ?? null,
    InvoiceIssuerName: line.invoice_issuer ?? (usage ? provider : null),
    ListCost: list,
    ListUnitPrice: amount(line.list_unit_price),
    PricingCategory: line.pricing_category,
    PricingQuantity: pricingQuantity,
    PricingUnit: line.pricing_unit ?? (pricingRequired ? (line.consumed_unit ?? "Units") : null),
    ProviderName: provider,
    PublisherName: line.publisher_name ?? (usage ? provider : null),
    RegionId: line.region,
    RegionName: line.region_name ?? null,
    ResourceId: line.resource_id,
    ResourceName: line.resource_name,
    ResourceType: line.resource_type,
    ServiceCategory: line.service_category,
    ServiceName: line.service_name,
    SkuId: line.sku_id,
    SkuMeter: line.sku_meter,
    SkuPriceId: line.sku_price_id,
    SubAccountId: line.sub_account_id,
    SubAccountName: line.sub_account_name ?? null,
    Tags: line.tags && Object.keys(line.tags).length ? JSON.stringify(line.tags) : null,
    x_TenantId: line.tenant_id,
    x_Source: line.source,
    x_PricingId: line.pricing_id,
    x_Priced: line.priced ? "true" : "false",
    x_UnpricedReason: line.unpriced_reason,
  };
  const extra = [
    ...(options.dimensionKeys ?? []).map((key) => escapeFormula(line.dimensions?.[key] ?? null)),
    ...(options.allocation ? [line.allocated?.methodId ?? null, line.allocated ? `{"Elements":[{"AllocatedRatio":${line.allocated.ratio}}]}` : null] : []),
  ];
  return `${[...FOCUS_EXPORT_COLUMNS.map((c) => field(NOT_TEXT.has(c) ? values[c] : escapeFormula(values[c]))), ...extra.map(field)].join(",")}\r\n`;
}

/** Streams `lines` as a FOCUS 1.2 CSV file (header first), a chunk of lines at a time. */
export function focusCsv(lines: AsyncIterable<FocusExportLine> | Iterable<FocusExportLine>, options: FocusExportOptions): Readable {
  async function* chunks(): AsyncGenerator<string> {
    yield `${exportColumns(options).join(",")}\r\n`;
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
