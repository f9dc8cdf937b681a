// The FOCUS columns a FinOps team needs (docs/api.md, "Cloud bills: FOCUS import" and "Spend:
// usage, queries, lines, export"): stored, returned by the lines endpoint, usable as a metric and
// as filters, derived when a FOCUS 1.0 file has no ChargeFrequency, and exported so that our
// export imported again reproduces every stored column; unpriced usage left out of the export
// unless asked for; group_by=model by the price entry's model id.
import { parse } from "csv-parse/sync";
import request from "supertest";
import { REQUIRED_COLUMNS } from "../src/spend/focus/columns";
import { createTestContext, TEST_SERVICE_TOKEN_SECRET, type TestContext } from "./helpers/context";
import { focusCsvText } from "./helpers/focus-files";
import { signUp, type SignedUp } from "./helpers/identity";
import { startPricingApi, type RunningPricingApi } from "./helpers/pricing-api";
import { modelUsage, registerModelPrices } from "./helpers/spend";

let pricing: RunningPricingApi;
let ctx: TestContext;
let org: SignedUp;
let other: SignedUp;

beforeAll(async () => {
  pricing = await startPricingApi(TEST_SERVICE_TOKEN_SECRET);
  ctx = await createTestContext({ PRICING_API_URL: pricing.url, PRICING_API_TIMEOUT_MS: "30000" });
  org = await signUp(ctx, { company: "Columns" });
  other = await signUp(ctx, { company: "Round trip" });
  for (const o of [org, other]) {
    await request(ctx.app)
      .put(`/api/v1/organizations/${o.organization.id}/spend/allocation-rules`)
      .set("Authorization", `Bearer ${o.token}`)
      .send({ rules: [{ tenant_id: o.tenant.id }] })
      .expect(200);
  }
}, 60_000);
afterAll(async () => {
  await ctx?.close();
  await pricing?.close();
});

const RANGE = "start=2026-10-01&end=2026-11-01";
const upload = (o: SignedUp, body: string) =>
  request(ctx.app)
    .post(`/api/v1/organizations/${o.organization.id}/spend/imports`)
    .set("Authorization", `Bearer ${o.token}`)
    .set("Content-Type", "text/csv")
    .send(body);
const tenantGet = (o: SignedUp, path: string) => request(ctx.app).get(path).set("Authorization", `Bearer ${o.token}`).set("X-Service-Tenant-ID", o.tenant.id);

async function allLines(o: SignedUp, query = RANGE): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let cursor: string | null = null;
  do {
    const res = await tenantGet(o, `/api/v1/tenant/spend/lines?${query}&limit=500${cursor ? `&cursor=${cursor}` : ""}`).expect(200);
    items.push(...res.body.data.items);
    cursor = res.body.data.next_cursor;
  } while (cursor);
  return items;
}

const COMMITMENT = "arn:aws:savingsplans::111122223333:savingsplan/sp-0a1b";
const MONTH = { BillingPeriodStart: "2026-10-01T00:00:00Z", BillingPeriodEnd: "2026-11-01T00:00:00Z" };
const WHOLE_MONTH = { ChargePeriodStart: "2026-10-01T00:00:00Z", ChargePeriodEnd: "2026-11-01T00:00:00Z" };
const hour = (h: number) => ({
  ChargePeriodStart: `2026-10-05T${String(h).padStart(2, "0")}:00:00Z`,
  ChargePeriodEnd: `2026-10-05T${String(h + 1).padStart(2, "0")}:00:00Z`,
});
const EXTRA = [
  "ChargeFrequency",
  "PricingCategory",
  "ContractedUnitPrice",
  "ListUnitPrice",
  "ResourceId",
  "ResourceType",
  "RegionId",
  "SubAccountId",
  "ConsumedQuantity",
  "ConsumedUnit",
  "CommitmentDiscountId",
  "CommitmentDiscountCategory",
  "CommitmentDiscountType",
  "CommitmentDiscountStatus",
  "CommitmentDiscountQuantity",
  "CommitmentDiscountUnit",
  "SkuMeter",
  "Tags",
];
const aws = {
  ...MONTH,
  BillingAccountId: "acct-columns",
  BillingAccountName: "Payer",
  InvoiceIssuerName: "Amazon Web Services, Inc.",
  ProviderName: "AWS",
  PublisherName: "AWS",
  RegionId: "us-east-1",
  SubAccountId: "111122223333",
};

