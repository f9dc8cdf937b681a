import { isSerializationFailure, type SqlClient, type SqlSession } from "@cloudcost/db";
import type { CheckedStatement, Columns, RowOf } from "@cloudcost/db";
import { retry } from "@cloudcost/http";
import { inSessionTransaction } from "../transactions";

// Pod samples, their roll-ups (per node-hour and node-day, and per group its node-day and
// node-month claims), the nodes and the reads of node-pool sizing, through the driver (allocation's
// are in allocation-repository.ts, the heartbeats' node-hours in node-hours-repository.ts). Every
// statement filters by tenant; every key leads with it.

/** Advisory lock class of pod ingests, one lock per tenant and cluster (the roll-up deltas read the rows they replace). */
const POD_INGEST_LOCK_CLASS = 39_001;

/**
 * Locks the batch's clusters of the tenant in byte order: ingests of one cluster run one after the
 * other, those of other clusters beside them (a sample's key includes its cluster, so they never
 * replace each other's rows; the roll-ups they share only add). Also sets the ingest's transaction
 * to keep its sorts of a full batch (10,000 rows) in memory and to aggregate by sorting: a claim
 * grouping has about one group per sample, and its rows arrive in its order (podBatch), so a sort
 * finds them sorted in one pass, where a hash table of numeric sums costs more.
 */
const LOCK_SQL = `
  SELECT string_agg(pg_advisory_xact_lock(${POD_INGEST_LOCK_CLASS}, hashtext($1 || '/' || c))::text, ',') AS held,
    set_config('work_mem', '64MB', true) AS work_mem, set_config('enable_hashagg', 'off', true) AS hashagg
  FROM (SELECT DISTINCT c COLLATE "C" AS c FROM unnest($2::text[]) AS c ORDER BY 1) clusters`;

/** Two ingests of other clusters on one node meet in its roll-up rows: a deadlock between them is retried. */
const INGEST_ATTEMPTS = 3;

/**
 * The writes of one claim roll-up (`period` is its first key after the tenant): the rows of the
 * batch's keys (`${period}_claims`) updated through one join, read through the batch's clusters
 * ($3), then the keys the update did not find inserted; no other ingest writes a key of those
 * clusters meanwhile (LOCK_SQL).
 */
const claimWrites = (period: "day" | "month", table: string) => `
  ${period}_updated AS (
    UPDATE ${table} r SET samples = r.samples + c.samples, cpu_claim = r.cpu_claim + c.cpu_claim, memory_claim = r.memory_claim + c.memory_claim,
      cpu_usage = r.cpu_usage + c.cpu_usage, memory_usage = r.memory_usage + c.memory_usage, gpu_claim = r.gpu_claim + c.gpu_claim
    FROM ${period}_claims c
    WHERE r.tenant_id = $1 AND r.${period} = c.${period} AND r.node = c.node AND r.cluster = c.cluster
      AND r.namespace = c.namespace AND r.controller = c.controller
      AND r.cluster = ANY ($3::text[]) AND r.${period} BETWEEN (SELECT min(${period}) FROM ${period}_claims) AND (SELECT max(${period}) FROM ${period}_claims)
    RETURNING r.${period}, r.node, r.cluster, r.namespace, r.controller),
  ${period}_inserted AS (
    INSERT INTO ${table} (tenant_id, ${period}, node, cluster, namespace, controller, samples, cpu_claim, memory_claim, cpu_usage, memory_usage, gpu_claim)
    SELECT $1, c.* FROM ${period}_claims c
    -- Skipped whole when the update found every key (an agent's usual hour).
    WHERE (SELECT count(*) FROM ${period}_updated) < (SELECT count(*) FROM ${period}_claims)
      AND NOT EXISTS (SELECT 1 FROM ${period}_updated u WHERE u.${period} = c.${period} AND u.node = c.node AND u.cluster = c.cluster
                        AND u.namespace = c.namespace AND u.controller = c.controller)
    ORDER BY 2, 3, 4, 5, 6)`;

/**
 * Stores the samples and moves the four roll-ups by the difference to the rows they replace, in one
 * statement: every CTE reads the snapshot from before it, so `old` holds the replaced rows (looked up
 * within the batch's hours only, so a batch of new hours reads nothing). Ingests of one tenant are
 * serialized per cluster by LOCK_SQL, taken first in the same transaction, so no concurrent ingest
 * writes a key (which includes the cluster) between that snapshot and the write: a batch of which
 * `old` found nothing is inserted plainly, one that replaces rows is upserted whole (splitting it
 * would join the batch to `old`, which a planner without statistics ran as a nested loop), and a
 * claim roll-up row is updated through one join and inserted where the join found none.
 * The roll-ups move by `delta`: the batch's rows, read from `v` rather than from the insert's
 * RETURNING (a batch naming an unknown node is rolled back whole), and the replaced rows negated,
 * so the sums need no multiplication. Groupings are by their keys in byte order, the order
 * podBatch sends the rows in, so their sorts find them sorted; writes go in key order.
 */
