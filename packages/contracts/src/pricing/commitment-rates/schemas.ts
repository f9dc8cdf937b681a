import { z } from "zod";
import { KeyText, ServiceId, Timestamp, TimestampOutput, queryBoolean } from "../../common.js";
import { boundedNumber } from "../../decimal-bounds.js";
import { DeleteResponse, ListResponse, RegisterResponse } from "../models/schemas.js";

const OptionalKey = KeyText.min(1).nullish();

export const CommitmentType = z
  .enum(["savings_plan", "reserved_instance", "committed_use"])
  .meta({ id: "CommitmentType", description: "A Savings Plan, a Reserved Instance or a committed-use discount." });
export type CommitmentType = z.infer<typeof CommitmentType>;

export const CommitmentTerm = z.union([z.literal(12), z.literal(36)]).meta({ id: "CommitmentTerm", description: "The commitment's term in months." });
export type CommitmentTerm = z.infer<typeof CommitmentTerm>;

export const PaymentOption = z.enum(["no_upfront", "partial_upfront", "all_upfront"]).meta({ id: "PaymentOption", description: "How the commitment is paid." });
export type PaymentOption = z.infer<typeof PaymentOption>;

export const CommitmentRateInput = z
  .object({
    provider: KeyText.min(1),
    commitment_type: CommitmentType,
    term_months: CommitmentTerm,
    payment_option: PaymentOption,
    service_category: OptionalKey.describe("The FOCUS service category it applies to (absent: every category)."),
    region: OptionalKey,
    family: OptionalKey,
    discount_percent: boundedNumber().min(0).max(100).describe("Percent off the on-demand (list) price of the usage the commitment covers."),
    effective_from: Timestamp.nullish().describe("When this rate starts (default now); must be later than the open row's own effective_from."),
    effective_to: Timestamp.nullish().describe("Accepted so that a stored rate can be echoed back; ignored (the server closes rows)."),
  })
  .meta({
    id: "CommitmentRateInput",
    description: "A commitment rate the account can buy: the discount a commitment of this type, term and payment option gives (absent fields match all).",
  });
export type CommitmentRateInput = z.input<typeof CommitmentRateInput>;
export type CommitmentRateData = z.output<typeof CommitmentRateInput>;

export const CommitmentRate = z
  .object({
    id: ServiceId,
    provider: z.string(),
    commitment_type: CommitmentType,
    term_months: CommitmentTerm,
    payment_option: PaymentOption,
    service_category: z.string().nullable(),
    region: z.string().nullable(),
    family: z.string().nullable(),
    discount_percent: z.number(),
    effective_from: TimestampOutput,
    effective_to: TimestampOutput.nullable(),
  })
  .meta({ id: "CommitmentRate", description: "A stored commitment rate row; `effective_to` is null while open." });
export type CommitmentRate = z.infer<typeof CommitmentRate>;

export const RegisterCommitmentRatesRequest = z
  .object({ entries: z.array(CommitmentRateInput).min(1).max(100) })
  .meta({ id: "RegisterCommitmentRatesRequest", description: "1-100 commitment rates, registered all or nothing." });
export type RegisterCommitmentRatesRequest = z.output<typeof RegisterCommitmentRatesRequest>;

export const RegisterCommitmentRatesResponse = RegisterResponse(CommitmentRate).meta({
  id: "RegisterCommitmentRatesResponse",
  description: "The stored rates, each with its id.",
});
export type RegisterCommitmentRatesResponse = z.infer<typeof RegisterCommitmentRatesResponse>;

export const ListCommitmentRatesResponse = ListResponse(CommitmentRate).meta({ id: "ListCommitmentRatesResponse", description: "Matching rates." });
export type ListCommitmentRatesResponse = z.infer<typeof ListCommitmentRatesResponse>;

export const DeleteCommitmentRatesResponse = DeleteResponse(CommitmentRate).meta({ id: "DeleteCommitmentRatesResponse", description: "The closed row." });
export type DeleteCommitmentRatesResponse = z.infer<typeof DeleteCommitmentRatesResponse>;

export const CommitmentRateListQuery = z
  .object({
    provider: KeyText.optional(),
    commitment_type: CommitmentType.optional(),
    payment_option: PaymentOption.optional(),
    include_closed: queryBoolean.optional(),
  })
  .meta({ id: "CommitmentRateListQuery", description: "Filters; closed rows only with include_closed=true." });
export type CommitmentRateListQuery = z.output<typeof CommitmentRateListQuery>;
