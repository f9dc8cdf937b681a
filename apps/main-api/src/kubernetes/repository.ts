import { isSerializationFailure, type SqlClient, type SqlSession } from "@cloudcost/db";
import type { CheckedStatement, Columns, RowOf } from "@cloudcost/db";
import { retry } from "@cloudcost/http";

// Pod samples, their roll-ups (per node-hour and per node-day-group) and the reads of allocation
// and node-pool sizing. Every statement filters by tenant; every key leads with it.

/** Advisory lock class of pod ingests, one lock per tenant and cluster (the roll-up deltas read the rows they replace). */
const POD_INGEST_LOCK_CLASS = 39_001;

/**
 * Locks the batch's clusters of the tenant in byte order: ingests of one cluster run one after the
 * other, those of other clusters beside them (a sample's key includes its cluster, so they never
 * replace each other's rows; the roll-ups they share only add). Also lets the ingest's roll-up
 * aggregates of a full batch (10,000 rows) stay in memory.
 */
const LOCK_SQL = `
  SELECT string_agg(pg_advisory_xact_lock(${POD_INGEST_LOCK_CLASS}, hashtext($1 || '/' || c))::text, ',') AS held, set_config('work_mem', '64MB', true) AS work_mem
  FROM (SELECT DISTINCT c COLLATE "C" AS c FROM unnest($2::text[]) AS c ORDER BY 1) clusters`;

/** Two ingests of other clusters on one node meet in its roll-up rows: a deadlock between them is retried. */
const INGEST_ATTEMPTS = 3;

/**
 * Stores the samples and moves the three roll-ups by the difference to the rows they replace, in one
 * statement: every CTE reads the snapshot from before it, so `old` holds the replaced rows (looked up
 * within the batch's hours only, so a batch of new hours reads nothing). Ingests of one tenant are
 * serialized per cluster by LOCK_SQL, taken first in the same transaction, so no concurrent ingest
 * writes a key (which includes the cluster) between that snapshot and the write. The samples are
 * upserted through their key (splitting new keys from replaced ones joined the batch to `old`, which
 * a planner without statistics ran as a nested loop: seconds for a re-sent batch). Writes go in key order.
 */