export const POD_INGEST_SQL = `
  WITH v AS (
    SELECT e->>0 AS cluster, e->>1 AS namespace, e->>2 AS pod, (e->>3)::timestamptz AS hour, e->>4 AS node, e->>5 AS controller, e->6 AS labels,
      (e->>7)::numeric AS cpu_request, (e->>8)::numeric AS memory_request, (e->>9)::numeric AS cpu_usage, (e->>10)::numeric AS memory_usage,
      (e->>11)::numeric AS gpu_request
    FROM jsonb_array_elements($2::jsonb) e),
  old AS (
    SELECT p.cluster, p.namespace, p.pod, p.hour, p.node, p.controller, p.cpu_request, p.memory_request, p.cpu_usage, p.memory_usage, p.gpu_request
    FROM kubernetes_pod_samples p JOIN v ON p.cluster = v.cluster AND p.namespace = v.namespace AND p.pod = v.pod AND p.hour = v.hour
    WHERE p.tenant_id = $1 AND p.hour BETWEEN (SELECT min(hour) FROM v) AND (SELECT max(hour) FROM v)),
  inserted AS (
    INSERT INTO kubernetes_pod_samples (tenant_id, cluster, namespace, pod, hour, node, controller, labels, cpu_request, memory_request, cpu_usage, memory_usage, gpu_request)
    SELECT $1, v.* FROM v WHERE NOT EXISTS (SELECT 1 FROM old)
    ORDER BY v.hour, v.cluster COLLATE "C", v.namespace COLLATE "C", v.pod COLLATE "C"),
  replaced AS (
    INSERT INTO kubernetes_pod_samples AS p (tenant_id, cluster, namespace, pod, hour, node, controller, labels, cpu_request, memory_request, cpu_usage, memory_usage, gpu_request)
    SELECT $1, v.* FROM v WHERE EXISTS (SELECT 1 FROM old)
    ORDER BY v.hour, v.cluster COLLATE "C", v.namespace COLLATE "C", v.pod COLLATE "C"
    ON CONFLICT (tenant_id, hour, cluster, namespace, pod) DO UPDATE SET
      node = excluded.node, controller = excluded.controller, labels = excluded.labels, cpu_request = excluded.cpu_request,
      memory_request = excluded.memory_request, cpu_usage = excluded.cpu_usage, memory_usage = excluded.memory_usage, gpu_request = excluded.gpu_request),
  delta AS (
    SELECT 1 AS sign, s.cluster, s.namespace, s.hour, s.node, s.controller, s.cpu_request, s.memory_request,
      coalesce(s.cpu_usage, 0) AS cpu_usage, coalesce(s.memory_usage, 0) AS memory_usage,
      greatest(s.cpu_request, coalesce(s.cpu_usage, 0)) AS cpu_claim, greatest(s.memory_request, coalesce(s.memory_usage, 0)) AS memory_claim,
      s.gpu_request
    FROM v s
    UNION ALL
    SELECT -1, o.cluster, o.namespace, o.hour, o.node, o.controller, -o.cpu_request, -o.memory_request,
      -coalesce(o.cpu_usage, 0), -coalesce(o.memory_usage, 0), -greatest(o.cpu_request, coalesce(o.cpu_usage, 0)), -greatest(o.memory_request, coalesce(o.memory_usage, 0)),
      -o.gpu_request
    FROM old o),
  -- Per node and hour once: the node-hour roll-up and, through it, the node-day one.
  per_node_hour AS MATERIALIZED (
    SELECT hour, node COLLATE "default" AS node, pods, cpu_request, memory_request, gpu_request, cpu_claim, memory_claim, cluster, sent FROM (
      SELECT hour, node COLLATE "C" AS node, sum(sign)::int AS pods, sum(cpu_request) AS cpu_request, sum(memory_request) AS memory_request,
        sum(gpu_request) AS gpu_request, sum(cpu_claim) AS cpu_claim, sum(memory_claim) AS memory_claim, min(cluster) AS cluster, bool_or(sign = 1) AS sent
      FROM delta GROUP BY 1, 2) g),
  -- The nodes the batch sends samples of (not those only a replaced sample named) that are not live Kubernetes nodes of the tenant.
  missing AS (
    SELECT DISTINCT n.node AS id FROM per_node_hour n
    WHERE n.sent AND NOT EXISTS (SELECT 1 FROM compute_resources r WHERE r.tenant_id = $1 AND r.resource_id = n.node
                                   AND r.resource_type = 'kubernetes_node' AND r.retired_at IS NULL)),
  node_hours AS (
    INSERT INTO kubernetes_node_hours AS h (tenant_id, node, hour, pods, cpu_request, memory_request, gpu_request)
    SELECT $1, node, hour, pods, cpu_request, memory_request, gpu_request FROM per_node_hour ORDER BY node COLLATE "C", hour
    ON CONFLICT (tenant_id, node, hour) DO UPDATE SET
      pods = h.pods + excluded.pods, cpu_request = h.cpu_request + excluded.cpu_request, memory_request = h.memory_request + excluded.memory_request,
      gpu_request = h.gpu_request + excluded.gpu_request
    RETURNING h.node, h.hour, (h.xmax = 0) AS inserted),
  -- A node-hour seen for the first time adds an hour to its day.
  node_days AS (
    INSERT INTO kubernetes_node_days AS d (tenant_id, day, node, cluster, hours, cpu_claim, memory_claim, gpu_claim)
    SELECT $1, (n.hour AT TIME ZONE 'UTC')::date, n.node, min(n.cluster), count(*) FILTER (WHERE h.inserted)::int, sum(n.cpu_claim), sum(n.memory_claim),
      sum(n.gpu_request)
    FROM per_node_hour n JOIN node_hours h ON h.node = n.node AND h.hour = n.hour
    GROUP BY 2, n.node ORDER BY 2, n.node COLLATE "C"
    ON CONFLICT (tenant_id, day, node) DO UPDATE SET
      hours = d.hours + excluded.hours, cpu_claim = d.cpu_claim + excluded.cpu_claim, memory_claim = d.memory_claim + excluded.memory_claim,
      gpu_claim = d.gpu_claim + excluded.gpu_claim, cluster = coalesce(d.cluster, excluded.cluster)),
  -- The claim roll-ups (claimWrites).
  day_claims AS MATERIALIZED (
    SELECT day, node COLLATE "default" AS node, cluster COLLATE "default" AS cluster, namespace COLLATE "default" AS namespace,
      controller COLLATE "default" AS controller, samples, cpu_claim, memory_claim, cpu_usage, memory_usage, gpu_claim FROM (
      SELECT (hour AT TIME ZONE 'UTC')::date AS day, node COLLATE "C" AS node, cluster COLLATE "C" AS cluster, namespace COLLATE "C" AS namespace,
        controller COLLATE "C" AS controller, sum(sign)::int AS samples, sum(cpu_claim) AS cpu_claim, sum(memory_claim) AS memory_claim,
        sum(cpu_usage) AS cpu_usage, sum(memory_usage) AS memory_usage, sum(gpu_request) AS gpu_claim
      FROM delta GROUP BY 1, 2, 3, 4, 5) g),
${claimWrites("day", "kubernetes_claim_days")},
  -- A batch within one day (as an agent's hourly one) has its month's rows already: only relabelled.
  month_claims AS MATERIALIZED (
    SELECT date_trunc('month', day)::date AS month, node, cluster, namespace, controller, samples, cpu_claim, memory_claim, cpu_usage, memory_usage, gpu_claim
    FROM day_claims WHERE (SELECT min(day) = max(day) FROM day_claims)
    UNION ALL
    SELECT date_trunc('month', day)::date, node, cluster, namespace, controller, sum(samples)::int, sum(cpu_claim), sum(memory_claim), sum(cpu_usage), sum(memory_usage),
      sum(gpu_claim)
    FROM day_claims WHERE (SELECT min(day) <> max(day) FROM day_claims) GROUP BY 1, 2, 3, 4, 5),
${claimWrites("month", "kubernetes_claim_months")}
  SELECT id FROM missing ORDER BY id COLLATE "C" LIMIT 5`;

