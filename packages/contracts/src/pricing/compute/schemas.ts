import { z } from "zod";
import { CpuCores, Currency, NonNegativeMoney, RamGb } from "../../common.js";
import { Architecture, OperatingSystem } from "../../main/compute/schemas.js";
import { ProblemDocument } from "../errors.js";

export const ComputeUsageType = z
  .enum(["on_demand", "spot"])
  .meta({ id: "ComputeUsageType", description: "Purchase option; spot prices are never estimated." });
export type ComputeUsageType = z.infer<typeof ComputeUsageType>;

export const ComputePriceSource = z.enum(["catalog", "estimate", "negotiated"]).meta({
  id: "ComputePriceSource",
  description: "`catalog`: exact instance type found; `estimate`: derived from rates; `negotiated`: the calling account's negotiated entry applies.",
});
export type ComputePriceSource = z.infer<typeof ComputePriceSource>;

const Text = z.string().min(1).max(256);

export const VmShape = z
  .object({ cpu_cores: CpuCores, ram_gb: RamGb })
  .meta({ id: "VmShape", description: "vCPUs and memory to price when no instance type is given or found." });
export type VmShape = z.infer<typeof VmShape>;

export const ComputePriceQuery = z
  .object({
    provider: Text,
    region: Text,
    instance_type: Text.optional(),
    vm: VmShape.optional(),
    operating_system: OperatingSystem.default("linux"),
    usage_type: ComputeUsageType.default("on_demand"),
    service: Text.default("compute"),
  })
  .refine((query) => query.instance_type !== undefined || query.vm !== undefined, {
    message: "instance_type or vm is required",
    path: ["instance_type"],
  })
  .meta({
    id: "ComputePriceQuery",
    description: "Price of one instance type, or an estimate for a vm shape: instance_type or vm is required.",
    override: { anyOf: [{ required: ["instance_type"] }, { required: ["vm"] }] },
  });
export type ComputePriceQueryInput = z.input<typeof ComputePriceQuery>;
export type ComputePriceQuery = z.output<typeof ComputePriceQuery>;

export const CatalogAccelerator = z
  .object({
    vendor: z.string().nullable(),
    model: z.string().nullable(),
    count: z.number().positive().nullable(),
  })
  .meta({
    id: "CatalogAccelerator",
    description:
      "The type's GPU, AI accelerator or FPGA: vendor (`nvidia`, `amd`, `aws`, `habana`, `xilinx`, `qualcomm`) and model as the vendor names it; `count` is a fraction where a size holds a known share of one device, null where that share is unknown.",
  });
export type CatalogAccelerator = z.infer<typeof CatalogAccelerator>;

export const CatalogPriceSource = z
  .object({ name: z.string(), url: z.string().nullable() })
  .meta({ id: "CatalogPriceSource", description: "Where the catalog price came from: the seed's source (`github:<owner>/<repo>@<commit>`) or `import`." });
export type CatalogPriceSource = z.infer<typeof CatalogPriceSource>;

// Optional so a client keeps parsing answers of a pricing API from before these fields; this API always sends them.
const catalogAttributes = {
  current_generation: z.boolean().nullable().optional().meta({ description: "false for a provider's previous-generation types; null when unknown." }),
  accelerator: CatalogAccelerator.nullable().optional(),
  burst_baseline_percent: z
    .number()
    .min(0)
    .max(100)
    .nullable()
    .optional()
    .meta({ description: "Burstable and shared-core types: the sustained share of each vCPU, in percent; null otherwise." }),
  local_storage_gb: z
    .number()
    .nonnegative()
    .nullable()
    .optional()
    .meta({ description: "Local (instance-store) disk in GB; 0 when the type has none; null when the source does not say." }),
  capabilities: z.array(z.string()).nullable().optional().meta({
    description:
      "Special-purpose traits, sorted: `bare_metal`, `confidential`, `constrained_vcpu`, `fpga`, `hpc`, `local_nvme`. null for an estimate without an instance type.",
  }),
  price_date: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}/)
    .nullable()
    .optional()
    .meta({ description: "Date of the price in its source (YYYY-MM-DD or RFC 3339); null when unknown." }),
  price_source: CatalogPriceSource.nullable().optional(),
};

