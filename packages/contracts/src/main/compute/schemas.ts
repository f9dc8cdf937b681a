import { z } from "zod";
import { CpuCores, CustomerId, PaginationQuery, RamGb, Timestamp, TimestampOutput, queryArray, queryBoolean, recentTimestamp } from "../../common.js";
import { Page } from "../fields.js";

export const ResourceType = z.enum(["virtual_machine", "kubernetes_node"]).meta({ id: "ResourceType", description: "Kind of compute resource." });
export type ResourceType = z.infer<typeof ResourceType>;

export const Architecture = z.enum(["x86_64", "arm64"]).meta({ id: "Architecture", description: "CPU architecture." });
export type Architecture = z.infer<typeof Architecture>;

export const OperatingSystem = z.enum(["linux", "windows"]).meta({ id: "OperatingSystem", description: "Operating system." });
export type OperatingSystem = z.infer<typeof OperatingSystem>;

export const Action = z
  .enum(["DOWNSIZE", "UPSIZE", "TERMINATE", "NOOP", "NO_RECOMMENDATION"])
  .meta({ id: "Action", description: "Right-sizing action of an analyzed resource." });
export type Action = z.infer<typeof Action>;

/** Action filter values: the actions plus PENDING (not analyzed yet). */
export const ActionFilter = z
  .enum([...Action.options, "PENDING"])
  .meta({ id: "ActionFilter", description: "An action, or PENDING for resources not analyzed yet." });
export type ActionFilter = z.infer<typeof ActionFilter>;

export const PurchaseOption = z
  .enum(["on_demand", "spot", "reserved"])
  .meta({ id: "PurchaseOption", description: "How the resource is bought: spot resources are priced with spot prices, the others with the effective price." });
export type PurchaseOption = z.infer<typeof PurchaseOption>;

export const FindingReason = z
  .enum([
    "idle",
    "cpu_over_provisioned",
    "memory_over_provisioned",
    "cpu_under_provisioned",
    "memory_under_provisioned",
    "insufficient_data",
    "memory_unknown",
    "no_candidate",
    "unpriced_type",
    "recently_resized",
    "commitment_covered",
    "burst_credits_exhausted",
  ])
  .meta({ id: "FindingReason", description: "Why the analysis reached its action." });
export type FindingReason = z.infer<typeof FindingReason>;

const Attribute = z.string().min(1).max(256);
/** The most GPUs a node can state (the largest machines have 16; room for more). */
export const MAX_NODE_GPUS = 64;
const OBSERVED_AT_MAX_AGE_DAYS = 93;
/** When the collector saw this shape (a resize's time): not in the future (5 minutes of skew), at most 93 days ago. */
const ObservedAt = recentTimestamp(OBSERVED_AT_MAX_AGE_DAYS).meta({
  description: "When the inventory collector saw this shape (default: now); not in the future, at most 93 days ago.",
});
const Labels = z.record(z.string(), z.string());

export const ComputeResourceInput = z
  .object({
    resource_id: CustomerId,
    name: z.string().max(256).optional(),
    resource_type: ResourceType.default("virtual_machine"),
    provider: Attribute.optional(),
    region: Attribute.optional(),
    availability_zone: Attribute.optional(),
    instance_type: Attribute.optional(),
    architecture: Architecture.optional(),
    operating_system: OperatingSystem.optional(),
    cpu_cores: CpuCores.optional(),
    ram_gb: RamGb.optional(),
    labels: Labels.optional(),
    purchase_option: PurchaseOption.default("on_demand"),
    observed_at: ObservedAt.optional(),
    cluster: Attribute.optional().meta({ description: "A `kubernetes_node`'s cluster." }),
    node_pool: Attribute.optional().meta({ description: "A `kubernetes_node`'s node pool." }),
    gpu_count: z
      .number()
      .int()
      .min(0)
      .max(MAX_NODE_GPUS)
      .optional()
      .meta({ description: "A `kubernetes_node`'s GPUs (default: the catalog's accelerator count of its type)." }),
  })
  .meta({ id: "ComputeResourceInput", description: "A compute resource of the inventory, identified by `resource_id`." });
export type ComputeResourceInput = z.input<typeof ComputeResourceInput>;
export type ComputeResourceData = z.output<typeof ComputeResourceInput>;

/** A resource as returned: every field present, absent ones null, labels `{}`. */
export const ComputeResource = z
  .object({
    resource_id: z.string(),
    name: z.string().nullable(),
    resource_type: ResourceType,
    provider: z.string().nullable(),
    region: z.string().nullable(),
    availability_zone: z.string().nullable(),
    instance_type: z.string().nullable(),
    architecture: Architecture.nullable(),
    operating_system: OperatingSystem.nullable(),
    cpu_cores: z.number().nullable(),
    ram_gb: z.number().nullable(),
    labels: Labels,
    purchase_option: PurchaseOption,
    // Optional so a client keeps parsing answers of a main API from before these fields; this API always sends them.
    cluster: z.string().nullable().optional().meta({ description: "A `kubernetes_node`'s cluster, else null." }),
    node_pool: z.string().nullable().optional().meta({ description: "A `kubernetes_node`'s node pool, else null." }),
    gpu_count: z.number().int().nullable().optional().meta({ description: "The GPUs stated for a `kubernetes_node`, else null." }),
  })
  .meta({ id: "ComputeResource", description: "A compute resource of the inventory." });