export const POD_INGEST_SQL = `
  WITH v AS (
    SELECT * FROM unnest($2::text[], $3::text[], $4::text[], $5::timestamptz[], $6::text[], $7::text[], $8::jsonb[],
                         $9::numeric[], $10::numeric[], $11::numeric[], $12::numeric[])
      AS v(cluster, namespace, pod, hour, node, controller, labels, cpu_request, memory_request, cpu_usage, memory_usage)),
  missing AS (
    SELECT DISTINCT v.node AS id FROM v
    WHERE NOT EXISTS (SELECT 1 FROM compute_resources r WHERE r.tenant_id = $1 AND r.resource_id = v.node AND r.resource_type = 'kubernetes_node'
                        AND r.retired_at IS NULL)),
  old AS (
    SELECT p.cluster, p.namespace, p.pod, p.hour, p.node, p.controller, p.cpu_request, p.memory_request, p.cpu_usage, p.memory_usage
    FROM kubernetes_pod_samples p JOIN v ON p.cluster = v.cluster AND p.namespace = v.namespace AND p.pod = v.pod AND p.hour = v.hour
    WHERE p.tenant_id = $1 AND p.hour BETWEEN (SELECT min(hour) FROM v) AND (SELECT max(hour) FROM v) AND NOT EXISTS (SELECT 1 FROM missing)),
  stored AS (
    INSERT INTO kubernetes_pod_samples AS p (tenant_id, cluster, namespace, pod, hour, node, controller, labels, cpu_request, memory_request, cpu_usage, memory_usage)
    SELECT $1, v.* FROM v WHERE NOT EXISTS (SELECT 1 FROM missing)
    ORDER BY v.hour, v.cluster COLLATE "C", v.namespace COLLATE "C", v.pod COLLATE "C"
    ON CONFLICT (tenant_id, hour, cluster, namespace, pod) DO UPDATE SET
      node = excluded.node, controller = excluded.controller, labels = excluded.labels, cpu_request = excluded.cpu_request,
      memory_request = excluded.memory_request, cpu_usage = excluded.cpu_usage, memory_usage = excluded.memory_usage
    RETURNING p.cluster, p.namespace, p.pod, p.hour, p.node, p.controller, p.cpu_request, p.memory_request, p.cpu_usage, p.memory_usage),
  delta AS (
    SELECT 1 AS sign, s.*, greatest(s.cpu_request, coalesce(s.cpu_usage, 0)) AS cpu_claim, greatest(s.memory_request, coalesce(s.memory_usage, 0)) AS memory_claim
    FROM stored s
    UNION ALL
    SELECT -1 AS sign, o.*, greatest(o.cpu_request, coalesce(o.cpu_usage, 0)), greatest(o.memory_request, coalesce(o.memory_usage, 0)) FROM old o),
  -- Per node and hour once: the node-hour roll-up and, through it, the node-day one.
  per_node_hour AS MATERIALIZED (
    SELECT node, hour, sum(sign)::int AS pods, sum(sign * cpu_request) AS cpu_request, sum(sign * memory_request) AS memory_request,
      sum(sign * cpu_claim) AS cpu_claim, sum(sign * memory_claim) AS memory_claim, min(cluster) AS cluster
    FROM delta GROUP BY node, hour),
  node_hours AS (
    INSERT INTO kubernetes_node_hours AS h (tenant_id, node, hour, pods, cpu_request, memory_request)
    SELECT $1, node, hour, pods, cpu_request, memory_request FROM per_node_hour ORDER BY node COLLATE "C", hour
    ON CONFLICT (tenant_id, node, hour) DO UPDATE SET
      pods = h.pods + excluded.pods, cpu_request = h.cpu_request + excluded.cpu_request, memory_request = h.memory_request + excluded.memory_request
    RETURNING h.node, h.hour, (h.xmax = 0) AS inserted),
  -- A node-hour seen for the first time adds an hour to its day.
  node_days AS (
    INSERT INTO kubernetes_node_days AS d (tenant_id, day, node, cluster, hours, cpu_claim, memory_claim)
    SELECT $1, (n.hour AT TIME ZONE 'UTC')::date, n.node, min(n.cluster), count(*) FILTER (WHERE h.inserted)::int, sum(n.cpu_claim), sum(n.memory_claim)
    FROM per_node_hour n JOIN node_hours h ON h.node = n.node AND h.hour = n.hour
    GROUP BY 2, n.node ORDER BY 2, n.node COLLATE "C"
    ON CONFLICT (tenant_id, day, node) DO UPDATE SET
      hours = d.hours + excluded.hours, cpu_claim = d.cpu_claim + excluded.cpu_claim, memory_claim = d.memory_claim + excluded.memory_claim,
      cluster = coalesce(d.cluster, excluded.cluster)),
  claim_days AS (
    INSERT INTO kubernetes_claim_days AS d (tenant_id, day, node, cluster, namespace, controller, samples, cpu_claim, memory_claim, cpu_usage, memory_usage)
    SELECT $1, (hour AT TIME ZONE 'UTC')::date, node, cluster, namespace, controller, sum(sign)::int, sum(sign * cpu_claim), sum(sign * memory_claim),
      sum(sign * coalesce(cpu_usage, 0)), sum(sign * coalesce(memory_usage, 0))
    FROM delta
    GROUP BY 2, node, cluster, namespace, controller
    ORDER BY 2, node COLLATE "C", cluster COLLATE "C", namespace COLLATE "C", controller COLLATE "C"
    ON CONFLICT (tenant_id, day, node, cluster, namespace, controller) DO UPDATE SET
      samples = d.samples + excluded.samples, cpu_claim = d.cpu_claim + excluded.cpu_claim, memory_claim = d.memory_claim + excluded.memory_claim,
      cpu_usage = d.cpu_usage + excluded.cpu_usage, memory_usage = d.memory_usage + excluded.memory_usage)
  SELECT id FROM missing ORDER BY id COLLATE "C" LIMIT 5`;

const UNKNOWN_NODE_COLUMNS = { id: "text" } as const;
export type UnknownNode = RowOf<typeof UNKNOWN_NODE_COLUMNS>;

/** Pod samples as the array literals POD_INGEST_SQL takes (pods-service.ts builds them). */
export interface PodArrays {
  clusters: string;
  namespaces: string;
  pods: string;
  hours: string;
  nodes: string;
  controllers: string;
  labels: string;
  cpuRequests: string;
  memoryRequests: string;
  cpuUsages: string;
  memoryUsages: string;
}

