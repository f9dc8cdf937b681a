import { text } from "node:stream/consumers";
import { parse } from "csv-parse/sync";
import { Decimal } from "@cloudcost/decimal";
import { FOCUS_EXPORT_COLUMNS, type FocusExportLine, type FocusLine, focusCsv, readFocusCsv } from "../src/spend/focus";
import type { FocusReadInfo } from "../src/spend/focus";
import { streamOf } from "./helpers/focus-files";

const importLine: FocusExportLine = {
  tenant_id: "7b0f8f64-7d0e-4c52-9a55-1f3b7d0c2a11",
  source: "focus_import",
  charge_period_start: new Date("2026-10-01T00:00:00Z"),
  charge_period_end: new Date("2026-10-01T01:00:00Z"),
  billing_period_start: new Date("2026-10-01T00:00:00Z"),
  billing_period_end: new Date("2026-11-01T00:00:00Z"),
  charge_category: "Usage",
  charge_class: "Correction",
  provider: "AWS",
  service_name: "Amazon Elastic Compute Cloud",
  service_category: "Compute",
  region: "us-east-1",
  resource_id: "arn:aws:ec2:us-east-1:1:instance/i-1",
  resource_name: 'web "blue",\nline two',
  sku_id: "SKU",
  sku_price_id: "SKU.1",
  pricing_id: null,
  consumed_quantity: "1",
  consumed_unit: "Hours",
  billed_cost: "0.0000001",
  effective_cost: new Decimal("1e-8"),
  list_cost: "12345678901234.0123456789",
  currency: "USD",
  tags: { team: "a,b", quote: 'say "hi"', flag: true },
  sub_account_id: "222",
  billing_account_id: "111",
  priced: true,
  unpriced_reason: null,
  charge_frequency: "Usage-Based",
  pricing_category: "Committed",
  pricing_quantity: "1",
  pricing_unit: "Hours",
  contracted_cost: "0.00000009",
  contracted_unit_price: "0.00000009",
  list_unit_price: "12345678901234.0123456789",
  resource_type: "Virtual Machine",
  commitment_discount_id: "arn:aws:savingsplans::1:savingsplan/sp-1",
  commitment_discount_category: "Spend",
  commitment_discount_type: "Compute Savings Plan",
  commitment_discount_status: "Used",
  commitment_discount_quantity: "0.0000001",
  commitment_discount_unit: "USD",
  invoice_issuer: "Amazon Web Services, Inc.",
  charge_description: '=HYPERLINK("x") m5.large',
  sku_meter: "-Compute",
  billing_account_name: "SunBird, Ltd.",
  sub_account_name: "-prod",
  availability_zone: "us-east-1a",
  region_name: "US East (N. Virginia)",
  publisher_name: "Amazon Web Services, Inc.",
  invoice_id: "INV-1",
  commitment_discount_name: 'sp, "one"',
  row_id: "row-1",
};

const usageLine: FocusExportLine = {
  ...importLine,
  tenant_id: "7b0f8f64-7d0e-4c52-9a55-1f3b7d0c2a12",
  source: "usage",
  // A usage line has none of a bill's names and ids.
  billing_account_name: null,
  sub_account_name: null,
  availability_zone: null,
  region_name: null,
  publisher_name: null,
  invoice_id: null,
  commitment_discount_name: null,
  row_id: null,
  billing_period_start: null,
  billing_period_end: null,
  charge_period_start: new Date("2026-10-31T23:59:00Z"),
  charge_period_end: new Date("2026-11-01T00:00:00Z"),
  charge_class: null,
  provider: null,
  service_name: "gpt-4o",
  service_category: "AI and Machine Learning",
  region: null,
  resource_id: null,
  resource_name: null,
  sku_id: null,
  sku_price_id: null,
  pricing_id: null,
  consumed_quantity: "1000",
  consumed_unit: "tokens",
  billed_cost: null,
  effective_cost: null,
  list_cost: null,
  tags: {},
  sub_account_id: null,
  billing_account_id: null,
  priced: false,
  unpriced_reason: "no_price",
  charge_frequency: "Usage-Based",
  pricing_category: "Standard",
  pricing_quantity: "1000",
  pricing_unit: "tokens",
  contracted_cost: null,
  contracted_unit_price: null,
  list_unit_price: null,
  resource_type: null,
  commitment_discount_id: null,
  commitment_discount_category: null,
  commitment_discount_type: null,
  commitment_discount_status: null,
  commitment_discount_quantity: null,
  commitment_discount_unit: null,
  invoice_issuer: null,
  charge_description: null,
  sku_meter: null,
};

async function roundTrip(lines: FocusExportLine[]): Promise<{ csv: string; parsed: FocusLine[]; version?: string }> {
  const csv = await text(focusCsv(lines, { billingAccountId: "org-1", billingAccountName: "Org One", provider: "cloudcost" }));
  const info: FocusReadInfo = {};
  const parsed: FocusLine[] = [];
  for await (const line of readFocusCsv(streamOf(csv), { info })) parsed.push(line);
  return { csv, parsed, version: info.reader?.version };
}