export type ComputeResource = z.infer<typeof ComputeResource>;

export const UpsertResourcesRequest = z
  .object({ resources: z.array(ComputeResourceInput).min(1).max(1000) })
  .superRefine(({ resources }, ctx) => {
    const seen = new Set<string>();
    resources.forEach((resource, index) => {
      if (seen.has(resource.resource_id)) {
        ctx.addIssue({ code: "custom", path: ["resources", index, "resource_id"], message: `duplicate resource_id '${resource.resource_id}'` });
      }
      seen.add(resource.resource_id);
    });
  })
  .meta({ id: "UpsertResourcesRequest", description: "1-1000 resources with distinct `resource_id`s, upserted all or nothing." });
export type UpsertResourcesRequest = z.output<typeof UpsertResourcesRequest>;

export const UpsertResourcesResponse = z
  .object({ upserted: z.number().int().nonnegative() })
  .meta({ id: "UpsertResourcesResponse", description: "Number of resources upserted." });
export type UpsertResourcesResponse = z.infer<typeof UpsertResourcesResponse>;

const Percent = z.number().min(0).max(100);
const BytesPerSecond = z.number().nonnegative().max(1e15);

export const MetricSample = z
  .object({
    resource_id: CustomerId,
    timestamp: Timestamp,
    cpu_utilization: Percent,
    memory_utilization: Percent.optional(),
    network_in_bytes_per_s: BytesPerSecond.optional(),
    network_out_bytes_per_s: BytesPerSecond.optional(),
  })
  .meta({
    id: "MetricSample",
    description: "One utilization sample (percentages 0-100, stored rounded half-up to two decimals; network in bytes per second); also a heartbeat.",
  });
export type MetricSample = z.output<typeof MetricSample>;

export const IngestMetricsRequest = z
  .object({ samples: z.array(MetricSample).min(1).max(10000) })
  .meta({ id: "IngestMetricsRequest", description: "1-10000 samples of known resources, accepted all or nothing." });
export type IngestMetricsRequest = z.output<typeof IngestMetricsRequest>;

export const IngestMetricsResponse = z
  .object({ accepted: z.number().int().nonnegative() })
  .meta({ id: "IngestMetricsResponse", description: "Number of samples accepted." });
export type IngestMetricsResponse = z.infer<typeof IngestMetricsResponse>;

export const HeartbeatsRequest = z
  .object({ resource_ids: z.array(CustomerId).min(1).max(10000), timestamp: Timestamp.optional() })
  .meta({ id: "HeartbeatsRequest", description: "Marks resources alive at `timestamp` (default now)." });
export type HeartbeatsRequest = z.output<typeof HeartbeatsRequest>;

export const HeartbeatsResponse = z
  .object({ accepted: z.number().int().nonnegative() })
  .meta({ id: "HeartbeatsResponse", description: "Number of heartbeats recorded." });
export type HeartbeatsResponse = z.infer<typeof HeartbeatsResponse>;

// PostgreSQL text cannot hold NUL: a filter value with one would fail the query (a 500), so it is a 400.
const Filter = queryArray(
  z
    .string()
    .max(256)
    // biome-ignore lint/suspicious/noControlCharactersInRegex: matching NUL is the point; the pattern is also the OpenAPI `pattern`.
    .regex(/^[^\u0000]*$/, "must not contain NUL characters"),
).optional();

export const SummaryQuery = z
  .object({
    resource_type: ResourceType.default("virtual_machine"),
    provider: Filter,
    region: Filter,
    availability_zone: Filter,
    instance_type: Filter,
    architecture: queryArray(Architecture).optional(),
    operating_system: queryArray(OperatingSystem).optional(),
    active: queryBoolean.optional(),
  })
  .meta({
    id: "SummaryQuery",
    description: "Filters; array parameters accept `a,b`, repeated parameters or both. An empty list filters nothing.",
  });
export type SummaryQuery = z.output<typeof SummaryQuery>;

export const RecommendationState = z
  .enum(["open", "accepted", "dismissed", "snoozed"])
  .meta({ id: "RecommendationState", description: "What the team decided about a recommendation; `open` until someone decides." });
export type RecommendationState = z.infer<typeof RecommendationState>;

export const RecommendationsQuery = SummaryQuery.extend({
  action: queryArray(ActionFilter).optional(),
  state: queryArray(RecommendationState).optional(),
  include_retired: queryBoolean.optional(),
  ...PaginationQuery.shape,
}).meta({ id: "RecommendationsQuery", description: "Summary filters plus `action`, `state`, `include_retired` and pagination." });
export type RecommendationsQuery = z.output<typeof RecommendationsQuery>;