/** Stores the batch in one transaction; answers up to five unknown nodes, in which case nothing was stored. */
export function insertPodSamples(sql: SqlClient, tenantId: string, batch: PodArrays): Promise<UnknownNode[]> {
  const attempt = () =>
    sql.withSession(async (session) => {
      await session.query("BEGIN");
      try {
        await session.query(LOCK_SQL, [tenantId, batch.clusters]);
        const unknown = await session.query<UnknownNode>(POD_INGEST_SQL, [
          tenantId,
          batch.clusters,
          batch.namespaces,
          batch.pods,
          batch.hours,
          batch.nodes,
          batch.controllers,
          batch.labels,
          batch.cpuRequests,
          batch.memoryRequests,
          batch.cpuUsages,
          batch.memoryUsages,
        ]);
        await session.query(unknown.length ? "ROLLBACK" : "COMMIT");
        return unknown;
      } catch (err) {
        await session.query("ROLLBACK").catch(() => undefined);
        throw err;
      }
    });
  return retry(attempt, { attempts: INGEST_ATTEMPTS, retryable: isSerializationFailure, backoff: { baseMs: 20, maxMs: 200, jitter: 0.5 } });
}

/** A heartbeat of a Kubernetes node makes it billed for that hour (no-op for other resources). */
export const NODE_HEARTBEAT_HOURS_SQL = `
  WITH hours AS (
    INSERT INTO kubernetes_node_hours (tenant_id, node, hour)
    SELECT $1, r.resource_id, date_trunc('hour', $3::timestamptz AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'
    FROM compute_resources r WHERE r.tenant_id = $1 AND r.resource_id = ANY($2::text[]) AND r.resource_type = 'kubernetes_node'
    ORDER BY r.resource_id COLLATE "C"
    ON CONFLICT (tenant_id, node, hour) DO NOTHING
    RETURNING node, hour)
  INSERT INTO kubernetes_node_days AS d (tenant_id, day, node, hours)
  SELECT $1, (hour AT TIME ZONE 'UTC')::date, node, count(*)::int FROM hours GROUP BY 2, node ORDER BY 2, node COLLATE "C"
  ON CONFLICT (tenant_id, day, node) DO UPDATE SET hours = d.hours + excluded.hours`;

export async function recordNodeHeartbeatHours(
  tx: { $executeRawUnsafe(sql: string, ...values: unknown[]): Promise<number> },
  tenantId: string,
  ids: string[],
  at: string,
): Promise<void> {
  await tx.$executeRawUnsafe(NODE_HEARTBEAT_HOURS_SQL, tenantId, ids, at);
}

const NODE_COLUMNS = {
  node: "text",
  cluster: "text null",
  node_pool: "text null",
  provider: "text null",
  region: "text null",
  instance_type: "text null",
  architecture: "text null",
  operating_system: "text null",
  purchase_option: "text",
  cpu_cores: "float8 null",
  ram_gb: "float8 null",
  retired: "bool",
} as const satisfies Columns;
export type NodeRow = RowOf<typeof NODE_COLUMNS>;

const NODES_SQL = `SELECT resource_id AS node, cluster, node_pool, provider, region, instance_type, architecture, operating_system,
    purchase_option, cpu_cores, ram_gb, retired_at IS NOT NULL AS retired
  FROM compute_resources WHERE tenant_id = $1 AND resource_type = 'kubernetes_node' ORDER BY resource_id COLLATE "C"`;

/** The tenant's Kubernetes nodes, retired ones too (they cost what they ran before). */
export function findNodes(sql: SqlSession, tenantId: string): Promise<NodeRow[]> {
  return sql.query<NodeRow>(NODES_SQL, [tenantId]);
}

const ALLOCATION_COLUMNS = {
  day: "text null",
  cluster: "text",
  grp: "text",
  capacity: "bool",
  cpu_hours: "text",
  ram_hours: "text",
  cpu_cost: "text",
  ram_cost: "text",
  usage_cost: "text",
} as const satisfies Columns;
export type AllocationSqlRow = RowOf<typeof ALLOCATION_COLUMNS>;

/**
 * The allocation arithmetic over `claims` (rows of day, node, grp and claimed and used core-hours
 * and GB-hours). Per node: its hourly price split into CPU and memory by the capacity weights, and
 * the price of one core-hour and GB-hour (the CPU or memory price over its cores or GB). Per
 * node-day (one roll-up row each): its billed hours (the roll-up's, plus hours of utilization
 * samples with no pod or heartbeat) and the factors that scale its claims down when the day's
 * claims exceed cores (GB) x hours. The claims times those prices, summed per (cluster, group); the
 * `capacity` rows are each cluster's node cost, from which the caller takes idle as what the groups leave.
 * $1 tenant, $2 start, $3 end, $4 nodes, $5 hourly prices, $6 cores, $7 GB of RAM, $8 per day.
 */
