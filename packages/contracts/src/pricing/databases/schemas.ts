import { z } from "zod";
import { Currency, FreeObject, KeyText, MAX_CPU_CORES, MAX_RAM_GB, queryDecimal, ServiceId, TimestampOutput } from "../../common.js";
import { DeleteResponse, ExactAmount, ListResponse, RegisterResponse } from "../models/schemas.js";

/** Natural-key fields besides provider, service, region and period_billing_hours. */
export const DATABASE_OPTIONAL_KEY_FIELDS = [
  "availability_zone",
  "usage_type",
  "engine",
  "edition",
  "deployment_option",
  "billing_config",
  "storage_type",
  "instance_type",
  "architecture",
] as const;

export const DATABASE_NUMBER_FIELDS = [
  "cost_per_hour",
  "native_cost_per_hour",
  "cost_per_capacity_unit",
  "cost_per_io_request",
  "cost_per_iops_hour",
  "cost_per_storage_gb_hour",
  "native_cost_per_storage_gb_hour",
  "cost_per_throughput_mbps_hour",
  "cost_per_vcpu_license_hour",
  "cpu_cores",
  "cpu_cores_cost_per_hour",
  "ram_gb",
  "ram_gb_cost_per_hour",
  "min_iops",
  "max_iops",
  "min_storage_gb",
  "max_storage_gb",
  "min_throughput_mbps",
  "max_throughput_mbps",
] as const;

type OptionalKeyField = (typeof DATABASE_OPTIONAL_KEY_FIELDS)[number];
type NumberField = (typeof DATABASE_NUMBER_FIELDS)[number];

function shape<K extends string, S extends z.ZodType>(keys: readonly K[], schema: S): { [P in K]: S } {
  return Object.fromEntries(keys.map((key) => [key, schema])) as { [P in K]: S };
}

const RANGES = [
  ["min_iops", "max_iops"],
  ["min_storage_gb", "max_storage_gb"],
  ["min_throughput_mbps", "max_throughput_mbps"],
] as const;

export const DatabasePricingEntryInput = z
  .object({
    provider: KeyText.min(1),
    service: KeyText.min(1),
    region: KeyText.min(1),
    ...shape<OptionalKeyField, z.ZodOptional<z.ZodNullable<typeof KeyText>>>(DATABASE_OPTIONAL_KEY_FIELDS, KeyText.nullish()),
    period_billing_hours: ExactAmount.refine((hours) => hours > 0, "must be greater than 0").default(730),
    currency: Currency.default("USD"),
    capacity_unit: KeyText.nullish(),
    ...shape<NumberField, z.ZodOptional<z.ZodNullable<typeof ExactAmount>>>(DATABASE_NUMBER_FIELDS, ExactAmount.nullish()),
    // The instance's size, bounded as machines are everywhere (common.ts).
    cpu_cores: ExactAmount.max(MAX_CPU_CORES).nullish(),
    ram_gb: ExactAmount.max(MAX_RAM_GB).nullish(),
    raw_pricing_data: FreeObject.nullish(),
    tags: FreeObject.nullish(),
  })
  .superRefine((entry, ctx) => {
    for (const [min, max] of RANGES) {
      const low = entry[min];
      const high = entry[max];
      if (low != null && high != null && low > high) {
        ctx.addIssue({ code: "custom", path: [min], message: `${min} must not exceed ${max}` });
      }
    }
  })
  .meta({
    id: "DatabasePricingEntryInput",
    description: "A custom managed-database rate, upserted on its natural key.",
  });
export type DatabasePricingEntryInput = z.input<typeof DatabasePricingEntryInput>;
export type DatabasePricingEntryData = z.output<typeof DatabasePricingEntryInput>;

export const DatabasePricingEntry = z
  .object({
    id: ServiceId,
    provider: z.string(),
    service: z.string(),
    region: z.string(),
    ...shape<OptionalKeyField, z.ZodNullable<z.ZodString>>(DATABASE_OPTIONAL_KEY_FIELDS, z.string().nullable()),
    period_billing_hours: z.number(),
    currency: Currency,
    capacity_unit: z.string().nullable(),
    ...shape<NumberField, z.ZodNullable<z.ZodNumber>>(DATABASE_NUMBER_FIELDS, z.number().nullable()),
    created_at: TimestampOutput,
    updated_at: TimestampOutput,
    raw_pricing_data: FreeObject,
    tags: FreeObject,
  })
  .meta({ id: "DatabasePricingEntry", description: "A stored database pricing entry; absent optional fields are null." });
export type DatabasePricingEntry = z.infer<typeof DatabasePricingEntry>;

export const RegisterDatabasesRequest = z
  .object({ entries: z.array(DatabasePricingEntryInput).min(1).max(1000) })
  .meta({ id: "RegisterDatabasesRequest", description: "1-1000 database pricing entries, registered all or nothing." });
export type RegisterDatabasesRequest = z.output<typeof RegisterDatabasesRequest>;

export const RegisterDatabasesResponse = RegisterResponse(DatabasePricingEntry).meta({
  id: "RegisterDatabasesResponse",
  description: "The stored entries, each with its id.",
});
export type RegisterDatabasesResponse = z.infer<typeof RegisterDatabasesResponse>;

export const ListDatabasesResponse = ListResponse(DatabasePricingEntry).meta({
  id: "ListDatabasesResponse",
  description: "Matching entries.",
});
export type ListDatabasesResponse = z.infer<typeof ListDatabasesResponse>;

export const DeleteDatabasesResponse = DeleteResponse(DatabasePricingEntry).meta({
  id: "DeleteDatabasesResponse",
  description: "The removed entry.",
});
export type DeleteDatabasesResponse = z.infer<typeof DeleteDatabasesResponse>;

export const DatabaseListQuery = z
  .object({
    provider: KeyText.optional(),
    service: KeyText.optional(),
    region: KeyText.optional(),
    ...shape<OptionalKeyField, z.ZodOptional<typeof KeyText>>(DATABASE_OPTIONAL_KEY_FIELDS, KeyText.optional()),
    period_billing_hours: queryDecimal
      .pipe(z.number().positive())
      .meta({ override: { type: "number", exclusiveMinimum: 0, pattern: undefined } })
      .optional(),
  })
  .meta({ id: "DatabaseListQuery", description: "Natural-key filters." });
export type DatabaseListQuery = z.output<typeof DatabaseListQuery>;