const UNKNOWN_NODE_COLUMNS = { id: "text" } as const;
export type UnknownNode = RowOf<typeof UNKNOWN_NODE_COLUMNS>;

/** One pod sample as POD_INGEST_SQL reads it: cluster, namespace, pod, hour, node, controller, labels, CPU and memory requests, usages, GPU request. */
export type PodRow = [string, string, string, string, string, string, Record<string, string>, number, number, number | null, number | null, number];

/** A batch as pods-service.ts builds it: its rows as one JSON array, and its clusters. */
export interface PodRows {
  count: number;
  clusters: string[];
  rows: string;
}

/** Stores the batch in one transaction; answers up to five unknown nodes, in which case nothing was stored. */
export function insertPodSamples(sql: SqlClient, tenantId: string, batch: PodRows): Promise<UnknownNode[]> {
  const attempt = () =>
    sql.withSession((session) =>
      inSessionTransaction(
        session,
        async () => {
          await session.query(LOCK_SQL, [tenantId, batch.clusters]);
          return session.query<UnknownNode>(POD_INGEST_SQL, [tenantId, batch.rows, batch.clusters]);
        },
        { rollbackIf: (unknown) => unknown.length > 0 },
      ),
    );
  return retry(attempt, { attempts: INGEST_ATTEMPTS, retryable: isSerializationFailure, backoff: { baseMs: 20, maxMs: 200, jitter: 0.5 } });
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
  gpu_count: "int4 null",
  retired: "bool",
} as const satisfies Columns;
export type NodeRow = RowOf<typeof NODE_COLUMNS>;