export const allocationSql = (claims: string) => `
  WITH price AS MATERIALIZED (
    SELECT q.*, dense_rank() OVER (ORDER BY q.core_rate, q.gb_rate) AS price_id FROM (
      SELECT p.node, p.cores, p.ram, c.cpu_hourly, p.hourly - c.cpu_hourly AS ram_hourly,
        CASE WHEN p.cores > 0 THEN c.cpu_hourly / p.cores ELSE 0 END AS core_rate,
        CASE WHEN p.ram > 0 THEN (p.hourly - c.cpu_hourly) / p.ram ELSE 0 END AS gb_rate
      FROM unnest($4::text[], $5::numeric[], $6::numeric[], $7::numeric[]) AS p(node, hourly, cores, ram),
        LATERAL (SELECT CASE WHEN p.cores > 0 AND p.ram > 0 THEN p.hourly * (p.cores * 0.031611) / (p.cores * 0.031611 + p.ram * 0.004237) ELSE 0 END
                   AS cpu_hourly) c) q),
  sampled AS (
    SELECT s.node, (s.h AT TIME ZONE 'UTC')::date AS day, count(*) AS hours FROM (
      SELECT DISTINCT resource_id AS node, date_trunc('hour', ts AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AS h FROM compute_samples
      WHERE tenant_id = $1 AND resource_id = ANY($4::text[]) AND ts >= $2 AND ts < $3) s
    WHERE NOT EXISTS (SELECT 1 FROM kubernetes_node_hours n WHERE n.tenant_id = $1 AND n.node = s.node AND n.hour = s.h)
    GROUP BY 1, 2),
  node_days AS (
    SELECT coalesce(d.day, s.day) AS day, coalesce(d.node, s.node) AS node, d.cluster,
      coalesce(d.hours, 0) + coalesce(s.hours, 0) AS hours, coalesce(d.cpu_claim, 0) AS cpu, coalesce(d.memory_claim, 0) AS mem
    FROM (SELECT * FROM kubernetes_node_days
          WHERE tenant_id = $1 AND day >= ($2::timestamptz AT TIME ZONE 'UTC')::date AND day < ($3::timestamptz AT TIME ZONE 'UTC')::date) d
    FULL JOIN sampled s ON s.day = d.day AND s.node = d.node),
  -- Node-days that share a cluster, prices and over-commitment factors (nodes of one type on days
  -- without over-commitment) share one small integer, so that the claims are summed per integer key
  -- and the numeric products are taken once per rate, not per claim row or node-day.
  rates AS MATERIALIZED (
    SELECT x.*, dense_rank() OVER (ORDER BY x.cluster, x.price_id, x.cpu_factor, x.ram_factor) AS rate_id FROM (
      SELECT n.day, n.node, coalesce(r.cluster, n.cluster, '') AS cluster, n.hours, p.price_id,
        least(1, p.cores * n.hours / nullif(n.cpu, 0)) AS cpu_factor, least(1, p.ram * n.hours / nullif(n.mem, 0)) AS ram_factor
      FROM node_days n JOIN price p ON p.node = n.node
      JOIN compute_resources r ON r.tenant_id = $1 AND r.resource_id = n.node
      WHERE n.hours > 0) x),
  claims AS (${claims}),
  by_rate AS (
    SELECT CASE WHEN $8 THEN c.day END AS day, k.rate_id, c.grp,
      sum(c.cpu) AS cpu, sum(c.mem) AS mem, sum(c.cpu_used) AS cpu_used, sum(c.mem_used) AS mem_used
    FROM claims c JOIN rates k ON k.day = c.day AND k.node = c.node
    GROUP BY 1, 2, 3),
  rate AS (
    SELECT g.rate_id, g.cluster, g.cpu_factor, g.ram_factor, p.core_rate * g.cpu_factor AS cpu_rate, p.gb_rate * g.ram_factor AS ram_rate
    FROM (SELECT rate_id, min(cluster) AS cluster, min(cpu_factor) AS cpu_factor, min(ram_factor) AS ram_factor, min(price_id) AS price_id
          FROM rates GROUP BY rate_id) g
    JOIN (SELECT DISTINCT ON (price_id) price_id, core_rate, gb_rate FROM price ORDER BY price_id) p ON p.price_id = g.price_id)
  SELECT b.day::text AS day, k.cluster, b.grp, false AS capacity,
    sum(b.cpu * k.cpu_factor)::text AS cpu_hours, sum(b.mem * k.ram_factor)::text AS ram_hours,
    sum(b.cpu * k.cpu_rate)::text AS cpu_cost, sum(b.mem * k.ram_rate)::text AS ram_cost,
    sum(b.cpu_used * k.cpu_rate + b.mem_used * k.ram_rate)::text AS usage_cost
  FROM by_rate b JOIN rate k ON k.rate_id = b.rate_id GROUP BY b.day, k.cluster, b.grp
  UNION ALL
  SELECT h.day::text, h.cluster, '', true, '0', '0', sum(p.cpu_hourly * h.hours)::text, sum(p.ram_hourly * h.hours)::text, '0'
  FROM (SELECT CASE WHEN $8 THEN day END AS day, cluster, node, sum(hours) AS hours FROM rates GROUP BY 1, 2, 3) h JOIN price p ON p.node = h.node
  GROUP BY 1, 2`;

