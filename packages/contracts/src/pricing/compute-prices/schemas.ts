import { z } from "zod";
import { Currency, FreeObject, KeyText, ServiceId, Timestamp, TimestampOutput, queryBoolean } from "../../common.js";
import { OperatingSystem } from "../../main/compute/schemas.js";
import { ComputeUsageType } from "../compute/schemas.js";
import { DeleteResponse, ExactAmount, ListResponse, RegisterResponse } from "../models/schemas.js";

const OptionalKey = KeyText.min(1).nullish();

export const ComputePricingEntryInput = z
  .object({
    provider: KeyText.min(1),
    region: OptionalKey,
    instance_type: OptionalKey,
    family: OptionalKey,
    operating_system: OperatingSystem.nullish(),
    usage_type: ComputeUsageType.nullish(),
    price_per_hour: ExactAmount.nullish().describe("A fixed hourly rate for one instance_type (required with it)."),
    discount_percent: z.number().min(0).max(100).nullish().describe("Percent off the list price of every catalog row the entry matches."),
    currency: Currency.default("USD"),
    effective_from: Timestamp.nullish().describe(
      "When this price starts (default now); must be later than the open row's own effective_from. A future one schedules the change.",
    ),
    effective_to: Timestamp.nullish().describe("Accepted so that a stored entry can be echoed back; ignored (the server closes rows)."),
    tags: FreeObject.nullish(),
  })
  .superRefine((entry, ctx) => {
    const fixed = entry.price_per_hour !== undefined && entry.price_per_hour !== null;
    const discount = entry.discount_percent !== undefined && entry.discount_percent !== null;
    if (fixed === discount)
      ctx.addIssue({ code: "custom", path: ["price_per_hour"], message: "exactly one of price_per_hour and discount_percent is required" });
    else if (fixed && !entry.instance_type)
      ctx.addIssue({ code: "custom", path: ["price_per_hour"], message: "a fixed price_per_hour needs an instance_type" });
  })
  .meta({
    id: "ComputePricingEntryInput",
    description:
      "A negotiated compute price: a fixed price_per_hour for one instance_type, or a discount_percent off the list price of everything it matches (absent fields match all).",
  });
export type ComputePricingEntryInput = z.input<typeof ComputePricingEntryInput>;
export type ComputePricingEntryData = z.output<typeof ComputePricingEntryInput>;

export const ComputePricingEntry = z
  .object({
    id: ServiceId,
    provider: z.string(),
    region: z.string().nullable(),
    instance_type: z.string().nullable(),
    family: z.string().nullable(),
    operating_system: OperatingSystem.nullable(),
    usage_type: ComputeUsageType.nullable(),
    price_per_hour: z.number().nullable(),
    discount_percent: z.number().nullable(),
    currency: Currency,
    effective_from: TimestampOutput,
    effective_to: TimestampOutput.nullable(),
    tags: FreeObject,
  })
  .meta({
    id: "ComputePricingEntry",
    description: "A stored negotiated compute price row; `effective_to` is null while open; null identity fields match all.",
  });
export type ComputePricingEntry = z.infer<typeof ComputePricingEntry>;

export const RegisterComputePricesRequest = z
  .object({ entries: z.array(ComputePricingEntryInput).min(1).max(1000) })
  .meta({ id: "RegisterComputePricesRequest", description: "1-1000 negotiated compute prices, registered all or nothing." });
export type RegisterComputePricesRequest = z.output<typeof RegisterComputePricesRequest>;

export const RegisterComputePricesResponse = RegisterResponse(ComputePricingEntry).meta({
  id: "RegisterComputePricesResponse",
  description: "The stored entries, each with its id.",
});
export type RegisterComputePricesResponse = z.infer<typeof RegisterComputePricesResponse>;

export const ListComputePricesResponse = ListResponse(ComputePricingEntry).meta({ id: "ListComputePricesResponse", description: "Matching entries." });
export type ListComputePricesResponse = z.infer<typeof ListComputePricesResponse>;

export const DeleteComputePricesResponse = DeleteResponse(ComputePricingEntry).meta({ id: "DeleteComputePricesResponse", description: "The closed row." });
export type DeleteComputePricesResponse = z.infer<typeof DeleteComputePricesResponse>;

export const ComputePricingListQuery = z
  .object({
    provider: KeyText.optional(),
    region: KeyText.optional(),
    instance_type: KeyText.optional(),
    family: KeyText.optional(),
    operating_system: OperatingSystem.optional(),
    usage_type: ComputeUsageType.optional(),
    include_closed: queryBoolean.optional(),
  })
  .meta({ id: "ComputePricingListQuery", description: "Identity filters; closed rows only with include_closed=true." });
export type ComputePricingListQuery = z.output<typeof ComputePricingListQuery>;
