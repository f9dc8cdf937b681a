import {
  CHARGE_CATEGORIES,
  CHARGE_FREQUENCIES,
  type ChargeCategory,
  COMMITMENT_DISCOUNT_CATEGORIES,
  COMMITMENT_DISCOUNT_STATUSES,
  detectVersion,
  type FocusVersion,
  PRICING_CATEGORIES,
  PRICING_CATEGORY_1_0,
  type PricingCategory,
  REQUIRED_COLUMNS,
  SERVICE_CATEGORIES,
} from "./columns";
import { FocusFormatError, type FocusLine } from "./line";
import { derivedChargeFrequency } from "../charge-frequency";
import { type Cell, CellError, checkText, decimal, tags, text, timestampReader } from "./values";

const CATEGORIES: ReadonlySet<string> = new Set(CHARGE_CATEGORIES);
/** A text cell that must be one of `allowed` (null stays null). */
function oneOf<T extends string>(value: string | null, allowed: readonly T[]): T | null {
  if (value === null) return null;
  if (!(allowed as readonly string[]).includes(value)) throw new CellError(`"${value.slice(0, 40)}" is not one of ${allowed.join(", ")}`);
  return value as T;
}

const CURRENCY = /^[A-Z]{3}$/;

/** Reads the rows of one file, given its header: the version is detected and the required columns checked once. */
export interface FocusRowReader {
  version: FocusVersion;
  /** The column names, trimmed. */
  header: readonly string[];
  /** `row` is 1-based, the header excluded. */
  read(cells: readonly Cell[], row: number): FocusLine;
}

/** Filled in by a reader: the version detected once the header is read, and the decoded bytes read so far. */
export interface FocusReadInfo {
  reader?: FocusRowReader;
  /** What counts against the import's size bound: CSV's bytes once decompressed, Parquet's decoded cells. */
  bytes?: number;
}