/** A month of an AWS-like bill: Savings Plan covered usage, an unused commitment hour, the plan's fee, a support fee, a credit and tax. */
const BILL_ROWS: Record<string, string>[] = [
  {
    ...aws,
    ...hour(10),
    ChargeCategory: "Usage",
    ChargeFrequency: "Usage-Based",
    ChargeDescription: "=cmd|' /C calc'!A0 m5.large covered by a Savings Plan",
    PricingCategory: "Committed",
    ServiceName: "Amazon Elastic Compute Cloud",
    ServiceCategory: "Compute",
    ResourceId: "i-0abc",
    ResourceType: "Virtual Machine",
    ConsumedQuantity: "1",
    ConsumedUnit: "Hours",
    PricingQuantity: "1",
    PricingUnit: "Hours",
    ListUnitPrice: "0.096",
    ContractedUnitPrice: "0.09",
    ListCost: "0.096",
    ContractedCost: "0.09",
    BilledCost: "0",
    EffectiveCost: "0.0672",
    CommitmentDiscountId: COMMITMENT,
    CommitmentDiscountCategory: "Spend",
    CommitmentDiscountType: "Compute Savings Plan",
    CommitmentDiscountStatus: "Used",
    CommitmentDiscountQuantity: "0.0672",
    CommitmentDiscountUnit: "USD",
    SkuMeter: "-BoxUsage:m5.large",
    Tags: JSON.stringify({ team: "=web", env: "prod" }),
  },
  {
    ...aws,
    ...hour(11),
    ChargeCategory: "Usage",
    ChargeFrequency: "Usage-Based",
    ChargeDescription: "Unused Savings Plan commitment",
    PricingCategory: "Committed",
    ServiceName: "Savings Plans for AWS Compute usage",
    ServiceCategory: "Compute",
    PricingQuantity: "0.0328",
    PricingUnit: "USD",
    ListCost: "0",
    ContractedCost: "0",
    BilledCost: "0",
    EffectiveCost: "0.0328",
    CommitmentDiscountId: COMMITMENT,
    CommitmentDiscountCategory: "Spend",
    CommitmentDiscountType: "Compute Savings Plan",
    CommitmentDiscountStatus: "Unused",
    CommitmentDiscountQuantity: "0.0328",
    CommitmentDiscountUnit: "USD",
  },
  {
    ...aws,
    ...WHOLE_MONTH,
    ChargeCategory: "Purchase",
    ChargeFrequency: "Recurring",
    ChargeDescription: "Savings Plan monthly fee",
    PricingCategory: "Committed",
    ServiceName: "Savings Plans for AWS Compute usage",
    ServiceCategory: "Compute",
    PricingQuantity: "744",
    PricingUnit: "Hours",
    ListCost: "74.4",
    ContractedCost: "74.4",
    BilledCost: "74.4",
    EffectiveCost: "0",
    CommitmentDiscountId: COMMITMENT,
    CommitmentDiscountCategory: "Spend",
    CommitmentDiscountType: "Compute Savings Plan",
  },
  {
    ...aws,
    ...WHOLE_MONTH,
    ChargeCategory: "Purchase",
    ChargeFrequency: "Recurring",
    ChargeDescription: "AWS Support (Business)",
    PricingCategory: "Standard",
    ServiceName: "AWS Support (Business)",
    ServiceCategory: "Management and Governance",
    PricingQuantity: "1",
    PricingUnit: "Month",
    ListCost: "100",
    ContractedCost: "100",
    BilledCost: "100",
    EffectiveCost: "100",
  },
  {
    ...aws,
    ...hour(12),
    ChargeCategory: "Credit",
    ChargeFrequency: "One-Time",
    ChargeDescription: "-5 USD promotional credit",
    ServiceName: "Amazon Elastic Compute Cloud",
    ServiceCategory: "Compute",
    PricingQuantity: "",
    PricingUnit: "",
    ListCost: "-5",
    ContractedCost: "-5",
    BilledCost: "-5",
    EffectiveCost: "-5",
  },
  {
    ...aws,
    ...WHOLE_MONTH,
    ChargeCategory: "Tax",
    ChargeFrequency: "Recurring",
    ChargeDescription: "Tax",
    ServiceName: "Tax",
    ServiceCategory: "Other",
    PricingQuantity: "",
    PricingUnit: "",
    ListCost: "0",
    ContractedCost: "16.9",
    BilledCost: "16.9",
    EffectiveCost: "16.9",
  },
];