const Count = z.number().int().nonnegative();

export const ActionCounts = z
  .object({ downsize: Count, upsize: Count, terminate: Count, noop: Count, no_recommendation: Count, pending: Count })
  .meta({ id: "ActionCounts", description: "Matching resources per action; the six counts sum to total_resources." });
export type ActionCounts = z.infer<typeof ActionCounts>;

export const TopSaver = z
  .object({
    resource_id: z.string(),
    name: z.string(),
    resource_type: ResourceType,
    current_instance_type: z.string(),
    recommended_instance_type: z.string(),
    savings_monthly_usd: z.number(),
  })
  .meta({ id: "TopSaver", description: "An actionable resource with positive monthly savings." });
export type TopSaver = z.infer<typeof TopSaver>;

export const RecommendationSummary = z
  .object({
    total_resources: Count,
    analyzed_resources: Count,
    analysis_coverage: z.number().min(0).max(1),
    action_counts: ActionCounts,
    actionable_count: Count,
    potential_savings_monthly_usd: z.number(),
    potential_savings_annual_usd: z.number(),
    top_savers: z.array(TopSaver).max(10),
  })
  .meta({ id: "RecommendationSummary", description: "Compute recommendation summary of one tenant." });
export type RecommendationSummary = z.infer<typeof RecommendationSummary>;

export const RecommendationStats = z
  .object({
    cpu_p95: z.number(),
    cpu_max: z.number(),
    memory_p95: z.number().nullable(),
    samples: Count,
    window_start: TimestampOutput,
    window_end: TimestampOutput,
  })
  .meta({ id: "RecommendationStats", description: "Utilization statistics of the samples the analysis used." });
export type RecommendationStats = z.infer<typeof RecommendationStats>;

export const PerformanceRisk = z.enum(["low", "medium", "high"]).meta({
  id: "PerformanceRisk",
  description: "`low`: projected p95 at most the target; `medium`: at most 10 points above; `high`: more.",
});
export type PerformanceRisk = z.infer<typeof PerformanceRisk>;
export const MigrationEffort = z.enum(["none", "low", "medium", "high"]).meta({
  id: "MigrationEffort",
  description: "`none`: same type; `low`: same family; `medium`: another family, same architecture; `high`: another architecture.",
});
export type MigrationEffort = z.infer<typeof MigrationEffort>;

export const RecommendationOption = z
  .object({
    instance_type: z.string(),
    cpu_cores: z.number(),
    ram_gb: z.number(),
    monthly_cost_usd: z.number(),
    savings_monthly_usd: z.number(),
    projected_cpu_p95: z.number(),
    projected_memory_p95: z.number().nullable(),
    performance_risk: PerformanceRisk,
    migration_effort: MigrationEffort,
  })
  .meta({ id: "RecommendationOption", description: "A qualifying instance type, ranked by monthly cost; the first is the recommended one." });
export type RecommendationOption = z.infer<typeof RecommendationOption>;

export const PriceProvenance = z
  .object({
    basis: z.enum(["effective", "list"]),
    source: z.enum(["catalog", "negotiated", "estimate"]).nullable(),
    price_date: z.string().nullable(),
  })
  .meta({
    id: "PriceProvenance",
    description:
      "Where the current and recommended prices came from: `negotiated` when either is the organization's negotiated price, else `estimate` when either is a Windows estimate (Linux + licence), else `catalog`; `price_date` is the older of their dates. Both null when nothing was priced.",
  });
export type PriceProvenance = z.infer<typeof PriceProvenance>;

export const RecommendationItem = ComputeResource.extend({
  active: z.boolean(),
  action: Action.nullable(),
  current_instance_type: z.string().nullable(),
  recommended_instance_type: z.string().nullable(),
  current_monthly_cost_usd: z.number().nullable(),
  recommended_monthly_cost_usd: z.number().nullable(),
  savings_monthly_usd: z.number().nullable(),
  stats: RecommendationStats.nullable(),
  finding_reasons: z.array(FindingReason),
  options: z.array(RecommendationOption).max(3),
  price: PriceProvenance.nullable(),
  analyzed_at: TimestampOutput.nullable(),
  state: RecommendationState,
  state_reason: z.string().nullable(),
  snoozed_until: TimestampOutput.nullable(),
  retired_at: TimestampOutput.nullable(),
}).meta({ id: "RecommendationItem", description: "A resource with its latest recommendation; `action` is null while pending." });
export type RecommendationItem = z.infer<typeof RecommendationItem>;

export const AnalyzeResponse = z
  .object({ analyzed_resources: Count, duration_ms: Count })
  .meta({ id: "AnalyzeResponse", description: "Result of an analysis cycle run on demand." });
export type AnalyzeResponse = z.infer<typeof AnalyzeResponse>;

export const RecommendationsPage = Page(RecommendationItem).meta({
  id: "RecommendationsPage",
  description: "A page of recommendations; `next_cursor` is null on the last page.",
});
export type RecommendationsPage = z.infer<typeof RecommendationsPage>;
