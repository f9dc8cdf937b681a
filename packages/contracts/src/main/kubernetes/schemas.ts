import { z } from "zod";
import { CustomerId, MAX_CPU_CORES, MAX_RAM_GB, Timestamp, queryBoolean, recentTimestamp } from "../../common.js";
import { MAX_NODE_GPUS } from "../compute/schemas.js";

const Name = z
  .string()
  .min(1)
  .max(256)
  .regex(/^\P{Cc}+$/u, "must not contain control characters");
// A pod's requests and usage: none (0) up to the largest machine (common.ts).
const Cores = z.number().nonnegative().max(MAX_CPU_CORES);
const Gigabytes = z.number().nonnegative().max(MAX_RAM_GB);
const Gpus = z.number().nonnegative().max(MAX_NODE_GPUS);

export const PodSample = z
  .object({
    cluster: Name,
    namespace: Name,
    pod: Name,
    node: CustomerId.meta({ description: "The `resource_id` of a `kubernetes_node` resource of the tenant." }),
    controller_kind: Name.optional(),
    controller_name: Name.optional(),
    labels: z.record(z.string().max(256), z.string().max(256)).optional(),
    timestamp: recentTimestamp().meta({ description: "Within the hour it stands for; not in the future, at most 93 days ago." }),
    cpu_request_cores: Cores,
    memory_request_gb: Gigabytes,
    cpu_usage_cores: Cores.optional(),
    memory_usage_gb: Gigabytes.optional(),
    gpu_request: Gpus.optional().meta({ description: "GPUs the pod requests (default 0)." }),
  })
  .meta({ id: "PodSample", description: "One pod's requests and usage in the hour of `timestamp`; a re-sent sample of the same pod and hour replaces it." });
export type PodSample = z.output<typeof PodSample>;

export const IngestPodsRequest = z
  .object({ samples: z.array(PodSample).min(1).max(10000) })
  .meta({ id: "IngestPodsRequest", description: "1-10000 hourly pod samples on known nodes, accepted all or nothing." });
export type IngestPodsRequest = z.output<typeof IngestPodsRequest>;

export const IngestPodsResponse = z
  .object({ accepted: z.number().int().nonnegative() })
  .meta({ id: "IngestPodsResponse", description: "Number of samples accepted." });

const WholeHour = z
  .union([z.iso.date().transform((day) => `${day}T00:00:00.000Z`), Timestamp])
  .refine((value) => value.endsWith(":00:00.000Z"), "must be a whole hour (YYYY-MM-DD or an RFC 3339 timestamp on the hour)")
  .meta({ override: { type: "string", description: "YYYY-MM-DD (its UTC midnight), or an RFC 3339 timestamp on a whole hour." } });
const isMidnight = (value: string) => value.endsWith("T00:00:00.000Z");

export const ALLOCATION_MAX_DAYS = 93;
const LABEL_AGGREGATE = /^label:[^\p{Cc}]{1,256}$/u;

export const AllocationAggregate = z
  .union([
    z.enum(["cluster", "namespace", "controller", "pod"]),
    z.string().regex(LABEL_AGGREGATE, "must be cluster, namespace, controller, pod or label:<key>"),
  ])
  .meta({ override: { type: "string", description: "`cluster`, `namespace`, `controller`, `pod` or `label:<key>`." } });

const DAY_MS = 86_400_000;
const midnight = (ms: number) => new Date(Math.floor(ms / DAY_MS) * DAY_MS).toISOString();
const monthStart = (ms: number) => {
  const d = new Date(ms);
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1)).toISOString();
};

export const AllocationQuery = z
  .looseObject({
    start: WholeHour.optional(),
    end: WholeHour.optional(),
    aggregate: AllocationAggregate.default("namespace"),
    share_idle: queryBoolean.default(false),
    step: z.enum(["day"]).optional(),
  })
  .transform((query, ctx) => {
    // Default: the current calendar month, today included.
    const end = query.end ?? midnight(Date.now() + DAY_MS);
    const start = query.start ?? monthStart(Date.parse(end) - DAY_MS);
    const span = Date.parse(end) - Date.parse(start);
    if (span <= 0) ctx.addIssue({ code: "custom", path: ["end"], message: "must be after start" });
    else if (span > ALLOCATION_MAX_DAYS * DAY_MS)
      ctx.addIssue({ code: "custom", path: ["end"], message: `the range may span at most ${ALLOCATION_MAX_DAYS} days` });
    if (query.step === "day" && !(isMidnight(start) && isMidnight(end)))
      ctx.addIssue({ code: "custom", path: ["step"], message: "step=day needs start and end on UTC midnights" });
    return { ...query, start, end };
  })
  .meta({
    id: "AllocationQuery",
    description: `Whole hours (or UTC days) \`start\` (inclusive) to \`end\` (exclusive), default the current month with today, at most ${ALLOCATION_MAX_DAYS} days; \`aggregate\` (default namespace); \`share_idle\` (default false); \`step=day\` (whole days only) adds a breakdown per day.`,
  });
export type AllocationQuery = z.output<typeof AllocationQuery>;