/** Cluster, namespace or controller ($9): read from the per-day roll-up only. */
export const ALLOCATION_ROLLUP_SQL = allocationSql(`
    SELECT day, node,
      CASE $9::text WHEN 'cluster' THEN cluster WHEN 'namespace' THEN namespace ELSE coalesce(nullif(controller, ''), '__unallocated__') END AS grp,
      cpu_claim AS cpu, memory_claim AS mem, cpu_usage AS cpu_used, memory_usage AS mem_used
    FROM kubernetes_claim_days
    WHERE tenant_id = $1 AND day >= ($2::timestamptz AT TIME ZONE 'UTC')::date AND day < ($3::timestamptz AT TIME ZONE 'UTC')::date`);

/** Pod ($9 = 'pod') or a label's value (key $10): read from the samples. */
export const ALLOCATION_SAMPLES_SQL = allocationSql(`
    SELECT (hour AT TIME ZONE 'UTC')::date AS day, node,
      CASE WHEN $9::text = 'pod' THEN namespace || '/' || pod ELSE coalesce(labels ->> $10::text, '__unallocated__') END AS grp,
      greatest(cpu_request, coalesce(cpu_usage, 0)) AS cpu, greatest(memory_request, coalesce(memory_usage, 0)) AS mem,
      coalesce(cpu_usage, 0) AS cpu_used, coalesce(memory_usage, 0) AS mem_used
    FROM kubernetes_pod_samples WHERE tenant_id = $1 AND hour >= $2 AND hour < $3`);

const NODE_NAME_COLUMNS = { node: "text" } as const satisfies Columns;
export type NodeName = RowOf<typeof NODE_NAME_COLUMNS>;

/**
 * Kubernetes nodes billed in [$2, $3) with no pod claim there: billed through node-days without
 * claims, or only through utilization samples (nodes absent from the node-days). At most 100.
 */
const NODES_WITHOUT_PODS_SQL = `
  WITH days AS (
    SELECT node, bool_or(cpu_claim <> 0 OR memory_claim <> 0) AS claimed FROM kubernetes_node_days
    WHERE tenant_id = $1 AND day >= ($2::timestamptz AT TIME ZONE 'UTC')::date AND day < ($3::timestamptz AT TIME ZONE 'UTC')::date AND hours > 0
    GROUP BY node)
  SELECT r.resource_id AS node FROM compute_resources r LEFT JOIN days d ON d.node = r.resource_id
  WHERE r.tenant_id = $1 AND r.resource_type = 'kubernetes_node'
    AND CASE WHEN d.node IS NOT NULL THEN NOT d.claimed
             ELSE EXISTS (SELECT 1 FROM compute_samples s WHERE s.tenant_id = $1 AND s.resource_id = r.resource_id AND s.ts >= $2 AND s.ts < $3) END
  ORDER BY r.resource_id COLLATE "C" LIMIT 100`;

export function findNodesWithoutPods(sql: SqlSession, tenantId: string, start: string, end: string): Promise<NodeName[]> {
  return sql.query<NodeName>(NODES_WITHOUT_PODS_SQL, [tenantId, start, end]);
}

export interface AllocationParams {
  start: string;
  end: string;
  nodes: string[];
  hourly: string[];
  cores: (number | null)[];
  ram: (number | null)[];
  byDay: boolean;
  aggregate: string;
  labelKey: string | null;
}

