import { gzipSync } from "node:zlib";
import { FocusFormatError, type FocusLine, readFocusCsv, readFocusParquet } from "../src/spend/focus";
import type { FocusReadInfo } from "../src/spend/focus";
import { asyncBufferOf, FOCUS_ROW, fixture, focusCsvText, focusParquet, streamOf } from "./helpers/focus-files";

async function collect(lines: AsyncIterable<FocusLine>): Promise<FocusLine[]> {
  const out: FocusLine[] = [];
  for await (const line of lines) out.push(line);
  return out;
}

async function readCsv(content: string | Buffer, gzip = false): Promise<{ lines: FocusLine[]; version?: string }> {
  const info: FocusReadInfo = {};
  const lines = await collect(readFocusCsv(streamOf(content), { gzip, info }));
  return { lines, version: info.reader?.version };
}

async function rejection(promise: Promise<unknown>): Promise<FocusFormatError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(FocusFormatError);
  return err as FocusFormatError;
}

describe("FOCUS parser: the providers' export styles", () => {
  test("AWS style, FOCUS 1.0: NULL literals, RFC 3339, JSON tags, x_ columns ignored, exact decimals", async () => {
    const { lines, version } = await readCsv(fixture("aws-focus-1.0.csv"));
    expect(version).toBe("1.0");
    expect(lines).toHaveLength(5);
    const [first, , s3, lambda, tax] = lines;
    expect(first).toMatchObject({
      charge_period_start: new Date("2026-10-01T00:00:00Z"),
      charge_period_end: new Date("2026-10-01T01:00:00Z"),
      billing_period_start: new Date("2026-10-01T00:00:00Z"),
      billing_period_end: new Date("2026-11-01T00:00:00Z"),
      charge_category: "Usage",
      charge_class: null,
      provider: "AWS",
      service_name: "Amazon Elastic Compute Cloud",
      service_category: "Compute",
      region: "us-east-1",
      resource_name: null,
      sku_id: "JRTCKXETXF",
      consumed_quantity: "1",
      consumed_unit: "Hours",
      billed_cost: "0.0416",
      effective_cost: "0.0416",
      list_cost: "0.0416",
      currency: "USD",
      tags: { team: "search", env: "prod" },
      sub_account_id: "222222222222",
      billing_account_id: "111111111111",
      priced: true,
      unpriced_reason: null,
    });
    expect(s3.billed_cost).toBe("1.23");
    expect(lambda.billed_cost).toBe("0.00000012");
    expect(lambda.tags).toEqual({});
    expect(tax).toMatchObject({ charge_category: "Tax", resource_id: null, billed_cost: "0.1" });
  });

  test("Azure style, FOCUS 1.2: BOM, CRLF, 'YYYY-MM-DD HH:MM:SS' as UTC, empty as null, a correction", async () => {
    const { lines, version } = await readCsv(fixture("azure-focus-1.2.csv"));
    expect(version).toBe("1.2");
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatchObject({
      charge_period_start: new Date("2026-10-01T00:00:00Z"),
      charge_period_end: new Date("2026-10-02T00:00:00Z"),
      billed_cost: "2.304",
      effective_cost: "1.9584",
      currency: "EUR",
      sub_account_id: "/subscriptions/aaaa-1111",
      billing_account_id: "/providers/Microsoft.Billing/billingAccounts/9876",
      sku_price_id: null,
      tags: { costcenter: "cc-42" },
    });
    expect(lines[2]).toMatchObject({ charge_class: "Correction", billed_cost: "-0.5", service_category: "Databases", tags: {} });
  });

  test("Google style, FOCUS 1.3: ServiceProviderName, ' UTC' timestamps, 21 decimal places kept exactly", async () => {
    const { lines, version } = await readCsv(fixture("gcp-focus-1.3.csv"));
    expect(version).toBe("1.3");
    expect(lines.map((l) => l.billed_cost)).toEqual(["0.047500000000000000001", "0.012345678901234567", "-0.01"]);
    expect(lines[0]).toMatchObject({ provider: "Google Cloud", consumed_quantity: "3600", charge_period_start: new Date("2026-10-01T00:00:00Z") });
    expect(lines[2].charge_category).toBe("Credit");
  });

  test("gzip: the same lines as the plain file", async () => {
    const plain = await readCsv(fixture("aws-focus-1.0.csv"));
    const gz = await readCsv(gzipSync(fixture("aws-focus-1.0.csv")), true);
    expect(gz).toEqual(plain);
  });

  test("Parquet: DECIMAL(38,18) and INT64 decimals read exactly, TIMESTAMP columns, JSON tags, several row groups", async () => {
    const lines = await collect(readFocusParquet(asyncBufferOf(focusParquet(6001))));
    expect(lines).toHaveLength(6001);
    expect(lines[0]).toMatchObject({
      billed_cost: "0.000000000000000001",
      list_cost: "1.000000000000000001",
      billing_account_id: "pq-acct",
      charge_period_start: new Date("2026-10-01T00:00:00Z"),
      service_category: "Storage",
      tags: {},
      sub_account_id: "sub-0",
    });
    expect(lines[1].tags).toEqual({ team: "t" });
    expect(lines[6000]).toMatchObject({ billed_cost: "0.000000000000006001", charge_period_start: new Date(Date.UTC(2026, 9, 1, 6000 % 24)) });
  });

  test("other accepted forms: offsets, fractions, date-only, exponent decimals, NULL in any case", async () => {
    const { lines } = await readCsv(
      focusCsvText([
        {
          ChargePeriodStart: "2026-10-01T02:00:00+02:00",
          ChargePeriodEnd: "2026-10-01T00:30:00.5Z",
          BilledCost: "1E-7",
          EffectiveCost: "+.5",
          ListCost: "null",
        },
        { ChargePeriodStart: "2026-10-03", ChargePeriodEnd: "2026-10-04", BilledCost: "-0", ChargeClass: "Null" },
      ]),
    );
    expect(lines[0]).toMatchObject({
      charge_period_start: new Date("2026-10-01T00:00:00Z"),
      charge_period_end: new Date("2026-10-01T00:30:00.500Z"),
      billed_cost: "0.0000001",
      effective_cost: "0.5",
      list_cost: null,
    });
    expect(lines[1]).toMatchObject({ charge_period_start: new Date("2026-10-03T00:00:00Z"), charge_class: null });
  });
});