// Optional so a client keeps parsing answers of a pricing API from before negotiated prices; this API always sends them.
const negotiatedFields = {
  list_price_per_hour: NonNegativeMoney.optional().meta({
    description: "The catalog (or estimated) price per hour before the account's negotiated entry; equal to price_per_hour when none applies.",
  }),
  pricing_id: z
    .string()
    .nullable()
    .optional()
    .meta({ description: "The id of the negotiated compute price entry applied (source `negotiated`); null otherwise." }),
};

export const ComputePrice = z
  .object({
    provider: z.string(),
    region: z.string(),
    service: z.string(),
    usage_type: ComputeUsageType,
    operating_system: OperatingSystem,
    instance_type: z.string().nullable(),
    architecture: Architecture.nullable(),
    cpu_cores: z.number(),
    ram_gb: z.number(),
    currency: Currency,
    price_per_hour: NonNegativeMoney,
    price_per_month: NonNegativeMoney,
    source: ComputePriceSource,
    note: z.string().nullable().optional(),
    ...negotiatedFields,
    ...catalogAttributes,
  })
  .meta({
    id: "ComputePrice",
    description: "Hourly and monthly (730 h) price; `instance_type`/`architecture` are null for an estimate from `vm` alone.",
  });
export type ComputePrice = z.infer<typeof ComputePrice>;

export const ComputeBatchRequest = z
  .object({ items: z.array(z.record(z.string(), z.unknown())).min(1).max(1000) })
  .meta({ id: "ComputeBatchRequest", description: "1-1000 compute price queries, each validated on its own." });
export type ComputeBatchRequest = z.infer<typeof ComputeBatchRequest>;

const Index = z.number().int().nonnegative();

export const ComputeBatchResult = z
  .union([z.object({ index: Index, price: ComputePrice }), z.object({ index: Index, problem: ProblemDocument })])
  .meta({ id: "ComputeBatchResult", description: "The price of item `index`, or the problem that item ran into." });
export type ComputeBatchResult = z.infer<typeof ComputeBatchResult>;

export const ComputeBatchResponse = z
  .object({ results: z.array(ComputeBatchResult) })
  .meta({ id: "ComputeBatchResponse", description: "One result per item, in request order." });
export type ComputeBatchResponse = z.infer<typeof ComputeBatchResponse>;

export const InstanceTypesQuery = z
  .object({
    provider: Text,
    region: Text,
    operating_system: OperatingSystem.default("linux"),
    architecture: Architecture.optional(),
    usage_type: ComputeUsageType.default("on_demand"),
  })
  .meta({
    id: "InstanceTypesQuery",
    description: "Catalog filters; provider and region are required, operating_system defaults to linux, usage_type to on_demand.",
  });
export type InstanceTypesQueryInput = z.input<typeof InstanceTypesQuery>;
export type InstanceTypesQuery = z.output<typeof InstanceTypesQuery>;

export const InstanceTypeRow = z
  .object({
    instance_type: z.string(),
    family: z.string(),
    cpu_cores: z.number(),
    ram_gb: z.number(),
    gpu_count: z.number().int().nonnegative(),
    burstable: z.boolean(),
    architecture: Architecture,
    operating_system: OperatingSystem,
    usage_type: ComputeUsageType,
    price_per_hour: NonNegativeMoney,
    currency: Currency,
    source: ComputePriceSource.optional(),
    ...negotiatedFields,
    ...catalogAttributes,
  })
  .meta({ id: "InstanceTypeRow", description: "One catalog row of an instance type." });
export type InstanceTypeRow = z.infer<typeof InstanceTypeRow>;

export const InstanceTypesResponse = z
  .object({ instance_types: z.array(InstanceTypeRow) })
  .meta({ id: "InstanceTypesResponse", description: "Catalog rows matching the filters." });
export type InstanceTypesResponse = z.infer<typeof InstanceTypesResponse>;
