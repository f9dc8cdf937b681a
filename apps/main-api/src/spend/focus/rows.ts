import {
  CHARGE_CATEGORIES,
  CHARGE_FREQUENCIES,
  COMMITMENT_DISCOUNT_CATEGORIES,
  COMMITMENT_DISCOUNT_STATUSES,
  detectVersion,
  type FocusVersion,
  PRICING_CATEGORIES,
  PRICING_CATEGORY_1_0,
  REQUIRED_COLUMNS,
  SERVICE_CATEGORIES,
} from "./columns";
import { FocusFormatError, type FocusLine } from "./line";
import { derivedChargeFrequency } from "../charge-frequency";
import { type Cell, CellError, checkText, decimal, tags, text, timestampReader } from "./values";

/**
 * A reader of one enumerated column: a value matches an allowed one whatever its case (the cell is
 * trimmed already) and is stored in the specification's spelling (Oracle's `Usage-based` is
 * `Usage-Based`); `aliases` are older names read as their newer ones. Null stays null; a value that
 * matches none is refused.
 */
function enumerated<T extends string>(allowed: readonly T[], what: string, aliases: Readonly<Record<string, T>> = {}): (value: string | null) => T | null {
  const spelling = new Map<string, T>();
  for (const value of allowed) spelling.set(value.toLowerCase(), value);
  for (const [alias, value] of Object.entries(aliases)) spelling.set(alias.toLowerCase(), value);
  return (value) => {
    if (value === null) return null;
    const found = spelling.get(value.toLowerCase());
    if (found === undefined) throw new CellError(`"${value.slice(0, 40)}" is not ${what}`);
    return found;
  };
}

const chargeCategoryOf = enumerated(CHARGE_CATEGORIES, `one of ${CHARGE_CATEGORIES.join(", ")}`);
const chargeClassOf = enumerated(["Correction"] as const, "null or Correction");
const chargeFrequencyOf = enumerated(CHARGE_FREQUENCIES, `one of ${CHARGE_FREQUENCIES.join(", ")}`);
const pricingCategoryOf = enumerated(PRICING_CATEGORIES, `one of ${PRICING_CATEGORIES.join(", ")}`, PRICING_CATEGORY_1_0);
const commitmentCategoryOf = enumerated(COMMITMENT_DISCOUNT_CATEGORIES, `one of ${COMMITMENT_DISCOUNT_CATEGORIES.join(", ")}`);
const commitmentStatusOf = enumerated(COMMITMENT_DISCOUNT_STATUSES, `one of ${COMMITMENT_DISCOUNT_STATUSES.join(", ")}`);
const serviceCategoryOf = enumerated([...SERVICE_CATEGORIES], "a FOCUS service category");

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
        const chargeCategory = required("ChargeCategory", (c) => chargeCategoryOf(text(c)));
        const chargeClass = chargeClassOf(text(cell("ChargeClass")));
        const serviceCategory = serviceCategoryOf(text(cell("ServiceCategory")));
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
        const frequency = chargeFrequencyOf(text(cell("ChargeFrequency")));
        const pricingCategory = pricingCategoryOf(text(cell("PricingCategory")));
        const commitmentCategory = commitmentCategoryOf(text(cell("CommitmentDiscountCategory")));
        const commitmentStatus = commitmentStatusOf(text(cell("CommitmentDiscountStatus")));
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
          charge_category: chargeCategory,
          charge_class: chargeClass,
          provider: optional("ServiceProviderName", "ProviderName"),
          service_name: optional("ServiceName"),
          service_category: serviceCategory,
          region: optional("RegionId"),
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
          billing_account_name: optional("BillingAccountName"),
          sub_account_name: optional("SubAccountName"),
          availability_zone: optional("AvailabilityZone"),
          region_name: optional("RegionName"),
          // FOCUS 1.3 renames PublisherName HostProviderName; a file of either version keeps its own.
          publisher_name: optional("PublisherName", "HostProviderName"),
          invoice_id: optional("InvoiceId"),
          commitment_discount_name: optional("CommitmentDiscountName"),
          row_id: optional("Id"),
        };
      } catch (err) {
        if (err instanceof CellError) throw new FocusFormatError(err.message, row, column);
        throw err;
      }
    },
  };
}