describe("FOCUS parser: rejections name the column and the row", () => {
  test.each([
    ["BilledCost", "Missing required column BilledCost (FOCUS 1.0)"],
    ["ChargePeriodStart", "Missing required column ChargePeriodStart (FOCUS 1.0)"],
    ["PublisherName", "Missing required column PublisherName (FOCUS 1.0)"],
  ])("a file without %s", async (column, message) => {
    const err = await rejection(readCsv(focusCsvText([{ [column]: undefined }])));
    expect(err.message).toBe(message);
  });

  test("a 1.3 file (ServiceProviderName present) without HostProviderName", async () => {
    const err = await rejection(readCsv(focusCsvText([{ ServiceProviderName: "X" }], ["ServiceProviderName"])));
    expect(err.message).toBe("Missing required column HostProviderName (FOCUS 1.3)");
  });

  test.each([
    ["BilledCost", "12,5", 'Row 2, column BilledCost: "12,5" is not a decimal'],
    ["BilledCost", "NULL", "Row 2, column BilledCost: must not be null"],
    ["EffectiveCost", "1.2.3", 'Row 2, column EffectiveCost: "1.2.3" is not a decimal'],
    ["ChargePeriodStart", "01/10/2026", 'Row 2, column ChargePeriodStart: "01/10/2026" is not an RFC 3339 or "YYYY-MM-DD HH:MM:SS" timestamp'],
    ["ChargePeriodStart", "2026-02-30 00:00:00", 'Row 2, column ChargePeriodStart: "2026-02-30 00:00:00" is not a valid timestamp'],
    ["ChargePeriodEnd", "2026-09-30T00:00:00Z", "Row 2, column ChargePeriodEnd: is before ChargePeriodStart"],
    ["BillingPeriodEnd", "2026-10-01T00:00:00Z", "Row 2, column BillingPeriodEnd: is not after BillingPeriodStart"],
    ["ChargeCategory", "Refund", 'Row 2, column ChargeCategory: "Refund" is not one of Usage, Purchase, Tax, Credit, Adjustment'],
    ["ChargeClass", "Regular", 'Row 2, column ChargeClass: "Regular" is not null or Correction'],
    ["ServiceCategory", "Cars", 'Row 2, column ServiceCategory: "Cars" is not a FOCUS service category'],
    ["BillingCurrency", "usd", 'Row 2, column BillingCurrency: "usd" is not an ISO 4217 currency code'],
    ["BillingAccountId", "", "Row 2, column BillingAccountId: must not be null"],
    ["Tags", "{team:x}", "Row 2, column Tags: is not valid JSON"],
    ["Tags", '["a"]', "Row 2, column Tags: is not a JSON object"],
  ])("%s = %j", async (column, value, message) => {
    const csv = focusCsvText([{}, { [column]: value }], column === "Tags" ? ["Tags"] : []);
    const err = await rejection(readCsv(csv));
    expect(err.message).toBe(message);
    expect(err).toMatchObject({ row: 2, column });
  });

  test("a row with a different number of fields than the header", async () => {
    const csv = `${focusCsvText([{}])}1,2,3\n`;
    const err = await rejection(readCsv(csv));
    expect(err.message).toMatch(/^Row 2, column \w+: the row has 3 fields, the header 21$/);
  });

  test("a column twice in the header, an empty file, broken CSV quoting, invalid gzip, not Parquet", async () => {
    const header = Object.keys(FOCUS_ROW).join(",");
    expect((await rejection(readCsv(`${header},BilledCost\n`))).message).toBe("Column BilledCost appears twice in the header");
    expect((await rejection(readCsv(""))).message).toBe("The file is empty: a FOCUS file starts with a header row");
    expect((await rejection(readCsv(`${focusCsvText([{}])}"1.5,unterminated\n`))).message).toBe(
      "Malformed CSV: Quote Not Closed: the parsing is finished with an opening quote at line 3",
    );
    expect((await rejection(readCsv("not gzip at all", true))).message).toBe("The body is not valid gzip");
    const notParquet = asyncBufferOf(new TextEncoder().encode("PAR1 nope").buffer as ArrayBuffer);
    expect((await rejection(collect(readFocusParquet(notParquet)))).message).toBe("The body is not a readable Parquet file");
  });
});
