// Bill columns kept as delivered (docs/api.md, "Cloud bills: FOCUS import" and "Spend: usage,
// queries, lines, export"): every kept column goes through import, the lines endpoint, the export
// and a re-import cell by cell; a null stays null (an empty ContractedCost is never the list cost);
// amounts keep every delivered decimal place up to 20; export, import, export is byte-identical.
import { parse } from "csv-parse/sync";
import request from "supertest";
import { createTestContext, type TestContext } from "./helpers/context";
import { signUp, type SignedUp } from "./helpers/identity";

let ctx: TestContext;
let first: SignedUp;
let second: SignedUp;

beforeAll(async () => {
  ctx = await createTestContext();
  first = await signUp(ctx, { company: "As delivered" });
  second = await signUp(ctx, { company: "Delivered again" });
  for (const o of [first, second]) {
    await request(ctx.app)
      .put(`/api/v1/organizations/${o.organization.id}/spend/allocation-rules`)
      .set("Authorization", `Bearer ${o.token}`)
      .send({ rules: [{ tenant_id: o.tenant.id }] })
      .expect(200);
  }
}, 60_000);
afterAll(async () => {
  await ctx?.close();
});

const RANGE = "start=2024-09-01&end=2024-11-01";
const upload = (o: SignedUp, body: string) =>
  request(ctx.app)
    .post(`/api/v1/organizations/${o.organization.id}/spend/imports`)
    .set("Authorization", `Bearer ${o.token}`)
    .set("Content-Type", "text/csv")
    .send(body);
const tenantGet = (o: SignedUp, path: string) => request(ctx.app).get(path).set("Authorization", `Bearer ${o.token}`).set("X-Service-Tenant-ID", o.tenant.id);

async function lines(o: SignedUp): Promise<Record<string, unknown>[]> {
  const res = await tenantGet(o, `/api/v1/tenant/spend/lines?${RANGE}&limit=500`).expect(200);
  return res.body.data.items;
}

async function exportText(o: SignedUp): Promise<string> {
  const res = await tenantGet(o, `/api/v1/tenant/spend/export?${RANGE}`)
    .buffer(true)
    .parse((response, done) => {
      let body = "";
      response.on("data", (chunk: Buffer) => {
        body += chunk.toString("utf8");
      });
      response.on("end", () => done(null, body));
    })
    .expect(200);
  return res.body as string;
}

/** Each kept FOCUS column and the line field that holds it. */
const KEPT: Record<string, string> = {
  AvailabilityZone: "availability_zone",
  BilledCost: "billed_cost",
  BillingAccountId: "billing_account_id",
  BillingAccountName: "billing_account_name",
  BillingCurrency: "currency",
  ChargeCategory: "charge_category",
  ChargeClass: "charge_class",
  ChargeDescription: "charge_description",
  ChargeFrequency: "charge_frequency",
  CommitmentDiscountCategory: "commitment_discount_category",
  CommitmentDiscountId: "commitment_discount_id",
  CommitmentDiscountName: "commitment_discount_name",
  CommitmentDiscountQuantity: "commitment_discount_quantity",
  CommitmentDiscountStatus: "commitment_discount_status",
  CommitmentDiscountType: "commitment_discount_type",
  CommitmentDiscountUnit: "commitment_discount_unit",
  ConsumedQuantity: "consumed_quantity",
  ConsumedUnit: "consumed_unit",
  ContractedCost: "contracted_cost",
  ContractedUnitPrice: "contracted_unit_price",
  EffectiveCost: "effective_cost",
  Id: "row_id",
  InvoiceId: "invoice_id",
  InvoiceIssuerName: "invoice_issuer",
  ListCost: "list_cost",
  ListUnitPrice: "list_unit_price",
  PricingCategory: "pricing_category",
  PricingQuantity: "pricing_quantity",
  PricingUnit: "pricing_unit",
  ProviderName: "provider",
  PublisherName: "publisher_name",
  RegionId: "region",
  RegionName: "region_name",
  ResourceId: "resource_id",
  ResourceName: "resource_name",
  ResourceType: "resource_type",
  ServiceCategory: "service_category",
  ServiceName: "service_name",
  SkuId: "sku_id",
  SkuMeter: "sku_meter",
  SkuPriceId: "sku_price_id",
  SubAccountId: "sub_account_id",
  SubAccountName: "sub_account_name",
};
const TIMES: Record<string, string> = {
  BillingPeriodStart: "billing_period_start",
  BillingPeriodEnd: "billing_period_end",
  ChargePeriodStart: "charge_period_start",
  ChargePeriodEnd: "charge_period_end",
};
const COLUMNS = [...Object.keys(KEPT), ...Object.keys(TIMES), "Tags"];