export function allocate(sql: SqlSession, tenantId: string, p: AllocationParams): Promise<AllocationSqlRow[]> {
  const fromSamples = p.aggregate === "pod" || p.labelKey !== null;
  const params = [tenantId, p.start, p.end, p.nodes, p.hourly, p.cores, p.ram, p.byDay, p.aggregate];
  return fromSamples
    ? sql.query<AllocationSqlRow>(ALLOCATION_SAMPLES_SQL, [...params, p.labelKey ?? ""])
    : sql.query<AllocationSqlRow>(ALLOCATION_ROLLUP_SQL, params);
}

const POOL_COLUMNS = {
  cluster: "text",
  node_pool: "text",
  hours: "int8",
  cpu_p95: "text null",
  memory_p95: "text null",
  largest_cpu: "text null",
  largest_memory: "text null",
} as const satisfies Columns;
export type PoolRow = RowOf<typeof POOL_COLUMNS>;

/**
 * Per (cluster, node pool) since $2: the nearest-rank 95th percentile of the pool's hourly request
 * sums (CPU and memory each), and the largest single pod request of each.
 */
export const POOL_REQUESTS_SQL = `
  WITH pool AS (
    SELECT resource_id AS node, coalesce(cluster, '') AS cluster, node_pool FROM compute_resources
    WHERE tenant_id = $1 AND resource_type = 'kubernetes_node' AND node_pool IS NOT NULL),
  hourly AS (
    SELECT p.cluster, p.node_pool, h.hour, sum(h.cpu_request) AS cpu, sum(h.memory_request) AS mem
    FROM kubernetes_node_hours h JOIN pool p ON p.node = h.node
    WHERE h.tenant_id = $1 AND h.hour >= $2 AND h.pods > 0
    GROUP BY 1, 2, 3),
  sized AS (
    SELECT cluster, node_pool, count(*) AS hours,
      percentile_disc(0.95) WITHIN GROUP (ORDER BY cpu) AS cpu_p95, percentile_disc(0.95) WITHIN GROUP (ORDER BY mem) AS memory_p95
    FROM hourly GROUP BY 1, 2),
  largest AS (
    SELECT p.cluster, p.node_pool, max(s.cpu_request) AS cpu, max(s.memory_request) AS mem
    FROM kubernetes_pod_samples s JOIN pool p ON p.node = s.node
    WHERE s.tenant_id = $1 AND s.hour >= $2
    GROUP BY 1, 2)
  SELECT pools.cluster, pools.node_pool, coalesce(z.hours, 0)::int8 AS hours, z.cpu_p95::text AS cpu_p95, z.memory_p95::text AS memory_p95,
    l.cpu::text AS largest_cpu, l.mem::text AS largest_memory
  FROM (SELECT DISTINCT cluster, node_pool FROM pool) pools
  LEFT JOIN sized z ON z.cluster = pools.cluster AND z.node_pool = pools.node_pool
  LEFT JOIN largest l ON l.cluster = pools.cluster AND l.node_pool = pools.node_pool
  ORDER BY pools.cluster COLLATE "C", pools.node_pool COLLATE "C"`;

export function findPoolRequests(sql: SqlSession, tenantId: string, since: Date): Promise<PoolRow[]> {
  return sql.query<PoolRow>(POOL_REQUESTS_SQL, [tenantId, since]);
}

export function checkedStatements(): CheckedStatement[] {
  return [
    { name: "kubernetes ingest lock", sql: LOCK_SQL, columns: { held: "text", work_mem: "text" } },
    { name: "kubernetes pod ingest", sql: POD_INGEST_SQL, columns: UNKNOWN_NODE_COLUMNS },
    { name: "kubernetes heartbeat hours", sql: NODE_HEARTBEAT_HOURS_SQL, columns: null },
    { name: "kubernetes nodes", sql: NODES_SQL, columns: NODE_COLUMNS },
    { name: "kubernetes allocation (roll-up)", sql: ALLOCATION_ROLLUP_SQL, columns: ALLOCATION_COLUMNS },
    { name: "kubernetes allocation (samples)", sql: ALLOCATION_SAMPLES_SQL, columns: ALLOCATION_COLUMNS },
    { name: "kubernetes nodes without pods", sql: NODES_WITHOUT_PODS_SQL, columns: NODE_NAME_COLUMNS },
    { name: "kubernetes pool requests", sql: POOL_REQUESTS_SQL, columns: POOL_COLUMNS },
  ];
}