/** The stored columns a FOCUS file carries: what a round trip must reproduce (ids, tenant, import and timestamps are the store's own). */
const projection = (line: Record<string, unknown>) => {
  const { id: _id, import_id: _import, tenant_id: _tenant, created_at: _created, ...rest } = line;
  return rest;
};
const byContent = (a: Record<string, unknown>, b: Record<string, unknown>) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1);

/** Rules of the FOCUS 1.2 specification a validator checks on a file, as far as they can be checked without the cloud. */
function focusViolations(csv: string): string[] {
  const [header, ...rows] = parse(csv) as string[][];
  const problems: string[] = [];
  for (const column of REQUIRED_COLUMNS["1.2"]) if (!header.includes(column)) problems.push(`missing column ${column}`);
  const DECIMAL = /^-?\d+(\.\d+)?$/;
  const TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;
  const oneOf = (value: string, allowed: string[]) => allowed.includes(value);
  rows.forEach((cells, i) => {
    const at = (column: string) => cells[header.indexOf(column)] ?? "";
    const fail = (rule: string) => problems.push(`row ${i + 1}: ${rule}`);
    for (const cost of ["BilledCost", "EffectiveCost", "ListCost", "ContractedCost"])
      if (!DECIMAL.test(at(cost))) fail(`${cost} "${at(cost)}" is not a decimal`);
    for (const column of ["BillingAccountId", "BillingAccountName", "InvoiceIssuerName", "ProviderName", "PublisherName", "ServiceCategory", "ServiceName"])
      if (at(column) === "") fail(`${column} is null`);
    for (const column of ["ChargePeriodStart", "ChargePeriodEnd", "BillingPeriodStart", "BillingPeriodEnd"])
      if (!TIME.test(at(column))) fail(`${column} is not UTC RFC 3339`);
    if (at("ChargePeriodEnd") < at("ChargePeriodStart")) fail("ChargePeriodEnd before ChargePeriodStart");
    if (!oneOf(at("ChargeCategory"), ["Usage", "Purchase", "Tax", "Credit", "Adjustment"])) fail("ChargeCategory");
    if (!oneOf(at("ChargeClass"), ["", "Correction"])) fail("ChargeClass");
    if (!oneOf(at("ChargeFrequency"), ["One-Time", "Recurring", "Usage-Based"])) fail("ChargeFrequency");
    if (!oneOf(at("PricingCategory"), ["", "Standard", "Dynamic", "Committed", "Other"])) fail("PricingCategory");
    if (!oneOf(at("CommitmentDiscountCategory"), ["", "Spend", "Usage"])) fail("CommitmentDiscountCategory");
    if (!oneOf(at("CommitmentDiscountStatus"), ["", "Used", "Unused"])) fail("CommitmentDiscountStatus");
    if (at("CommitmentDiscountId") !== "" && at("ChargeCategory") === "Usage" && at("CommitmentDiscountStatus") === "")
      fail("CommitmentDiscountStatus is null on commitment usage");
    if (!/^[A-Z]{3}$/.test(at("BillingCurrency"))) fail("BillingCurrency");
    const pricingRequired = oneOf(at("ChargeCategory"), ["Usage", "Purchase"]) && at("ChargeClass") !== "Correction";
    if (pricingRequired && (at("PricingQuantity") === "" || at("PricingUnit") === "")) fail("PricingQuantity/PricingUnit null on usage or a purchase");
    if (at("ChargeCategory") === "Tax" && at("PricingQuantity") !== "") fail("PricingQuantity on tax");
    for (const column of header) {
      const value = at(column);
      if (
        /^[=+\-@\t\r]/.test(value) &&
        !["BilledCost", "EffectiveCost", "ListCost", "ContractedCost", "PricingQuantity", "CommitmentDiscountQuantity"].includes(column)
      )
        fail(`${column} "${value}" would run as a spreadsheet formula`);
    }
  });
  return problems;
}

