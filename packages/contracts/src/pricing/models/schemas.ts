import { z } from "zod";
import { boundedNumber } from "../../decimal-bounds.js";
import { Currency, FreeObject, KeyText, ServiceId, Timestamp, TimestampOutput, queryBoolean } from "../../common.js";

export const MAX_PRICE_DECIMALS = 12;
export const MAX_PRICE = 1e15;

/**
 * A stored amount (price, rate, capacity): finite, 0 to 1e15. Stored as numeric(30,12): kept to 12
 * decimal places (rounded half-up beyond, so binary-float noise like 0.30000000000000004 reads back
 * as 0.3); anything with at most 12 decimals echoes back exactly as sent.
 */
export const ExactAmount = boundedNumber()
  .min(0)
  .max(MAX_PRICE)
  .meta({ id: "ExactAmount", description: "Non-negative amount up to 1e15; kept exactly to 12 decimal places (rounded half-up beyond)." });

export const TokenBucket = z
  .enum(["input", "output", "cache_read", "cache_write", "reasoning", "input_audio", "output_audio"])
  .meta({ id: "TokenBucket", description: "Kind of token a price applies to." });
export type TokenBucket = z.infer<typeof TokenBucket>;

const RequiredKey = KeyText.min(1);
const OptionalKey = KeyText.nullish();
const Limit = z.number().int().nonnegative().max(2147483647).nullish();
const Modalities = z.array(z.string().max(64)).max(32).nullish();
const Flag = z.boolean().nullish();

export const ModelPricingEntryInput = z
  .object({
    provider: RequiredKey,
    publisher: OptionalKey,
    host: OptionalKey,
    model: RequiredKey,
    model_id: OptionalKey,
    region: OptionalKey,
    token_bucket: TokenBucket,
    unit_price_per_mtok: ExactAmount,
    currency: Currency.default("USD"),
    effective_from: Timestamp.nullish().describe(
      "When this price starts (default now); must be later than the open row's own effective_from. A future one schedules the change.",
    ),
    effective_to: Timestamp.nullish().describe("Accepted so that a stored entry can be echoed back; ignored (the server closes rows)."),
    fetched_at: Timestamp.nullish(),
    sku_price_id: OptionalKey,
    source: OptionalKey,
    source_url: z.string().max(2048).nullish(),
    context_limit: Limit,
    output_limit: Limit,
    modalities_input: Modalities,
    modalities_output: Modalities,
    open_weights: Flag,
    reasoning: Flag,
    structured_output: Flag,
    tool_call: Flag,
    raw_pricing_data: FreeObject.nullish(),
    tags: FreeObject.nullish(),
  })
  .meta({ id: "ModelPricingEntryInput", description: "A custom token price per million tokens of one model and token bucket." });
export type ModelPricingEntryInput = z.input<typeof ModelPricingEntryInput>;
export type ModelPricingEntryData = z.output<typeof ModelPricingEntryInput>;

export const ModelPricingEntry = z
  .object({
    id: ServiceId,
    provider: z.string(),
    publisher: z.string().nullable(),
    host: z.string().nullable(),
    model: z.string(),
    model_id: z.string().nullable(),
    region: z.string().nullable(),
    token_bucket: TokenBucket,
    unit_price_per_mtok: z.number(),
    currency: Currency,
    effective_from: TimestampOutput,
    effective_to: TimestampOutput.nullable(),
    fetched_at: TimestampOutput.nullable(),
    sku_price_id: z.string().nullable(),
    source: z.string().nullable(),
    source_url: z.string().nullable(),
    context_limit: z.number().int().nullable(),
    output_limit: z.number().int().nullable(),
    modalities_input: z.array(z.string()),
    modalities_output: z.array(z.string()),
    open_weights: z.boolean().nullable(),
    reasoning: z.boolean().nullable(),
    structured_output: z.boolean().nullable(),
    tool_call: z.boolean().nullable(),
    raw_pricing_data: FreeObject,
    tags: FreeObject,
  })
  .meta({ id: "ModelPricingEntry", description: "A stored model pricing row; `effective_to` is null while open." });
export type ModelPricingEntry = z.infer<typeof ModelPricingEntry>;

export const RegisterModelsRequest = z
  .object({ entries: z.array(ModelPricingEntryInput).min(1).max(1000) })
  .meta({ id: "RegisterModelsRequest", description: "1-1000 model pricing entries, registered all or nothing." });
export type RegisterModelsRequest = z.output<typeof RegisterModelsRequest>;

type EntriesResponse<T extends z.ZodType, S extends string> = z.ZodObject<{ entries: z.ZodArray<T>; status: z.ZodLiteral<S> }, z.core.$strip>;

const entriesResponse =
  <S extends string>(status: S) =>
  <T extends z.ZodType>(entry: T): EntriesResponse<T, S> =>
    z.object({ entries: z.array(entry), status: z.literal(status) });

export const RegisterResponse: <T extends z.ZodType>(entry: T) => EntriesResponse<T, "Registered"> = entriesResponse("Registered");
export const ListResponse: <T extends z.ZodType>(entry: T) => EntriesResponse<T, "OK"> = entriesResponse("OK");
export const DeleteResponse: <T extends z.ZodType>(entry: T) => EntriesResponse<T, "Deleted"> = entriesResponse("Deleted");

export const RegisterModelsResponse = RegisterResponse(ModelPricingEntry).meta({
  id: "RegisterModelsResponse",
  description: "The stored entries, each with its id.",
});
export type RegisterModelsResponse = z.infer<typeof RegisterModelsResponse>;

export const ListModelsResponse = ListResponse(ModelPricingEntry).meta({ id: "ListModelsResponse", description: "Matching entries." });
export type ListModelsResponse = z.infer<typeof ListModelsResponse>;

export const DeleteModelsResponse = DeleteResponse(ModelPricingEntry).meta({
  id: "DeleteModelsResponse",
  description: "The closed row.",
});
export type DeleteModelsResponse = z.infer<typeof DeleteModelsResponse>;

export const ModelListQuery = z
  .object({
    provider: KeyText.optional(),
    publisher: KeyText.optional(),
    host: KeyText.optional(),
    model: KeyText.optional(),
    model_id: KeyText.optional(),
    region: KeyText.optional(),
    token_bucket: TokenBucket.optional(),
    include_closed: queryBoolean.optional(),
  })
  .meta({ id: "ModelListQuery", description: "Identity filters; closed rows only with include_closed=true." });
export type ModelListQuery = z.output<typeof ModelListQuery>;

export const DeleteByIdQuery = z.object({ id: ServiceId }).meta({ id: "DeleteByIdQuery", description: "The id of the pricing entry to delete." });
export type DeleteByIdQuery = z.infer<typeof DeleteByIdQuery>;