const aws = {
  BillingAccountId: "123456789012",
  BillingAccountName: "SunBird",
  BillingCurrency: "USD",
  BillingPeriodStart: "2024-09-01T00:00:00Z",
  BillingPeriodEnd: "2024-10-01T00:00:00Z",
  ProviderName: "AWS",
  InvoiceIssuerName: "Amazon Web Services EMEA SARL",
  InvoiceId: "EUINGB24-0917",
  SubAccountId: "210987654321",
  SubAccountName: "sunbird-prod",
};
/** Rows as the providers write them, in the export's own canonical form (so each cell can be compared as text). */
const ROWS: Record<string, string>[] = [
  {
    ...aws,
    PublisherName: "Amazon Web Services, Inc.",
    AvailabilityZone: "eu-west-1a",
    RegionId: "eu-west-1",
    RegionName: "Europe (Ireland)",
    ChargePeriodStart: "2024-09-03T10:00:00Z",
    ChargePeriodEnd: "2024-09-03T11:00:00Z",
    ChargeCategory: "Usage",
    ChargeFrequency: "Usage-Based",
    ChargeDescription: "m5.large covered by a Savings Plan",
    PricingCategory: "Committed",
    ServiceName: "Amazon Elastic Compute Cloud",
    ServiceCategory: "Compute",
    ResourceId: "i-0abc",
    ResourceName: "web-1",
    ResourceType: "Virtual Machine",
    SkuId: "JRTCKXETXF",
    SkuPriceId: "JRTCKXETXF.6YS6EN2CT7",
    SkuMeter: "BoxUsage:m5.large",
    ConsumedQuantity: "1",
    ConsumedUnit: "Hours",
    PricingQuantity: "1",
    PricingUnit: "Hours",
    ListUnitPrice: "0.107",
    ContractedUnitPrice: "0.107",
    ListCost: "0.107",
    ContractedCost: "0.107",
    // 20 decimal places, and one with 11.
    BilledCost: "0.07490000000000000001",
    EffectiveCost: "0.07490000001",
    CommitmentDiscountId: "arn:aws:savingsplans::123456789012:savingsplan/sp-1",
    CommitmentDiscountName: "compute-sp-2024",
    CommitmentDiscountCategory: "Spend",
    CommitmentDiscountType: "Compute Savings Plan",
    CommitmentDiscountStatus: "Used",
    CommitmentDiscountQuantity: "0.0749",
    CommitmentDiscountUnit: "USD",
    Id: "aws-row-0001",
    Tags: JSON.stringify({ team: "search" }),
  },
  {
    ...aws,
    PublisherName: "Amazon Web Services Canada, Inc.",
    RegionId: "ca-central-1",
    RegionName: "Canada (Central)",
    ChargePeriodStart: "2024-09-04T00:00:00Z",
    ChargePeriodEnd: "2024-09-05T00:00:00Z",
    ChargeCategory: "Tax",
    ChargeFrequency: "Usage-Based",
    ServiceName: "Amazon Simple Storage Service",
    ServiceCategory: "Storage",
    ListCost: "0.5",
    ContractedCost: "0.5",
    BilledCost: "0.5",
    EffectiveCost: "0.5",
  },
  {
    BillingAccountId: "ocid1.tenancy.oc1..aaaa",
    BillingAccountName: "sunbird-oci",
    BillingCurrency: "USD",
    BillingPeriodStart: "2024-10-01T00:00:00Z",
    BillingPeriodEnd: "2024-11-01T00:00:00Z",
    ProviderName: "Oracle",
    PublisherName: "Oracle",
    InvoiceIssuerName: "Oracle",
    SubAccountId: "ocid1.compartment.oc1..bbbb",
    SubAccountName: "sunbird-compartment",
    // Oracle writes a region name and no region id; charged in September, billed in October.
    RegionName: "us-ashburn-1",
    AvailabilityZone: "US-ASHBURN-AD-1",
    ChargePeriodStart: "2024-09-30T23:00:00Z",
    ChargePeriodEnd: "2024-10-01T00:00:00Z",
    ChargeCategory: "Usage",
    ChargeFrequency: "Usage-Based",
    PricingCategory: "Standard",
    ServiceName: "COMPUTE",
    ServiceCategory: "Compute",
    ResourceId: "ocid1.instance.oc1.iad.cccc",
    SkuId: "B93113",
    ConsumedQuantity: "2.5",
    ConsumedUnit: "OCPU Hours",
    PricingQuantity: "2.5",
    PricingUnit: "OCPU Hours",
    ListUnitPrice: "0.025",
    ListCost: "0.0625",
    // Oracle leaves ContractedCost empty.
    BilledCost: "0.0625",
    EffectiveCost: "0.0625",
    Id: "oci-row-7",
  },
];