const NODES_SQL = `SELECT resource_id AS node, cluster, node_pool, provider, region, instance_type, architecture, operating_system,
    purchase_option, cpu_cores, ram_gb, gpu_count, retired_at IS NOT NULL AS retired
  FROM compute_resources WHERE tenant_id = $1 AND resource_type = 'kubernetes_node' ORDER BY resource_id COLLATE "C"`;

/** The tenant's Kubernetes nodes, retired ones too (they cost what they ran before). */
export function findNodes(sql: SqlSession, tenantId: string): Promise<NodeRow[]> {
  return sql.query<NodeRow>(NODES_SQL, [tenantId]);
}

const POOL_COLUMNS = {
  cluster: "text",
  node_pool: "text",
  hours: "int8",
  cpu_p95: "text null",
  memory_p95: "text null",
  gpu_p95: "text null",
  largest_cpu: "text null",
  largest_memory: "text null",
  largest_gpu: "text null",
  min_nodes: "int4 null",
} as const satisfies Columns;
export type PoolRow = RowOf<typeof POOL_COLUMNS>;

/**
 * Per (cluster, node pool) since $2: the nearest-rank 95th percentile of the pool's hourly request
 * sums (CPU, memory and GPUs each), the largest single pod request of each, and the pool's
 * min_nodes setting.
 */
export const POOL_REQUESTS_SQL = `
  WITH pool AS (
    SELECT resource_id AS node, coalesce(cluster, '') AS cluster, node_pool FROM compute_resources
    WHERE tenant_id = $1 AND resource_type = 'kubernetes_node' AND node_pool IS NOT NULL),
  hourly AS (
    SELECT p.cluster, p.node_pool, h.hour, sum(h.cpu_request) AS cpu, sum(h.memory_request) AS mem, sum(h.gpu_request) AS gpu
    FROM kubernetes_node_hours h JOIN pool p ON p.node = h.node
    WHERE h.tenant_id = $1 AND h.hour >= $2 AND h.pods > 0
    GROUP BY 1, 2, 3),
  sized AS (
    SELECT cluster, node_pool, count(*) AS hours,
      percentile_disc(0.95) WITHIN GROUP (ORDER BY cpu) AS cpu_p95, percentile_disc(0.95) WITHIN GROUP (ORDER BY mem) AS memory_p95,
      percentile_disc(0.95) WITHIN GROUP (ORDER BY gpu) AS gpu_p95
    FROM hourly GROUP BY 1, 2),
  largest AS (
    SELECT p.cluster, p.node_pool, max(s.cpu_request) AS cpu, max(s.memory_request) AS mem, max(s.gpu_request) AS gpu
    FROM kubernetes_pod_samples s JOIN pool p ON p.node = s.node
    WHERE s.tenant_id = $1 AND s.hour >= $2
    GROUP BY 1, 2)
  SELECT pools.cluster, pools.node_pool, coalesce(z.hours, 0)::int8 AS hours, z.cpu_p95::text AS cpu_p95, z.memory_p95::text AS memory_p95,
    z.gpu_p95::text AS gpu_p95, l.cpu::text AS largest_cpu, l.mem::text AS largest_memory, l.gpu::text AS largest_gpu, s.min_nodes
  FROM (SELECT DISTINCT cluster, node_pool FROM pool) pools
  LEFT JOIN sized z ON z.cluster = pools.cluster AND z.node_pool = pools.node_pool
  LEFT JOIN largest l ON l.cluster = pools.cluster AND l.node_pool = pools.node_pool
  LEFT JOIN kubernetes_node_pool_settings s ON s.tenant_id = $1 AND s.cluster = pools.cluster AND s.node_pool = pools.node_pool
  ORDER BY pools.cluster COLLATE "C", pools.node_pool COLLATE "C"`;