describe("FOCUS columns kept", () => {
  let exported: string;

  beforeAll(async () => {
    const res = await upload(org, focusCsvText(BILL_ROWS, EXTRA));
    expect(res.status).toBe(201);
  });

  test("the lines endpoint returns every new column as the file had it", async () => {
    const lines = await allLines(org);
    expect(lines).toHaveLength(BILL_ROWS.length);
    const covered = lines.find((line) => line.resource_id === "i-0abc");
    expect(covered).toMatchObject({
      charge_frequency: "Usage-Based",
      pricing_category: "Committed",
      pricing_quantity: "1",
      pricing_unit: "Hours",
      contracted_cost: "0.09",
      contracted_unit_price: "0.09",
      list_unit_price: "0.096",
      resource_type: "Virtual Machine",
      commitment_discount_id: COMMITMENT,
      commitment_discount_category: "Spend",
      commitment_discount_type: "Compute Savings Plan",
      commitment_discount_status: "Used",
      commitment_discount_quantity: "0.0672",
      commitment_discount_unit: "USD",
      billing_period_start: "2026-10-01T00:00:00.000Z",
      billing_period_end: "2026-11-01T00:00:00.000Z",
      invoice_issuer: "Amazon Web Services, Inc.",
      charge_description: "=cmd|' /C calc'!A0 m5.large covered by a Savings Plan",
      sku_meter: "-BoxUsage:m5.large",
      tags: { team: "=web", env: "prod" },
    });
    const tax = lines.find((line) => line.charge_category === "Tax");
    expect(tax).toMatchObject({
      charge_frequency: "Recurring",
      pricing_category: null,
      pricing_quantity: null,
      resource_type: null,
      commitment_discount_id: null,
    });
  });

  test("metric=contracted_cost sums the negotiated cost; charge_frequency, pricing_category and commitment_discount_id filter", async () => {
    const spend = (query: string) => tenantGet(org, `/api/v1/tenant/spend?${RANGE}&granularity=none&${query}`).expect(200);
    expect((await spend("metric=contracted_cost")).body.data.totals).toEqual([{ currency: "USD", cost: "186.39" }]);
    expect((await spend("metric=list_cost")).body.data.totals).toEqual([{ currency: "USD", cost: "169.496" }]);
    expect((await spend("charge_frequency=Recurring")).body.data.totals).toEqual([{ currency: "USD", cost: "191.3" }]);
    expect((await spend("pricing_category=Committed&metric=effective_cost")).body.data.totals).toEqual([{ currency: "USD", cost: "0.1" }]);
    const byCommitment = await spend(`commitment_discount_id=${encodeURIComponent(COMMITMENT)}&metric=effective_cost&group_by=charge_category`);
    expect(byCommitment.body.data.rows.map((row: { group: unknown; cost: string }) => [row.group, row.cost])).toEqual([
      [{ charge_category: "Usage" }, "0.1"],
      [{ charge_category: "Purchase" }, "0"],
    ]);
    const byFrequency = await spend("group_by=charge_frequency");
    expect(byFrequency.body.data.rows.map((row: { group: unknown; cost: string }) => [row.group, row.cost])).toEqual([
      [{ charge_frequency: "Recurring" }, "191.3"],
      [{ charge_frequency: "Usage-Based" }, "0"],
      [{ charge_frequency: "One-Time" }, "-5"],
    ]);
  });

  test("the export passes the FOCUS rules a validator checks offline, and escapes formulas in text columns only", async () => {
    const res = await request(ctx.app)
      .get(`/api/v1/organizations/${org.organization.id}/spend/export?${RANGE}`)
      .set("Authorization", `Bearer ${org.token}`)
      .buffer(true)
      .parse((response, done) => {
        let body = "";
        response.on("data", (chunk: Buffer) => {
          body += chunk.toString("utf8");
        });
        response.on("end", () => done(null, body));
      })
      .expect(200);
    exported = res.body as string;
    expect(res.headers["x-unpriced-lines"]).toBe("0");
    expect(focusViolations(exported)).toEqual([]);
    const [header, ...rows] = parse(exported) as string[][];
    const credit = rows.find((cells) => cells[header.indexOf("ChargeCategory")] === "Credit") as string[];
    expect(credit[header.indexOf("BilledCost")]).toBe("-5");
    expect(credit[header.indexOf("ChargeDescription")]).toBe("'-5 USD promotional credit");
  });

  test("our export imported again reproduces every stored column of every line", async () => {
    const res = await upload(other, exported);
    expect(res.status).toBe(201);
    const original = (await allLines(org)).map(projection).sort(byContent);
    const again = (await allLines(other)).map(projection).sort(byContent);
    expect(again).toEqual(original);
  });
});