describe("FOCUS 1.2 CSV writer", () => {
  test("the header: every mandatory FOCUS 1.2 column, then x_TenantId, x_Source, x_PricingId, x_Priced, x_UnpricedReason", async () => {
    const { csv } = await roundTrip([]);
    expect(csv.split("\r\n")[0]).toBe(FOCUS_EXPORT_COLUMNS.join(","));
    expect(FOCUS_EXPORT_COLUMNS.slice(-5)).toEqual(["x_TenantId", "x_Source", "x_PricingId", "x_Priced", "x_UnpricedReason"]);
  });

  test("round trip: what it writes, the parser reads back as the same line (quotes, commas, newlines, exact decimals)", async () => {
    const { parsed, version } = await roundTrip([importLine]);
    expect(version).toBe("1.2");
    expect(parsed).toEqual([
      {
        charge_period_start: importLine.charge_period_start,
        charge_period_end: importLine.charge_period_end,
        billing_period_start: importLine.billing_period_start,
        billing_period_end: importLine.billing_period_end,
        charge_category: "Usage",
        charge_class: "Correction",
        provider: "AWS",
        service_name: "Amazon Elastic Compute Cloud",
        service_category: "Compute",
        region: "us-east-1",
        resource_id: importLine.resource_id,
        resource_name: 'web "blue",\nline two',
        sku_id: "SKU",
        sku_price_id: "SKU.1",
        consumed_quantity: "1",
        consumed_unit: "Hours",
        billed_cost: "0.0000001",
        effective_cost: "0.00000001",
        list_cost: "12345678901234.0123456789",
        currency: "USD",
        tags: { team: "a,b", quote: 'say "hi"', flag: true },
        sub_account_id: "222",
        billing_account_id: "111",
        priced: true,
        unpriced_reason: null,
        charge_frequency: "Usage-Based",
        pricing_category: "Committed",
        pricing_quantity: "1",
        pricing_unit: "Hours",
        contracted_cost: "0.00000009",
        contracted_unit_price: "0.00000009",
        list_unit_price: "12345678901234.0123456789",
        resource_type: "Virtual Machine",
        commitment_discount_id: "arn:aws:savingsplans::1:savingsplan/sp-1",
        commitment_discount_category: "Spend",
        commitment_discount_type: "Compute Savings Plan",
        commitment_discount_status: "Used",
        commitment_discount_quantity: "0.0000001",
        commitment_discount_unit: "USD",
        invoice_issuer: "Amazon Web Services, Inc.",
        charge_description: '=HYPERLINK("x") m5.large',
        sku_meter: "-Compute",
        billing_account_name: "SunBird, Ltd.",
        sub_account_name: "-prod",
        availability_zone: "us-east-1a",
        region_name: "US East (N. Virginia)",
        publisher_name: "Amazon Web Services, Inc.",
        invoice_id: "INV-1",
        commitment_discount_name: 'sp, "one"',
        row_id: "row-1",
      },
    ]);
  });

  test("formula-like text cells get a leading quote; numbers (negative ones too) and dates never do", async () => {
    const plain = { ...importLine, resource_name: null, tags: {}, charge_description: "=HYPERLINK(x) m5.large" };
    const { csv } = await roundTrip([{ ...plain, billed_cost: "-5", effective_cost: "-5", list_cost: "-5", contracted_cost: "-5" }]);
    const [header, row] = csv.split("\r\n");
    const cells = (parse(row) as string[][])[0];
    const at = (column: string) => cells[header.split(",").indexOf(column)];
    expect(at("ChargeDescription")).toBe("'=HYPERLINK(x) m5.large");
    expect(at("SkuMeter")).toBe("'-Compute");
    expect(at("BilledCost")).toBe("-5");
    expect(at("ContractedCost")).toBe("-5");
    expect(at("ChargePeriodStart")).toBe("2026-10-01T00:00:00Z");
  });

  test("a usage line: the organization as billing account, its calendar month as billing period, unpriced written with zero costs and x_Priced false, read back unpriced", async () => {
    const { csv, parsed } = await roundTrip([usageLine]);
    expect(parsed[0]).toMatchObject({
      billing_account_id: "org-1",
      billing_period_start: new Date("2026-10-01T00:00:00Z"),
      billing_period_end: new Date("2026-11-01T00:00:00Z"),
      provider: "cloudcost",
      billed_cost: null,
      effective_cost: null,
      priced: false,
      unpriced_reason: "no_price",
      tags: {},
    });
    const [header, row] = csv.split("\r\n");
    const cells = row.split(",");
    const at = (column: string) => cells[header.split(",").indexOf(column)];
    expect(at("x_TenantId")).toBe(usageLine.tenant_id);
    expect(at("x_Source")).toBe("usage");
    expect(at("BillingAccountName")).toBe("Org One");
    expect(at("BilledCost")).toBe("0");
    expect(at("ContractedCost")).toBe("0");
    expect(at("x_Priced")).toBe("false");
    expect(at("x_UnpricedReason")).toBe("no_price");
  });

  test("streams many lines in chunks, in order", async () => {
    const lines = Array.from({ length: 1203 }, (_, i) => ({ ...importLine, resource_name: null, billed_cost: `${i}.5` }));
    const { parsed } = await roundTrip(lines);
    expect(parsed.map((l) => l.billed_cost)).toEqual(lines.map((l) => l.billed_cost));
  });
});
