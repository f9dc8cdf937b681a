import { z } from "zod";
import { TimestampOutput, queryBoolean, queryDigits, queryInteger } from "../common.js";
import { CommitmentTerm, CommitmentType, PaymentOption } from "../pricing/commitment-rates.js";
import { DateOrTimestamp, DecimalString, resolveRange } from "./spend.js";

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

const Money = DecimalString.describe("USD, rounded half-up to cents.");
const Percent = DecimalString.nullable().describe("Percent to two decimals; null when its denominator is zero.");

const CommitmentSums = {
  committed_cost: Money,
  used_cost: Money,
  unused_cost: Money,
  utilization_percent: Percent,
  covered_list_cost: Money,
  savings: Money,
};

export const CommitmentUtilization = z
  .object({
    commitment_discount_id: z.string(),
    category: z.string().nullable(),
    type: z.string().nullable(),
    provider: z.string().nullable(),
    billing_account_id: z.string().nullable(),
    ...CommitmentSums,
  })
  .meta({
    id: "CommitmentUtilization",
    description:
      "One commitment over the range: committed = Used + Unused effective cost, utilization = used / committed, savings = the list cost it covered - what its use cost.",
  });
export type CommitmentUtilization = z.infer<typeof CommitmentUtilization>;

export const CommitmentsReport = z
  .object({ items: z.array(CommitmentUtilization), totals: z.object(CommitmentSums) })
  .meta({ id: "CommitmentsReport", description: "Each commitment with charges in the range, by id; totals are the same sums and the overall utilization." });
export type CommitmentsReport = z.infer<typeof CommitmentsReport>;

const CoverageSums = {
  eligible_list_cost: Money,
  covered_list_cost: Money,
  on_demand_cost: Money,
  coverage_percent: Percent,
};

export const CoverageRow = z
  .object({ group: z.string().nullable().describe("The group's value (null: lines without one; tenant: unallocated lines)."), ...CoverageSums })
  .meta({ id: "CoverageRow", description: "Coverage of one group: covered / eligible list cost." });
export type CoverageRow = z.infer<typeof CoverageRow>;

export const CoverageReport = z.object({ group_by: CoverageGroup, rows: z.array(CoverageRow), totals: z.object(CoverageSums) }).meta({
  id: "CoverageReport",
  description:
    "Usage lines of eligible services (any with a Committed line in the range, and every Compute service): the list cost covered by commitments over the eligible list cost.",
});
export type CoverageReport = z.infer<typeof CoverageReport>;

export const CommitmentRecommendation = z
  .object({
    rate_id: z.string(),
    commitment_type: CommitmentType,
    term_months: CommitmentTerm,
    payment_option: PaymentOption,
    discount_percent: z.number(),
    hourly_commitment: Money.describe("USD per hour to commit to."),
    monthly_savings: Money.describe("Savings over the lookback x 730 / its hours."),
    expected_utilization_percent: Percent,
    expected_coverage_percent: Percent,
    lookback: z.object({ start: TimestampOutput, end: TimestampOutput, hours: z.number().int() }),
    savings_curve: z
      .array(z.object({ hourly_commitment: Money, monthly_savings: Money }))
      .optional()
      .describe("With include_curve=true: monthly savings at 21 commitments from 0 to twice the recommended one, from the same formula."),
  })
  .meta({
    id: "CommitmentRecommendation",
    description:
      "The hourly commitment c maximising savings(c) = sum E_h - sum (c + max(0, E_h - c / (1 - d))) over the lookback's hourly on-demand series E_h.",
  });
export type CommitmentRecommendation = z.infer<typeof CommitmentRecommendation>;

export const CommitmentRecommendations = z
  .object({ items: z.array(CommitmentRecommendation) })
  .meta({ id: "CommitmentRecommendations", description: "One recommendation per matching commitment rate of the organization's pricing account." });
export type CommitmentRecommendations = z.infer<typeof CommitmentRecommendations>;