describe("a FOCUS 1.0 file without ChargeFrequency", () => {
  test("Purchase lines are One-Time (first), lines over 24 hours Recurring, the rest Usage-Based", async () => {
    const o = await signUp(ctx, { company: "Derived" });
    await request(ctx.app)
      .put(`/api/v1/organizations/${o.organization.id}/spend/allocation-rules`)
      .set("Authorization", `Bearer ${o.token}`)
      .send({ rules: [{ tenant_id: o.tenant.id }] })
      .expect(200);
    const rows = [
      { ChargeCategory: "Purchase", ...WHOLE_MONTH, ChargeDescription: "purchase over the month" },
      { ChargeCategory: "Purchase", ...hour(1), ChargeDescription: "purchase of an hour" },
      { ChargeCategory: "Usage", ...WHOLE_MONTH, ChargeDescription: "fee over the month" },
      { ChargeCategory: "Usage", ChargePeriodStart: "2026-10-03T00:00:00Z", ChargePeriodEnd: "2026-10-04T00:00:00Z", ChargeDescription: "a day exactly" },
      { ChargeCategory: "Usage", ChargePeriodStart: "2026-10-03T00:00:00Z", ChargePeriodEnd: "2026-10-04T00:00:01Z", ChargeDescription: "a day and a second" },
      { ChargeCategory: "Tax", ...hour(2), PricingQuantity: "", PricingUnit: "", ChargeDescription: "tax of an hour" },
    ];
    const res = await upload(o, focusCsvText(rows));
    expect(res.status).toBe(201);
    expect(res.body.data.import.focus_version).toBe("1.0");
    const lines = await allLines(o);
    const frequency = Object.fromEntries(lines.map((line) => [line.charge_description, line.charge_frequency]));
    expect(frequency).toEqual({
      "purchase over the month": "One-Time",
      "purchase of an hour": "One-Time",
      "fee over the month": "Recurring",
      "a day exactly": "Usage-Based",
      "a day and a second": "Recurring",
      "tax of an hour": "Usage-Based",
    });
  });

  test("a ChargeFrequency or PricingCategory outside FOCUS's values is a 400 naming the row and column; FOCUS 1.0's On-Demand reads as Standard", async () => {
    const bad = await upload(org, focusCsvText([{ ChargeFrequency: "Monthly" }], ["ChargeFrequency"]));
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain("Row 1, column ChargeFrequency");
    const badCategory = await upload(org, focusCsvText([{ PricingCategory: "Spot" }], ["PricingCategory"]));
    expect(badCategory.status).toBe(400);
    expect(badCategory.body.message).toContain("Row 1, column PricingCategory");
    const o = await signUp(ctx, { company: "Old names" });
    await request(ctx.app)
      .put(`/api/v1/organizations/${o.organization.id}/spend/allocation-rules`)
      .set("Authorization", `Bearer ${o.token}`)
      .send({ rules: [{ tenant_id: o.tenant.id }] })
      .expect(200);
    expect((await upload(o, focusCsvText([{ PricingCategory: "On-Demand" }, { PricingCategory: "Commitment-Based" }], ["PricingCategory"]))).status).toBe(201);
    expect((await allLines(o)).map((line) => line.pricing_category).sort()).toEqual(["Committed", "Standard"]);
  });
});