export function rowReader(header: readonly string[]): FocusRowReader {
  const index = new Map<string, number>();
  header.forEach((raw, i) => {
    const name = raw.trim();
    if (index.has(name)) throw new FocusFormatError(`Column ${name} appears twice in the header`);
    index.set(name, i);
  });
  const version = detectVersion(new Set(index.keys()));
  const timestamp = timestampReader();
  for (const column of REQUIRED_COLUMNS[version]) {
    if (!index.has(column)) throw new FocusFormatError(`Missing required column ${column} (FOCUS ${version})`);
  }

  return {
    version,
    header: header.map((name) => name.trim()),
    read(cells, row) {
      let column = "";
      const cell = (name: string): Cell => {
        column = name;
        const i = index.get(name);
        return i === undefined ? null : cells[i];
      };
      const required = <T>(name: string, read: (c: Cell) => T | null): T => {
        const value = read(cell(name));
        if (value === null) throw new CellError("must not be null");
        return value;
      };
      const optional = (...names: string[]): string | null => {
        for (const name of names) {
          const value = text(cell(name));
          if (value !== null) return value;
        }
        return null;
      };
      try {
        if (cells.length !== header.length) {
          column = header[Math.min(cells.length, header.length - 1)];
          throw new CellError(`the row has ${cells.length} fields, the header ${header.length}`);
        }
        // Every text cell is bounded, also those of columns the ledger does not keep.
        for (let i = 0; i < cells.length; i++) {
          const value = cells[i];
          if (typeof value !== "string") continue;
          column = header[i];
          checkText(value);
        }
        const chargeCategory = required("ChargeCategory", text);
        if (!CATEGORIES.has(chargeCategory)) throw new CellError(`"${chargeCategory.slice(0, 40)}" is not one of ${CHARGE_CATEGORIES.join(", ")}`);
        const chargeClass = text(cell("ChargeClass"));
        if (chargeClass !== null && chargeClass !== "Correction") throw new CellError(`"${chargeClass.slice(0, 40)}" is not null or Correction`);
        const serviceCategory = text(cell("ServiceCategory"));
        if (serviceCategory !== null && !SERVICE_CATEGORIES.has(serviceCategory))
          throw new CellError(`"${serviceCategory.slice(0, 40)}" is not a FOCUS service category`);
        const currency = required("BillingCurrency", text);
        if (!CURRENCY.test(currency)) throw new CellError(`"${currency.slice(0, 40)}" is not an ISO 4217 currency code`);

        // Our own export writes an unpriced usage line (include_unpriced) with zero costs, x_Priced
        // false and its reason: read back as unpriced with null costs, never as zero.
        const pricedFlag = text(cell("x_Priced"));
        if (pricedFlag !== null && pricedFlag !== "true" && pricedFlag !== "false") throw new CellError(`"${pricedFlag.slice(0, 40)}" is not true or false`);
        const xReason = text(cell("x_UnpricedReason"));
        const unpricedReason = pricedFlag === "false" || xReason !== null ? (xReason ?? "unpriced") : null;
        // An unpriced line's cost cells are still checked, then dropped.
        const costOf = (name: string, mandatory: boolean) => {
          const value = unpricedReason === null && mandatory ? required(name, decimal) : decimal(cell(name));
          return unpricedReason === null ? value : null;
        };
        const billed = costOf("BilledCost", true);
        const effective = costOf("EffectiveCost", true);
        const list = costOf("ListCost", false);
        const contracted = costOf("ContractedCost", false);
        const consumed = decimal(cell("ConsumedQuantity"));
        const pricingQuantity = decimal(cell("PricingQuantity"));
        const frequency = oneOf(text(cell("ChargeFrequency")), CHARGE_FREQUENCIES);
        const pricingCategoryText = text(cell("PricingCategory"));
        const pricingCategory = oneOf(
          pricingCategoryText === null ? null : (PRICING_CATEGORY_1_0[pricingCategoryText] ?? pricingCategoryText),
          PRICING_CATEGORIES,
        ) as PricingCategory | null;
        const commitmentCategory = oneOf(text(cell("CommitmentDiscountCategory")), COMMITMENT_DISCOUNT_CATEGORIES);
        const commitmentStatus = oneOf(text(cell("CommitmentDiscountStatus")), COMMITMENT_DISCOUNT_STATUSES);
        const commitmentQuantity = decimal(cell("CommitmentDiscountQuantity"));
        const contractedUnitPrice = decimal(cell("ContractedUnitPrice"));
        const listUnitPrice = decimal(cell("ListUnitPrice"));

        const start = required("ChargePeriodStart", timestamp);
        const end = required("ChargePeriodEnd", timestamp);
        if (end < start) throw new CellError("is before ChargePeriodStart");
        const billingStart = required("BillingPeriodStart", timestamp);
        const billingEnd = required("BillingPeriodEnd", timestamp);
        if (billingEnd <= billingStart) throw new CellError("is not after BillingPeriodStart");

        return {
          charge_period_start: start,
          charge_period_end: end,
          billing_period_start: billingStart,
          billing_period_end: billingEnd,
          charge_category: chargeCategory as ChargeCategory,
          charge_class: chargeClass,
          provider: optional("ServiceProviderName", "ProviderName"),
          service_name: optional("ServiceName"),
          service_category: serviceCategory,
          region: optional("RegionId", "RegionName"),
          resource_id: optional("ResourceId"),
          resource_name: optional("ResourceName"),
          sku_id: optional("SkuId"),
          sku_price_id: optional("SkuPriceId"),
          consumed_quantity: consumed,
          consumed_unit: optional("ConsumedUnit"),
          billed_cost: billed,
          effective_cost: effective,
          list_cost: list,
          currency,
          tags: tags(cell("Tags")),
          sub_account_id: optional("SubAccountId"),
          billing_account_id: required("BillingAccountId", text),
          priced: unpricedReason === null,
          unpriced_reason: unpricedReason,
          charge_frequency: frequency ?? derivedChargeFrequency(chargeCategory, start.getTime(), end.getTime()),
          pricing_category: pricingCategory,
          pricing_quantity: pricingQuantity,
          pricing_unit: optional("PricingUnit"),
          contracted_cost: contracted,
          contracted_unit_price: contractedUnitPrice,
          list_unit_price: listUnitPrice,
          resource_type: optional("ResourceType"),
          commitment_discount_id: optional("CommitmentDiscountId"),
          commitment_discount_category: commitmentCategory,
          commitment_discount_type: optional("CommitmentDiscountType"),
          commitment_discount_status: commitmentStatus,
          commitment_discount_quantity: commitmentQuantity,
          commitment_discount_unit: optional("CommitmentDiscountUnit"),
          invoice_issuer: optional("InvoiceIssuerName"),
          charge_description: optional("ChargeDescription"),
          sku_meter: optional("SkuMeter"),
        };
      } catch (err) {
        if (err instanceof CellError) throw new FocusFormatError(err.message, row, column);
        throw err;
      }
    },
  };
}
