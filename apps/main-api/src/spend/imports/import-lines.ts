import { Decimal } from "@cloudcost/decimal";
import { amount } from "../amounts";
import { type FocusLine, type FocusReadInfo, tagValueText } from "../focus";
import type { BillingPair, InsertResult, LedgerLineInput } from "../lines-repository";

const ISO_CACHE_MAX = 4096;
const isoStrings = new Map<number, string>();

/** `date.toISOString()`, remembered: a bill repeats the same few period boundaries and hours on every row. */
function iso(date: Date): string {
  const time = date.getTime();
  let text = isoStrings.get(time);
  if (text === undefined) {
    text = date.toISOString();
    if (isoStrings.size === ISO_CACHE_MAX) isoStrings.clear();
    isoStrings.set(time, text);
  }
  return text;
}

/** A FOCUS line as a ledger line of the import `importId`, allocated to `tenantId` (null: unallocated). */
export function toLedgerLine(line: FocusLine, tenantId: string | null, importId: string): LedgerLineInput {
  return {
    tenantId,
    source: "focus_import",
    chargePeriodStart: iso(line.charge_period_start),
    chargePeriodEnd: iso(line.charge_period_end),
    chargeCategory: line.charge_category,
    chargeClass: line.charge_class,
    provider: line.provider,
    serviceName: line.service_name,
    serviceCategory: line.service_category,
    region: line.region,
    resourceId: line.resource_id,
    resourceName: line.resource_name,
    skuId: line.sku_id,
    skuPriceId: line.sku_price_id,
    consumedQuantity: line.consumed_quantity,
    consumedUnit: line.consumed_unit,
    billedCost: line.billed_cost,
    effectiveCost: line.effective_cost,
    listCost: line.list_cost,
    currency: line.currency,
    tags: line.tags as Record<string, string>,
    subAccountId: line.sub_account_id,
    billingAccountId: line.billing_account_id,
    billingPeriodStart: iso(line.billing_period_start),
    billingPeriodEnd: iso(line.billing_period_end),
    importId,
    priced: line.priced,
    unpricedReason: line.unpriced_reason,
    chargeFrequency: line.charge_frequency,
    pricingCategory: line.pricing_category,
    pricingQuantity: line.pricing_quantity,
    pricingUnit: line.pricing_unit,
    contractedCost: line.contracted_cost,
    contractedUnitPrice: line.contracted_unit_price,
    listUnitPrice: line.list_unit_price,
    resourceType: line.resource_type,
    commitmentDiscountId: line.commitment_discount_id,
    commitmentDiscountCategory: line.commitment_discount_category,
    commitmentDiscountType: line.commitment_discount_type,
    commitmentDiscountStatus: line.commitment_discount_status,
    commitmentDiscountQuantity: line.commitment_discount_quantity,
    commitmentDiscountUnit: line.commitment_discount_unit,
    invoiceIssuer: line.invoice_issuer,
    chargeDescription: line.charge_description,
    skuMeter: line.sku_meter,
    billingAccountName: line.billing_account_name,
    subAccountName: line.sub_account_name,
    availabilityZone: line.availability_zone,
    regionName: line.region_name,
    publisherName: line.publisher_name,
    invoiceId: line.invoice_id,
    commitmentDiscountName: line.commitment_discount_name,
    rowId: line.row_id,
  };
}

/**
 * Tag values as text, so that a rule's `tag.values` compares alike in the import and in the SQL
 * re-allocation (FOCUS writes `true` for a tag without a value).
 */
export function textTags(tags: Record<string, unknown>): Record<string, unknown> {
  let out: Record<string, unknown> | undefined;
  for (const [key, value] of Object.entries(tags)) {
    if (value === null || typeof value === "string") continue;
    out ??= { ...tags };
    out[key] = tagValueText(value);
  }
  return out ?? tags;
}

/** What an import counts as its lines go by. */
export class ImportTally {
  rows = 0;
  allocated = 0;
  private readonly pairs = new Map<string, BillingPair>();
  private readonly totals = new Map<string, { billed: Decimal; effective: Decimal }>();

  add(line: FocusLine, tenantId: string | null): void {
    this.rows += 1;
    if (tenantId !== null) this.allocated += 1;
    const start = iso(line.billing_period_start);
    const end = iso(line.billing_period_end);
    const key = `${line.billing_account_id}\u0000${start}\u0000${end}`;
    if (!this.pairs.has(key)) this.pairs.set(key, { billingAccountId: line.billing_account_id, start, end });
  }

  /** Adds the amounts as stored, per currency (answered rounded to 10 places, as every sum). */
  addStored(result: InsertResult): void {
    for (const t of result.totals) {
      const sum = this.totals.get(t.currency) ?? { billed: new Decimal(0), effective: new Decimal(0) };
      this.totals.set(t.currency, { billed: sum.billed.plus(t.billed_cost), effective: sum.effective.plus(t.effective_cost) });
    }
  }

  billingPairs(): BillingPair[] {
    return [...this.pairs.values()];
  }

  billingAccountIds(): string[] {
    return [...new Set(this.billingPairs().map((p) => p.billingAccountId))].sort();
  }

  billingPeriods(): { start: string; end: string }[] {
    const seen = new Map(this.billingPairs().map((p) => [`${p.start}/${p.end}`, { start: p.start, end: p.end }]));
    return [...seen.values()].sort((a, b) => (a.start === b.start ? (a.end < b.end ? -1 : 1) : a.start < b.start ? -1 : 1));
  }

  currencyTotals(): { currency: string; billed_cost: string; effective_cost: string }[] {
    return [...this.totals.entries()]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([currency, t]) => ({ currency, billed_cost: amount(t.billed), effective_cost: amount(t.effective) }));
  }

  /** What an import row records of its file (a whole import or a session's part): version, counts, accounts, periods, totals, size. */
  importFields(info: FocusReadInfo) {
    return {
      focusVersion: info.reader?.version ?? "1.0",
      rows: this.rows,
      allocatedRows: this.allocated,
      unallocatedRows: this.rows - this.allocated,
      billingAccountIds: this.billingAccountIds(),
      billingPeriods: this.billingPeriods(),
      totals: this.currencyTotals(),
      decodedBytes: BigInt(info.bytes ?? 0),
    };
  }
}