export function findPoolRequests(sql: SqlSession, tenantId: string, since: Date): Promise<PoolRow[]> {
  return sql.query<PoolRow>(POOL_REQUESTS_SQL, [tenantId, since]);
}

/** Serializes a tenant's floor changes, so concurrent ones count one another. */
const POOL_SETTING_LOCK_SQL = `SELECT pg_advisory_xact_lock(${0x6b38706c}, hashtext($1))::text AS locked`;
const POOL_SETTING_LOCK_COLUMNS = { locked: "text" } as const satisfies Columns;
const POOL_SETTINGS_HELD_COLUMNS = { held: "int4" } as const satisfies Columns;
type PoolSettingsHeld = RowOf<typeof POOL_SETTINGS_HELD_COLUMNS>;
/** How many pools of the tenant carry a floor, this pool ($2, $3) aside. */
const POOL_SETTINGS_HELD_SQL = `
  SELECT count(*)::int AS held FROM kubernetes_node_pool_settings WHERE tenant_id = $1 AND NOT (cluster = $2 AND node_pool = $3)`;
/** Sets a pool's floor ($4), or with null removes it. */
const POOL_SETTING_SQL = `
  WITH removed AS (
    DELETE FROM kubernetes_node_pool_settings WHERE $4::int IS NULL AND tenant_id = $1 AND cluster = $2 AND node_pool = $3)
  INSERT INTO kubernetes_node_pool_settings AS s (tenant_id, cluster, node_pool, min_nodes)
  SELECT $1, $2, $3, $4::int WHERE $4::int IS NOT NULL
  ON CONFLICT (tenant_id, cluster, node_pool) DO UPDATE SET min_nodes = excluded.min_nodes, updated_at = now()`;

/**
 * Sets a pool's floor, or with null removes it, in one transaction: refused (nothing written) when
 * it would be a new floor beside `maxPools` others; answers how many other pools carry one.
 */
export function savePoolSetting(
  sql: SqlClient,
  tenantId: string,
  setting: { cluster: string; nodePool: string; minNodes: number | null },
  maxPools: number,
): Promise<{ saved: boolean; held: number }> {
  return sql.withSession((session) =>
    inSessionTransaction(
      session,
      async () => {
        await session.query(POOL_SETTING_LOCK_SQL, [tenantId]);
        const params = [tenantId, setting.cluster, setting.nodePool];
        const [{ held }] = await session.query<PoolSettingsHeld>(POOL_SETTINGS_HELD_SQL, params);
        const saved = setting.minNodes === null || held < maxPools;
        if (saved) await session.query(POOL_SETTING_SQL, [...params, setting.minNodes]);
        return { saved, held };
      },
      { rollbackIf: ({ saved }) => !saved },
    ),
  );
}

export function checkedStatements(): CheckedStatement[] {
  return [
    { name: "kubernetes ingest lock", sql: LOCK_SQL, columns: { held: "text", work_mem: "text", hashagg: "text" } },
    { name: "kubernetes pod ingest", sql: POD_INGEST_SQL, columns: UNKNOWN_NODE_COLUMNS },
    { name: "kubernetes nodes", sql: NODES_SQL, columns: NODE_COLUMNS },
    { name: "kubernetes pool requests", sql: POOL_REQUESTS_SQL, columns: POOL_COLUMNS },
    { name: "kubernetes pool setting", sql: POOL_SETTING_SQL, columns: null },
    { name: "kubernetes pool setting lock", sql: POOL_SETTING_LOCK_SQL, columns: POOL_SETTING_LOCK_COLUMNS },
    { name: "kubernetes pool settings held", sql: POOL_SETTINGS_HELD_SQL, columns: POOL_SETTINGS_HELD_COLUMNS },
  ];
}

/** What the pod, node-pool and allocation services read and write; each function takes the client or the session it runs on. */
export const kubernetesRepository = { insertPodSamples, findNodes, findPoolRequests, savePoolSetting };
export type KubernetesRepository = typeof kubernetesRepository;
