import { z } from "zod";
import { CustomerId, PaginationQuery, Timestamp, TimestampOutput, queryArray, queryBoolean } from "../common.js";
import { Page } from "./identity.js";

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

const Attribute = z.string().min(1).max(256);
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
    cpu_cores: z.number().positive().optional(),
    ram_gb: z.number().positive().optional(),
    labels: Labels.optional(),
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

export const MetricSample = z
  .object({ resource_id: CustomerId, timestamp: Timestamp, cpu_utilization: Percent, memory_utilization: Percent.optional() })
  .meta({ id: "MetricSample", description: "One utilization sample (percentages 0-100); also a heartbeat." });
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

export const RecommendationsQuery = SummaryQuery.extend({
  action: queryArray(ActionFilter).optional(),
  ...PaginationQuery.shape,
}).meta({ id: "RecommendationsQuery", description: "Summary filters plus `action` and pagination." });
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

export const RecommendationItem = ComputeResource.extend({
  active: z.boolean(),
  action: Action.nullable(),
  current_instance_type: z.string().nullable(),
  recommended_instance_type: z.string().nullable(),
  current_monthly_cost_usd: z.number().nullable(),
  recommended_monthly_cost_usd: z.number().nullable(),
  savings_monthly_usd: z.number().nullable(),
  stats: RecommendationStats.nullable(),
  analyzed_at: TimestampOutput.nullable(),
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
