// Conformance with the providers' own FOCUS layouts (docs/api.md, "Cloud bills: FOCUS import"):
// a small file in each provider's published layout (test/fixtures/focus/providers, see its
// README) imports, every column the ledger keeps holds the file's value (in the specification's
// spelling), our export carries it back out, the export imports to the same values, and export,
// import, export is byte-identical.
import { Decimal } from "@cloudcost/decimal";
import { parse } from "csv-parse/sync";
import request from "supertest";
import { createTestContext, type TestContext } from "./helpers/context";
import { fixture } from "./helpers/focus-files";
import { signUp, type SignedUp } from "./helpers/identity";

let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestContext();
}, 60_000);
afterAll(async () => {
  await ctx?.close();
});

const FILES = [
  "aws-data-exports-focus-1.0.csv",
  "aws-data-exports-focus-1.2.csv",
  "azure-cost-details-focus-1.0.csv",
  "azure-cost-details-focus-1.2.csv",
  "google-cloud-focus-view.csv",
  "oracle-focus-report.csv",
];

/** Each FOCUS column the ledger keeps, the line field holding it, and how its cell is read. */
type Kind = "text" | "decimal" | "time" | "enum";
const KEPT: Record<string, [string, Kind]> = {
  AvailabilityZone: ["availability_zone", "text"],
  BilledCost: ["billed_cost", "decimal"],
  BillingAccountId: ["billing_account_id", "text"],
  BillingAccountName: ["billing_account_name", "text"],
  BillingCurrency: ["currency", "text"],
  BillingPeriodEnd: ["billing_period_end", "time"],
  BillingPeriodStart: ["billing_period_start", "time"],
  ChargeCategory: ["charge_category", "enum"],
  ChargeClass: ["charge_class", "enum"],
  ChargeDescription: ["charge_description", "text"],
  ChargeFrequency: ["charge_frequency", "enum"],
  ChargePeriodEnd: ["charge_period_end", "time"],
  ChargePeriodStart: ["charge_period_start", "time"],
  CommitmentDiscountCategory: ["commitment_discount_category", "enum"],
  CommitmentDiscountId: ["commitment_discount_id", "text"],
  CommitmentDiscountName: ["commitment_discount_name", "text"],
  CommitmentDiscountQuantity: ["commitment_discount_quantity", "decimal"],
  CommitmentDiscountStatus: ["commitment_discount_status", "enum"],
  CommitmentDiscountType: ["commitment_discount_type", "text"],
  CommitmentDiscountUnit: ["commitment_discount_unit", "text"],
  ConsumedQuantity: ["consumed_quantity", "decimal"],
  ConsumedUnit: ["consumed_unit", "text"],
  ContractedCost: ["contracted_cost", "decimal"],
  ContractedUnitPrice: ["contracted_unit_price", "decimal"],
  EffectiveCost: ["effective_cost", "decimal"],
  Id: ["row_id", "text"],
  InvoiceId: ["invoice_id", "text"],
  InvoiceIssuerName: ["invoice_issuer", "text"],
  ListCost: ["list_cost", "decimal"],
  ListUnitPrice: ["list_unit_price", "decimal"],
  PricingCategory: ["pricing_category", "enum"],
  PricingQuantity: ["pricing_quantity", "decimal"],
  PricingUnit: ["pricing_unit", "text"],
  ProviderName: ["provider", "text"],
  PublisherName: ["publisher_name", "text"],
  RegionId: ["region", "text"],
  RegionName: ["region_name", "text"],
  ResourceId: ["resource_id", "text"],
  ResourceName: ["resource_name", "text"],
  ResourceType: ["resource_type", "text"],
  ServiceCategory: ["service_category", "enum"],
  ServiceName: ["service_name", "text"],
  SkuId: ["sku_id", "text"],
  SkuMeter: ["sku_meter", "text"],
  SkuPriceId: ["sku_price_id", "text"],
  SubAccountId: ["sub_account_id", "text"],
  SubAccountName: ["sub_account_name", "text"],
};

/** The specification's spelling of each allowed value the fixtures use, by its lower-case form. */
const SPELLING: Record<string, string> = Object.fromEntries(
  [
    "Usage",
    "Purchase",
    "Tax",
    "Credit",
    "Adjustment",
    "Correction",
    "Usage-Based",
    "One-Time",
    "Recurring",
    "Standard",
    "Committed",
    "Dynamic",
    "Spend",
    "Used",
    "Unused",
  ]
    .concat(["Compute", "Storage", "Developer Tools", "Databases", "Networking"])
    .map((value) => [value.toLowerCase(), value]),
);

const isNull = (cell: string | undefined) => cell === undefined || cell.trim() === "" || cell.trim().toUpperCase() === "NULL";