const quote = (v: string) => (/[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
const FILE = `${[COLUMNS.join(","), ...ROWS.map((row) => COLUMNS.map((c) => quote(row[c] ?? "")).join(","))].join("\r\n")}\r\n`;

/** A line's FOCUS cell as the file would write it ('' for null). */
function cellOf(line: Record<string, unknown>, column: string): string {
  if (column in TIMES) {
    const value = line[TIMES[column]] as string | null;
    return value === null ? "" : value.replace(".000Z", "Z");
  }
  if (column === "Tags") return Object.keys(line.tags as object).length ? JSON.stringify(line.tags) : "";
  const value = line[KEPT[column]];
  return value === null || value === undefined ? "" : String(value);
}

const byStart = (a: Record<string, unknown>, b: Record<string, unknown>) =>
  String(a.charge_period_start) < String(b.charge_period_start) ? -1 : String(a.charge_period_start) > String(b.charge_period_start) ? 1 : 0;

describe("every kept column, as delivered", () => {
  let exported: string;

  test("import: the lines endpoint holds every cell of the file (nulls null, 20 decimal places, no region id from a region name)", async () => {
    const res = await upload(first, FILE);
    expect(res.status).toBe(201);
    const stored = (await lines(first)).sort(byStart);
    expect(stored).toHaveLength(ROWS.length);
    const ordered = [...ROWS].sort((a, b) => (a.ChargePeriodStart < b.ChargePeriodStart ? -1 : 1));
    const mismatches: string[] = [];
    stored.forEach((line, i) => {
      for (const column of COLUMNS) {
        const expected = ordered[i][column] ?? "";
        if (cellOf(line, column) !== expected) mismatches.push(`row ${i + 1} ${column}: stored "${cellOf(line, column)}", file "${expected}"`);
      }
    });
    expect(mismatches).toEqual([]);
    const oracle = stored.find((line) => line.provider === "Oracle") as Record<string, unknown>;
    expect(oracle.region).toBeNull();
    expect(oracle.contracted_cost).toBeNull();
    expect(stored.find((line) => line.row_id === "aws-row-0001")?.billed_cost).toBe("0.07490000000000000001");
  });

  test("export: every kept column's cell is the file's cell", async () => {
    exported = await exportText(first);
    const [header, ...rows] = parse(exported) as string[][];
    expect(rows).toHaveLength(ROWS.length);
    const mismatches: string[] = [];
    for (const cells of rows) {
      const id = cells[header.indexOf("ChargePeriodStart")];
      const original = ROWS.find((row) => row.ChargePeriodStart === id) as Record<string, string>;
      for (const column of COLUMNS) {
        if (!header.includes(column)) {
          mismatches.push(`${column} not exported`);
          continue;
        }
        const expected = original[column] ?? "";
        const got = cells[header.indexOf(column)];
        if (got !== expected) mismatches.push(`${id} ${column}: exported "${got}", file "${expected}"`);
      }
    }
    expect([...new Set(mismatches)]).toEqual([]);
  });

  test("re-import of the export: the same value in every column as the first import", async () => {
    expect((await upload(second, exported)).status).toBe(201);
    const project = (line: Record<string, unknown>) => Object.fromEntries(COLUMNS.map((column) => [column, cellOf(line, column)]));
    const a = (await lines(first)).sort(byStart).map(project);
    const b = (await lines(second)).sort(byStart).map(project);
    expect(b).toEqual(a);
  });

  test("export, import, export is byte-identical", async () => {
    // The export imported again into the same organization replaces the first import (same accounts and periods).
    expect((await upload(first, exported)).status).toBe(201);
    expect(await exportText(first)).toBe(exported);
  });
});
