import { CHARGE_CATEGORIES, type ChargeCategory, detectVersion, type FocusVersion, REQUIRED_COLUMNS, SERVICE_CATEGORIES } from "./columns";
import { FocusFormatError, type FocusLine } from "./line";
import { type Cell, CellError, checkText, decimal, tags, text, timestampReader } from "./values";

const CATEGORIES: ReadonlySet<string> = new Set(CHARGE_CATEGORIES);
const CURRENCY = /^[A-Z]{3}$/;

/** Reads the rows of one file, given its header: the version is detected and the required columns checked once. */
export interface FocusRowReader {
  version: FocusVersion;
  /** The column names, trimmed. */
  header: readonly string[];
  /** `row` is 1-based, the header excluded. */
  read(cells: readonly Cell[], row: number): FocusLine;
}

/** Filled in by a reader once the header is read: the version detected. */
export interface FocusReadInfo {
  reader?: FocusRowReader;
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

        const unpricedReason = text(cell("x_UnpricedReason"));
        // Our own export writes an unpriced usage line with empty costs and its reason: read back as unpriced, never as zero.
        const cost = unpricedReason === null ? (name: string) => required(name, decimal) : (name: string) => decimal(cell(name));
        const billed = cost("BilledCost");
        const effective = cost("EffectiveCost");
        const list = decimal(cell("ListCost"));
        decimal(cell("ContractedCost"));
        const consumed = decimal(cell("ConsumedQuantity"));
        decimal(cell("PricingQuantity"));

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
        };
      } catch (err) {
        if (err instanceof CellError) throw new FocusFormatError(err.message, row, column);
        throw err;
      }
    },
  };
}