const Cents = z
  .string()
  .regex(/^-?\d+\.\d{2}$/)
  .meta({ description: "USD, exact, two decimals." });

export const AllocationRow = z
  .object({
    group: z.string(),
    cpu_core_hours: z.number(),
    ram_gb_hours: z.number(),
    gpu_hours: z.number(),
    cpu_cost: Cents,
    ram_cost: Cents,
    gpu_cost: Cents,
    total_cost: Cents,
    efficiency: z.number().min(0).max(1).nullable(),
  })
  .meta({
    id: "AllocationRow",
    description:
      "One group's claimed core-hours, GB-hours and GPU-hours and their cost (for `__idle__`: each resource's idle); efficiency = usage cost / allocated cost (shared idle excluded), null for `__idle__`. `__unallocated__` groups pods without the label.",
  });
export type AllocationRow = z.infer<typeof AllocationRow>;

export const AllocationBasis = z
  .object({
    bill_node_days: z
      .number()
      .int()
      .nonnegative()
      .meta({ description: "Node-days priced from the bill (the effective cost of the node's spend lines that day)." }),
    catalog_node_days: z.number().int().nonnegative().meta({ description: "Node-days priced at the catalog's effective price of the node's type." }),
  })
  .meta({ id: "AllocationBasis", description: "Where the nodes' prices came from, in node-days (a node billed on a day)." });

export const AllocationTotals = z
  .object({
    cpu_core_hours: z.number(),
    ram_gb_hours: z.number(),
    gpu_hours: z.number(),
    cpu_cost: Cents,
    ram_cost: Cents,
    gpu_cost: Cents,
    total_cost: Cents,
    basis: AllocationBasis,
  })
  .meta({ id: "AllocationTotals", description: "The rows' sums: the nodes' cost over the range, and the basis of its prices." });

export const AllocationDay = z
  .object({ date: z.iso.date(), rows: z.array(AllocationRow), totals: AllocationTotals })
  .meta({ id: "AllocationDay", description: "The allocation of one UTC day (idle shared within that day)." });

export const Allocation = z
  .object({
    start: z.string(),
    end: z.string(),
    aggregate: z.string(),
    share_idle: z.boolean(),
    rows: z.array(AllocationRow),
    totals: AllocationTotals,
    unpriced_nodes: z.array(z.string()).meta({ description: "Nodes billed in the range whose type has no price (they count as 0; at most 100 named)." }),
    nodes_without_pods: z.array(z.string()).meta({
      description:
        "Nodes billed in the range on which no pod was sampled: their whole cost is idle, most likely because no agent sends their pods (at most 100 named, in byte order).",
    }),
    days: z.array(AllocationDay).optional(),
  })
  .meta({ id: "Allocation", description: "Rows by total cost descending, then group in byte order; `__idle__` last. Rows sum exactly to the totals." });
export type Allocation = z.infer<typeof Allocation>;

export const NodePoolShape = z
  .object({ instance_type: z.string(), nodes: z.number().int().nonnegative(), monthly_cost_usd: z.number().nullable() })
  .meta({ id: "NodePoolShape", description: "A node pool's type, node count and monthly cost (hourly x 730 x nodes)." });

export const NodePoolRecommendation = z
  .object({
    cluster: z.string(),
    node_pool: z.string(),
    current: NodePoolShape,
    recommended: NodePoolShape.nullable(),
    savings_monthly_usd: z.number(),
    requests: z.object({ cpu_cores: z.number(), memory_gb: z.number(), gpus: z.number() }),
    largest_pod: z.object({ cpu_cores: z.number(), memory_gb: z.number(), gpus: z.number() }),
    min_nodes: z.number().int().positive().meta({ description: "The pool's floor: its setting, else 2 (1 for a pool of one node)." }),
    hours: z.number().int().nonnegative().meta({ description: "Hours of the lookback window with pod samples in the pool." }),
  })
  .meta({
    id: "NodePoolRecommendation",
    description:
      "Requests at the pool's p95 hour and the largest pod; the cheapest (type, count) that fits them at 85% of each node's allocatable capacity, at least `min_nodes` nodes; a GPU pool is packed by its GPU requests among types of the same accelerator (null when no candidate or the pool's type has no price).",
  });
export type NodePoolRecommendation = z.infer<typeof NodePoolRecommendation>;

export const NodePoolRecommendations = z
  .object({ items: z.array(NodePoolRecommendation), lookback_days: z.number().int() })
  .meta({ id: "NodePoolRecommendations", description: "One item per (cluster, node_pool), in byte order." });
export type NodePoolRecommendations = z.infer<typeof NodePoolRecommendations>;

export const NodePoolSetting = z
  .object({
    cluster: Name,
    node_pool: Name,
    min_nodes: z.number().int().min(1).max(1000).nullable().meta({ description: "The pool's floor; null removes the setting (back to the default)." }),
  })
  .meta({ id: "NodePoolSetting", description: "A node pool's right-sizing floor." });
export type NodePoolSetting = z.output<typeof NodePoolSetting>;
