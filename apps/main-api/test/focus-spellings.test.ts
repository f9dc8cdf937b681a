// The providers' own spellings of FOCUS's enumerated columns (docs/api.md, "Cloud bills: FOCUS
// import"): matched whatever their case and surrounding spaces, stored in the specification's
// spelling; a value that matches none is still refused, naming the row and column.
import { FocusFormatError, type FocusLine, readFocusCsv } from "../src/spend/focus";
import { FOCUS_ROW, focusCsvText, streamOf } from "./helpers/focus-files";

async function read(rows: Array<Record<string, string>>, extra: string[]): Promise<FocusLine[]> {
  const out: FocusLine[] = [];
  const columns = extra.filter((column) => !(column in FOCUS_ROW));
  for await (const line of readFocusCsv(streamOf(focusCsvText(rows, columns)), {})) out.push(line);
  return out;
}

/** Column, the field it is stored in, and for each allowed value the spellings met in providers' files (or plausible). */
const CASES: Array<[string, keyof FocusLine, Record<string, string[]>]> = [
  [
    "ChargeCategory",
    "charge_category",
    { Usage: ["usage", "USAGE", " Usage "], Purchase: ["purchase"], Tax: ["TAX"], Credit: ["credit"], Adjustment: ["adjustment"] },
  ],
  ["ChargeClass", "charge_class", { Correction: ["correction", "CORRECTION", " Correction"] }],
  [
    "ChargeFrequency",
    "charge_frequency",
    { "Usage-Based": ["Usage-based", "usage-based", "USAGE-BASED"], "One-Time": ["one-time", "One-time"], Recurring: ["recurring"] },
  ],
  ["PricingCategory", "pricing_category", { Standard: ["standard", "STANDARD"], Dynamic: ["dynamic"], Committed: ["committed"], Other: ["other"] }],
  ["CommitmentDiscountCategory", "commitment_discount_category", { Spend: ["spend", "SPEND"], Usage: ["usage"] }],
  ["CommitmentDiscountStatus", "commitment_discount_status", { Used: ["used"], Unused: ["unused", "UNUSED"] }],
  [
    "ServiceCategory",
    "service_category",
    { Compute: ["compute"], "AI and Machine Learning": ["ai and machine learning"], "Internet of Things": ["INTERNET OF THINGS"] },
  ],
];

describe("FOCUS allowed values: any case, stored in the specification's spelling", () => {
  for (const [column, field, spellings] of CASES) {
    for (const [canonical, variants] of Object.entries(spellings)) {
      test.each(variants)(`${column} %p is stored as ${canonical}`, async (variant) => {
        const [line] = await read([{ [column]: variant }], [column]);
        expect(line[field]).toBe(canonical);
      });
    }
  }

  test("FOCUS 1.0's pricing category names in any case read as their 1.1 names", async () => {
    const lines = await read([{ PricingCategory: "on-demand" }, { PricingCategory: "COMMITMENT-BASED" }], ["PricingCategory"]);
    expect(lines.map((l) => l.pricing_category)).toEqual(["Standard", "Committed"]);
  });

  test.each([
    ["ChargeFrequency", "Usage based"],
    ["ChargeFrequency", "UsageBased"],
    ["ChargeCategory", "Usages"],
    ["ChargeClass", "Corrected"],
    ["PricingCategory", "Spot"],
    ["CommitmentDiscountStatus", "Partial"],
    ["ServiceCategory", "Computing"],
  ])("%s %p matches none: refused, naming row and column", async (column, value) => {
    const err = await read([{}, { [column]: value }], [column]).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(FocusFormatError);
    expect(err).toMatchObject({ row: 2, column });
  });
});