describe("usage lines in the export and by model", () => {
  let o: SignedUp;
  beforeAll(async () => {
    o = await signUp(ctx, { company: "Models" });
    const prices = await registerModelPrices(pricing, o.organization.id, "GPT-4o mini", [{ bucket: "input", perMtok: 0.15 }], { modelId: "gpt-4o-mini" });
    const usage = [
      modelUsage(prices.input, { input: 1_000_000 }, { resource_id: "chat-bot", event_id: "priced-1" }),
      modelUsage(prices.input, { input: 2_000_000 }, { resource_id: "summarizer", event_id: "priced-2" }),
      modelUsage(null, { input: 500 }, { resource_id: "chat-bot", event_id: "unpriced-1" }),
    ];
    const res = await request(ctx.app)
      .post("/api/v1/tenant/spend/usage")
      .set("Authorization", `Bearer ${o.token}`)
      .set("X-Service-Tenant-ID", o.tenant.id)
      .send({ usage });
    expect(res.body.data).toMatchObject({ accepted: 3, priced: 2, unpriced: 1 });
  }, 60_000);

  test("group_by=model groups priced usage by the entry's model_id (not the resource); unpriced lines count apart; model filters", async () => {
    const res = await tenantGet(o, `/api/v1/tenant/spend?${RANGE}&granularity=none&group_by=model`).expect(200);
    expect(res.body.data.rows.map((row: { group: unknown; cost: string }) => [row.group, row.cost])).toEqual([[{ model: "gpt-4o-mini" }, "0.45"]]);
    expect(res.body.data.unpriced).toEqual({ lines: 1, by_reason: { no_pricing_label: 1 } });
    const byResource = await tenantGet(o, `/api/v1/tenant/spend?${RANGE}&granularity=none&group_by=resource_id,model`).expect(200);
    expect(byResource.body.data.rows.map((row: { group: unknown }) => row.group)).toEqual([
      { resource_id: "summarizer", model: "gpt-4o-mini" },
      { resource_id: "chat-bot", model: "gpt-4o-mini" },
    ]);
    const filtered = await tenantGet(o, `/api/v1/tenant/spend?${RANGE}&granularity=none&model=gpt-4o-mini`).expect(200);
    expect(filtered.body.data.totals).toEqual([{ currency: "USD", cost: "0.45" }]);
    const lines = await allLines(o);
    expect(lines.map((line) => [line.resource_id, line.model, line.charge_frequency, line.pricing_category, line.contracted_cost]).sort()).toEqual([
      ["chat-bot", null, "Usage-Based", "Standard", null],
      ["chat-bot", "gpt-4o-mini", "Usage-Based", "Standard", "0.15"],
      ["summarizer", "gpt-4o-mini", "Usage-Based", "Standard", "0.3"],
    ]);
  });

  test("the export leaves unpriced lines out and counts them in X-Unpriced-Lines; include_unpriced writes them with zero costs and x_Priced false", async () => {
    const csvOf = async (query: string) => {
      const res = await tenantGet(o, `/api/v1/tenant/spend/export?${RANGE}${query}`)
        .buffer(true)
        .parse((response, done) => {
          let body = "";
          response.on("data", (chunk: Buffer) => {
            body += chunk.toString("utf8");
          });
          response.on("end", () => done(null, body));
        })
        .expect(200);
      return { unpriced: res.headers["x-unpriced-lines"], csv: res.body as string };
    };
    const plain = await csvOf("");
    expect(plain.unpriced).toBe("1");
    expect(focusViolations(plain.csv)).toEqual([]);
    const [header, ...rows] = parse(plain.csv) as string[][];
    expect(rows).toHaveLength(2);
    expect(rows.map((cells) => cells[header.indexOf("x_Priced")])).toEqual(["true", "true"]);

    const all = await csvOf("&include_unpriced=true");
    expect(all.unpriced).toBe("1");
    expect(focusViolations(all.csv)).toEqual([]);
    const [allHeader, ...allRows] = parse(all.csv) as string[][];
    const unpriced = allRows.find((cells) => cells[allHeader.indexOf("x_Priced")] === "false") as string[];
    expect(["BilledCost", "EffectiveCost", "ListCost", "ContractedCost"].map((column) => unpriced[allHeader.indexOf(column)])).toEqual(["0", "0", "0", "0"]);
    expect(unpriced[allHeader.indexOf("x_UnpricedReason")]).toBe("no_pricing_label");

    // Imported again, the unpriced line stays unpriced (null costs), never a zero.
    const back = await signUp(ctx, { company: "Back" });
    expect((await upload(back, all.csv)).status).toBe(201);
    const res = await request(ctx.app)
      .get(`/api/v1/organizations/${back.organization.id}/spend?${RANGE}&granularity=none`)
      .set("Authorization", `Bearer ${back.token}`)
      .expect(200);
    expect(res.body.data.totals).toEqual([{ currency: "USD", cost: "0.45" }]);
    expect(res.body.data.unpriced.lines).toBe(1);
  });
});