/** A file's cell as the ledger should hold it (null for null). */
function expected(cell: string | undefined, kind: Kind): string | null {
  if (isNull(cell)) return null;
  const value = (cell as string).trim();
  if (kind === "decimal") return new Decimal(value).toFixed();
  if (kind === "enum") return SPELLING[value.toLowerCase()] ?? `unknown spelling ${value}`;
  if (kind === "time") {
    const iso = value.replace(" UTC", "Z").replace(" ", "T");
    return new Date(/Z$|[+-]\d\d:?\d\d$/.test(iso) ? iso : `${iso}Z`).toISOString();
  }
  return value;
}

/** A stored line's value of a column, in the same form. */
function stored(line: Record<string, unknown>, field: string, kind: Kind): string | null {
  const value = line[field] as string | null;
  if (value === null || value === undefined) return null;
  return kind === "decimal" ? new Decimal(value).toFixed() : value;
}

async function organization(name: string): Promise<SignedUp> {
  const o = await signUp(ctx, { company: name });
  await request(ctx.app)
    .put(`/api/v1/organizations/${o.organization.id}/spend/allocation-rules`)
    .set("Authorization", `Bearer ${o.token}`)
    .send({ rules: [{ tenant_id: o.tenant.id }] })
    .expect(200);
  return o;
}
const upload = (o: SignedUp, body: string | Buffer) =>
  request(ctx.app)
    .post(`/api/v1/organizations/${o.organization.id}/spend/imports`)
    .set("Authorization", `Bearer ${o.token}`)
    .set("Content-Type", "text/csv")
    .send(body);
const RANGE = "start=2024-08-01&end=2024-12-01";
const tenantGet = (o: SignedUp, path: string) => request(ctx.app).get(path).set("Authorization", `Bearer ${o.token}`).set("X-Service-Tenant-ID", o.tenant.id);
const lines = async (o: SignedUp): Promise<Record<string, unknown>[]> =>
  (await tenantGet(o, `/api/v1/tenant/spend/lines?${RANGE}&limit=500`).expect(200)).body.data.items;
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

/** Every kept column (and the tags) of a line, as text. */
const projection = (line: Record<string, unknown>) => ({
  ...Object.fromEntries(Object.entries(KEPT).map(([column, [field, kind]]) => [column, stored(line, field, kind)])),
  Tags: line.tags,
});

/** JSON of a value with object keys sorted (tags come back in the database's key order). */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v) =>
    v && typeof v === "object" && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1))) : v,
  );
}

/** What a line holds for a kept column the file does not have: ChargeFrequency derived (every fixture has it), the rest null. */
function absent(column: string, _row: string[]): string | null {
  if (column === "ChargeFrequency") throw new Error("every fixture carries ChargeFrequency");
  return null;
}

describe.each(FILES)("%s", (file) => {
  let first: SignedUp;
  let exported: string;
  const [header, ...rows] = parse(fixture(`providers/${file}`), { bom: true, relax_column_count: false }) as string[][];
  const at = (row: string[], column: string) => (header.includes(column) ? row[header.indexOf(column)] : undefined);

  beforeAll(async () => {
    first = await organization(`Conformance ${file}`);
  });

  test("imports, and every kept column of every row holds the file's value", async () => {
    const res = await upload(first, fixture(`providers/${file}`));
    expect(res.status).toBe(201);
    expect(res.body.data.import.rows).toBe(rows.length);
    // Each row as the ledger should hold it, in the form projection() gives a line; compared as sorted lists (line order is not file order).
    const fromFile = rows.map((row) => {
      const tags = at(row, "Tags");
      return canonical({
        ...Object.fromEntries(
          Object.entries(KEPT).map(([column, [, kind]]) => [column, header.includes(column) ? expected(at(row, column), kind) : absent(column, row)]),
        ),
        Tags: isNull(tags) ? {} : JSON.parse(tags as string),
      });
    });
    const got = (await lines(first)).map((line) => canonical(projection(line)));
    expect(got.sort()).toEqual(fromFile.sort());
  });

  test("the export carries every kept column of the file; imported again, every column holds the same value", async () => {
    exported = await exportText(first);
    const exportHeader = (parse(exported) as string[][])[0];
    expect(Object.keys(KEPT).filter((column) => header.includes(column) && !exportHeader.includes(column))).toEqual([]);
    const again = await organization(`Conformance again ${file}`);
    expect((await upload(again, exported)).status).toBe(201);
    const project = async (o: SignedUp) => (await lines(o)).map((line) => canonical(projection(line))).sort();
    expect(await project(again)).toEqual(await project(first));
  });

  test("export, import, export is byte-identical", async () => {
    expect((await upload(first, exported)).status).toBe(201);
    expect(await exportText(first)).toBe(exported);
  });
});
