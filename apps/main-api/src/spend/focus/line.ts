import type { ChargeCategory, ChargeFrequency, PricingCategory } from "./columns";

/** The text columns a line holds alike as the import reads it and as the export writes it (null: none). */
export interface FocusLineText {
  provider: string | null;
  service_name: string | null;
  service_category: string | null;
  region: string | null;
  resource_id: string | null;
  resource_name: string | null;
  sku_id: string | null;
  sku_price_id: string | null;
  sub_account_id: string | null;
  unpriced_reason: string | null;
  pricing_unit: string | null;
  resource_type: string | null;
  commitment_discount_id: string | null;
  commitment_discount_type: string | null;
  commitment_discount_unit: string | null;
  invoice_issuer: string | null;
  charge_description: string | null;
  sku_meter: string | null;
}

/** One FOCUS row, normalized to the ledger line fields of docs/api.md, "Spend: usage, queries, lines, export" (amounts exact decimal strings). */
export interface FocusLine extends FocusLineText {
  charge_period_start: Date;
  /** Exclusive. */
  charge_period_end: Date;
  billing_period_start: Date;
  billing_period_end: Date;
  charge_category: ChargeCategory;
  charge_class: "Correction" | null;
  consumed_quantity: string | null;
  consumed_unit: string | null;
  /** Null only for a line our own export wrote as unpriced (`x_UnpricedReason`). */
  billed_cost: string | null;
  effective_cost: string | null;
  list_cost: string | null;
  currency: string;
  tags: Record<string, unknown>;
  billing_account_id: string;
  priced: boolean;
  charge_frequency: ChargeFrequency;
  pricing_category: PricingCategory | null;
  pricing_quantity: string | null;
  contracted_cost: string | null;
  contracted_unit_price: string | null;
  list_unit_price: string | null;
  commitment_discount_category: "Spend" | "Usage" | null;
  commitment_discount_status: "Used" | "Unused" | null;
  commitment_discount_quantity: string | null;
  billing_account_name: string | null;
  sub_account_name: string | null;
  availability_zone: string | null;
  region_name: string | null;
  publisher_name: string | null;
  invoice_id: string | null;
  commitment_discount_name: string | null;
  /** The file's own row id (its `Id` column). */
  row_id: string | null;
}

/** A file the import refuses: the message names the column and, for a row, its 1-based number (the header is not a row). */
export class FocusFormatError extends Error {
  constructor(
    message: string,
    readonly row?: number,
    readonly column?: string,
  ) {
    super(row === undefined ? message : `Row ${row}, column ${column}: ${message}`);
    this.name = "FocusFormatError";
  }
}

/** A file whose content, once decompressed, is past the import's size bound (a 413). */
export class FocusTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`The file is larger than ${maxBytes} bytes once decompressed (SPEND_IMPORT_MAX_BYTES).`);
    this.name = "FocusTooLargeError";
  }
}
