import { z } from "zod";
import { TimestampOutput, queryBoolean, queryDigits, queryInteger } from "../../common.js";
import { CommitmentTerm, CommitmentType, PaymentOption } from "../../pricing/commitment-rates/schemas.js";
import { DateOrTimestamp, DecimalString, resolveRange } from "../spend/schemas.js";

const RANGE_DESCRIPTION =
  "Range `start` (inclusive) to `end` (exclusive), RFC 3339 or YYYY-MM-DD; default the current calendar month to now; at most 400 days.";

const RangeFields = { start: DateOrTimestamp.optional(), end: DateOrTimestamp.optional() };

export const CommitmentsQuery = z
  .object(RangeFields)
  .transform((query, ctx) => resolveRange(query, ctx))
  .meta({ id: "CommitmentsQuery", description: RANGE_DESCRIPTION });
export type CommitmentsQuery = z.output<typeof CommitmentsQuery>;

export const COVERAGE_GROUPS = ["service_name", "region", "sub_account_id", "tenant"] as const;
export const CoverageGroup = z.enum(COVERAGE_GROUPS).meta({ id: "CoverageGroup", description: "What coverage is grouped by." });
export type CoverageGroup = z.infer<typeof CoverageGroup>;

export const CommitmentCoverageQuery = z
  .object({ ...RangeFields, group_by: CoverageGroup.default("service_name") })
  .transform((query, ctx) => resolveRange(query, ctx))
  .meta({
    id: "CommitmentCoverageQuery",
    description: `${RANGE_DESCRIPTION} \`group_by\`: service_name (default), region, sub_account_id or tenant.`,
  });
export type CommitmentCoverageQuery = z.output<typeof CommitmentCoverageQuery>;

export const CommitmentRecommendationsQuery = z
  .object({
    lookback_days: queryInteger(1, 90).default(30),
    commitment_type: CommitmentType.optional(),
    term_months: queryDigits
      .pipe(CommitmentTerm)
      .meta({ override: { type: "integer", enum: [12, 36], pattern: undefined } })
      .optional(),
    payment_option: PaymentOption.optional(),
    include_curve: queryBoolean.optional(),
  })
  .meta({
    id: "CommitmentRecommendationsQuery",
    description:
      "`lookback_days` (1-90, default 30) of hourly on-demand spend; optional filters on the organization's commitment rates; `include_curve=true` adds each rate's savings curve.",
  });
export type CommitmentRecommendationsQuery = z.output<typeof CommitmentRecommendationsQuery>;

const Money = DecimalString.describe("In the lines' currency, rounded half-up to cents.");
const Usd = DecimalString.describe("USD, rounded half-up to cents.");
const Percent = DecimalString.nullable().describe("Percent to two decimals; null when its denominator is zero.");

const CommitmentSums = {
  on_demand_equivalent: Money.describe("The covered usage at on-demand rates: its contracted cost where the bill has one, else its list cost."),
  used_cost: Money,
  unused_cost: Money,
  committed_cost: Money.describe("used_cost + unused_cost: what the commitment cost."),
  utilization_percent: Percent,
  net_savings: Money.describe("on_demand_equivalent - committed_cost; negative when the commitment cost more than on demand would have."),
  savings_percent: Percent.describe("net_savings / on_demand_equivalent x 100; null when nothing was covered."),
};

export const CommitmentUtilization = z
  .object({
    commitment_discount_id: z.string(),
    category: z.string().nullable(),
    type: z.string().nullable(),
    provider: z.string().nullable(),
    currency: z.string().nullable(),
    billing_account_id: z.string().nullable(),
    ...CommitmentSums,
  })
  .meta({
    id: "CommitmentUtilization",
    description:
      "One commitment over the range: committed = Used + Unused effective cost, utilization = used / committed, net savings = on-demand equivalent of the usage it covered - committed.",
  });
export type CommitmentUtilization = z.infer<typeof CommitmentUtilization>;

export const CommitmentTotals = z
  .object({ provider: z.string().nullable(), currency: z.string().nullable(), ...CommitmentSums })
  .meta({ id: "CommitmentTotals", description: "The commitments of one provider and currency, summed (never across providers or currencies)." });
export type CommitmentTotals = z.infer<typeof CommitmentTotals>;

export const CommitmentsReport = z
  .object({ items: z.array(CommitmentUtilization), totals: z.array(CommitmentTotals) })
  .meta({ id: "CommitmentsReport", description: "Each commitment with charges in the range, by id; totals per provider and currency." });
