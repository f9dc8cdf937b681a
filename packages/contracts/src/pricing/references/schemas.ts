import { z } from "zod";
import { boundedNumber } from "../../decimal-bounds.js";
import { Currency, CustomerId, ServiceId, Timestamp, TimestampOutput } from "../../common.js";
import { TokenBucket } from "../models/schemas.js";

export const PinKind = z.enum(["database", "model"]).meta({ id: "PinKind", description: "Kind of priced resource." });
export type PinKind = z.infer<typeof PinKind>;

export const PinPathParams = z
  .object({ kind: PinKind, resource_id: CustomerId })
  .meta({ id: "PinPathParams", description: "Path parameters of /v1/pricing/pins/{kind}/{resource_id}." });
export type PinPathParams = z.infer<typeof PinPathParams>;

export const PinRequest = z
  .object({ pricing_id: ServiceId })
  .meta({ id: "PinRequest", description: "The pricing entry the resource carries in its pricing-id label or tag." });
export type PinRequest = z.infer<typeof PinRequest>;

export const Pin = z
  .object({
    kind: PinKind,
    resource_id: z.string(),
    pricing_id: ServiceId,
    created_at: TimestampOutput,
    updated_at: TimestampOutput,
  })
  .meta({ id: "Pin", description: "A resource pinned to a pricing entry." });
export type Pin = z.infer<typeof Pin>;

export const PinListQuery = z
  .object({ pricing_id: ServiceId.optional() })
  .meta({ id: "PinListQuery", description: "Only the pins of this pricing entry; all pins without it." });
export type PinListQuery = z.infer<typeof PinListQuery>;

export const PinList = z.object({ pins: z.array(Pin) }).meta({ id: "PinList", description: "Pins of the account." });
export type PinList = z.infer<typeof PinList>;

export const MODEL_QUANTITY_KEYS = TokenBucket.options;
export const DATABASE_QUANTITY_KEYS = ["hours", "storage_gb_hours", "io_requests", "iops_hours", "throughput_mbps_hours", "vcpu_license_hours"] as const;
export type ModelQuantityKey = (typeof MODEL_QUANTITY_KEYS)[number];
export type DatabaseQuantityKey = (typeof DATABASE_QUANTITY_KEYS)[number];

/** Database entry field holding the rate of each quantity key. */
export const DATABASE_QUANTITY_RATE_FIELDS = {
  hours: "cost_per_hour",
  storage_gb_hours: "cost_per_storage_gb_hour",
  io_requests: "cost_per_io_request",
  iops_hours: "cost_per_iops_hour",
  throughput_mbps_hours: "cost_per_throughput_mbps_hour",
  vcpu_license_hours: "cost_per_vcpu_license_hour",
} as const satisfies Record<DatabaseQuantityKey, string>;

export const QUANTITY_KEYS: Record<PinKind, readonly string[]> = {
  model: MODEL_QUANTITY_KEYS,
  database: DATABASE_QUANTITY_KEYS,
};

const StringRecord = z.record(z.string(), z.string());

export const UsageLine = z
  .object({
    resource_id: CustomerId,
    kind: PinKind,
    timestamp: Timestamp,
    labels: StringRecord.optional(),
    tags: StringRecord.optional(),
    quantities: z.record(z.string(), boundedNumber().min(0)).refine((quantities) => Object.keys(quantities).length > 0, "must hold at least one quantity"),
  })
  .superRefine((line, ctx) => {
    const allowed = QUANTITY_KEYS[line.kind];
    for (const key of Object.keys(line.quantities)) {
      if (!allowed.includes(key)) {
        ctx.addIssue({
          code: "custom",
          path: ["quantities", key],
          message: `unknown quantity '${key}' for kind '${line.kind}'; expected one of ${allowed.join(", ")}`,
        });
      }
    }
  })
  .meta({
    id: "UsageLine",
    override: {
      oneOf: (["model", "database"] as const).map((kind) => ({
        required: ["kind"],
        properties: { kind: { const: kind }, quantities: { propertyNames: { enum: [...QUANTITY_KEYS[kind]] } } },
      })),
    },
    description:
      "Usage of one resource at `timestamp`: token counts per token bucket (models) or hours, storage_gb_hours, io_requests, iops_hours, throughput_mbps_hours, vcpu_license_hours (databases).",
  });