export type CommitmentsReport = z.infer<typeof CommitmentsReport>;

const CoverageSums = {
  covered_on_demand_equivalent: Money.describe("Eligible usage a commitment covered, at on-demand rates."),
  on_demand_cost: Money.describe("The effective cost of the eligible usage priced on demand (not covered)."),
  coverage_percent: Percent.describe("covered_on_demand_equivalent / (covered_on_demand_equivalent + on_demand_cost) x 100."),
};

export const CoverageRow = z
  .object({
    provider: z.string().nullable(),
    currency: z.string().nullable(),
    group: z.string().nullable().describe("The group's value (null: lines without one; tenant: unallocated lines)."),
    ...CoverageSums,
  })
  .meta({ id: "CoverageRow", description: "Coverage of one group of one provider and currency." });
export type CoverageRow = z.infer<typeof CoverageRow>;

export const CoverageTotals = z
  .object({ provider: z.string().nullable(), currency: z.string().nullable(), ...CoverageSums })
  .meta({ id: "CoverageTotals", description: "Coverage of one provider and currency over every group." });
export type CoverageTotals = z.infer<typeof CoverageTotals>;

export const CoverageReport = z.object({ group_by: CoverageGroup, rows: z.array(CoverageRow), totals: z.array(CoverageTotals) }).meta({
  id: "CoverageReport",
  description:
    "Eligible usage (Usage-Based Compute usage measured in hours, on demand or committed, never spot) per provider and currency: the on-demand equivalent commitments covered over that plus the on-demand cost of the rest.",
});
export type CoverageReport = z.infer<typeof CoverageReport>;

export const CommitmentRecommendation = z
  .object({
    rate_id: z.string(),
    commitment_type: CommitmentType,
    term_months: CommitmentTerm,
    payment_option: PaymentOption,
    discount_percent: z.number(),
    family: z.string().nullable().describe("The rate's instance family: only that family's lines are simulated (null: every eligible line of the provider)."),
    hourly_commitment: Usd.describe("USD per hour to commit to; 0.00 when no commitment saves money."),
    monthly_savings: Usd.describe("Savings over the lookback x 730 / its hours."),
    reason: z.enum(["no_savings"]).optional().describe("Present when no commitment saves money over the lookback: buy nothing."),
    break_even_utilization_percent: DecimalString.describe("(1 - discount) x 100: below this utilization the commitment costs more than on demand."),
    upfront_cost: Usd.describe("Paid at purchase: all_upfront c x the term's hours (730 a month), partial_upfront half of that, no_upfront 0."),
    monthly_commitment_cost: Usd.describe("c x 730."),
    roi_percent: Percent.describe("monthly_savings / monthly_commitment_cost x 100; null for a zero commitment."),
    hours_above_break_even_percent: Percent.describe(
      "The share of lookback hours whose eligible on-demand cost is at least c / (1 - discount); null for a zero commitment.",
    ),
    expected_utilization_percent: Percent,
    expected_coverage_percent: Percent,
    lookback: z.object({
      start: TimestampOutput,
      end: TimestampOutput,
      hours: z.number().int(),
      data_through: TimestampOutput.nullable().describe("The end of the last hour with eligible on-demand usage; null when there is none."),
    }),
    warnings: z.array(z.enum(["stale_data"])).describe("`stale_data`: the last eligible usage ends more than 3 days before now (or there is none)."),
    savings_curve: z
      .array(z.object({ hourly_commitment: Usd, monthly_savings: Usd }))
      .optional()
      .describe("With include_curve=true: monthly savings at 21 commitments from 0 to twice the recommended one, from the same formula."),
  })
  .meta({
    id: "CommitmentRecommendation",
    description:
      "The hourly commitment c maximising savings(c) = sum E_h - sum (c + max(0, E_h - c / (1 - d))) over the lookback's hourly series E_h of eligible on-demand cost (the rate's provider, category, region and family).",
  });
export type CommitmentRecommendation = z.infer<typeof CommitmentRecommendation>;

export const CommitmentRecommendations = z
  .object({ items: z.array(CommitmentRecommendation) })
  .meta({ id: "CommitmentRecommendations", description: "One recommendation per matching commitment rate of the organization's pricing account." });
export type CommitmentRecommendations = z.infer<typeof CommitmentRecommendations>;