export type UsageLineInput = z.input<typeof UsageLine>;
export type UsageLine = z.output<typeof UsageLine>;

const UsageLines = z.array(UsageLine).min(1).max(10000);

export const UsageRequest = z.object({ usage: UsageLines }).meta({ id: "UsageRequest", description: "1-10000 usage lines to price without storing them." });
export type UsageRequest = z.output<typeof UsageRequest>;

export const UnresolvedReason = z
  .enum(["no_pricing_label", "unknown_pricing_id", "closed", "not_yet_effective", "bucket_not_priced"])
  .meta({ id: "UnresolvedReason", description: "Why a usage line could not be priced." });
export type UnresolvedReason = z.infer<typeof UnresolvedReason>;

export const PricedLine = z
  .object({
    index: z.number().int().nonnegative(),
    resource_id: z.string(),
    kind: PinKind,
    resolved: z.boolean(),
    pricing_id: ServiceId.nullable(),
    reason: UnresolvedReason.nullable(),
    currency: Currency.nullable(),
    unit_prices: z.record(z.string(), z.number()).nullable(),
    cost: z.number().nullable(),
  })
  .meta({ id: "PricedLine", description: "A priced usage line; unresolved lines have a `reason` and `cost: null`." });
export type PricedLine = z.infer<typeof PricedLine>;

export const InternalPricedLine = PricedLine.extend({
  model_id: z.string().nullable().optional().meta({
    description:
      "Model lines: the `model_id` of the price entry that priced the line (its `model` when the entry has no `model_id`); null otherwise. Absent from a pricing API older than the field.",
  }),
}).meta({ id: "InternalPricedLine", description: "Internal: a priced usage line with the model of the entry that priced it." });
export type InternalPricedLine = z.infer<typeof InternalPricedLine>;

export const CurrencyTotal = z
  .object({ currency: Currency, cost: z.number() })
  .meta({ id: "CurrencyTotal", description: "Total cost of the resolved lines in one currency." });
export type CurrencyTotal = z.infer<typeof CurrencyTotal>;

export const UsageResponse = z
  .object({ lines: z.array(PricedLine), totals: z.array(CurrencyTotal) })
  .meta({ id: "UsageResponse", description: "Priced lines in request order and totals per currency." });
export type UsageResponse = z.infer<typeof UsageResponse>;

export const InternalUsageResponse = z
  .object({ lines: z.array(InternalPricedLine), totals: z.array(CurrencyTotal) })
  .meta({ id: "InternalUsageResponse", description: "Internal: priced lines (with the entry's model) in request order and totals per currency." });
export type InternalUsageResponse = z.infer<typeof InternalUsageResponse>;

export const CreateReportRequest = z
  .object({ name: z.string().trim().min(1).max(200), usage: UsageLines })
  .meta({ id: "CreateReportRequest", description: "Prices and stores a named set of usage lines." });
export type CreateReportRequest = z.output<typeof CreateReportRequest>;

export const Report = z
  .object({
    id: ServiceId,
    name: z.string(),
    created_at: TimestampOutput,
    lines: z.array(PricedLine),
    totals: z.array(CurrencyTotal),
  })
  .meta({ id: "Report", description: "A stored report, exactly as priced at creation." });
export type Report = z.infer<typeof Report>;

export const ReportPathParams = z.object({ id: ServiceId }).meta({ id: "ReportPathParams", description: "Path parameter of /v1/pricing/reports/{id}." });
export type ReportPathParams = z.infer<typeof ReportPathParams>;
