import type { CheckedStatement, Columns, RowOf, SqlSession } from "@cloudcost/db";

// The reads of Kubernetes cost allocation: the nodes' cost of a range per (cluster, group), from
// the claim roll-up or, for pods and labels, from the samples. Every statement filters by tenant.

const ALLOCATION_COLUMNS = {
  day: "text null",
  cluster: "text",
  grp: "text",
  capacity: "bool",
  cpu_hours: "text",
  ram_hours: "text",
  gpu_hours: "text",
  cpu_cost: "text",
  ram_cost: "text",
  gpu_cost: "text",
  usage_cost: "text",
  bill_days: "int8",
  catalog_days: "int8",
} as const satisfies Columns;
export type AllocationSqlRow = RowOf<typeof ALLOCATION_COLUMNS>;

const FIRST_DAY = "($2::timestamptz AT TIME ZONE 'UTC')::date";
const END_DAY = "($3::timestamptz AT TIME ZONE 'UTC')::date";
/** The day after the range's last hour (END_DAY when the range ends on a midnight). */
const END_DAY_CEIL = "((($3::timestamptz - interval '1 hour') AT TIME ZONE 'UTC')::date + 1)";
/** The calendar months wholly inside [$2, $3): from FULL_START to FULL_END (none unless FULL_START < FULL_END). */
const FULL_START = `(date_trunc('month', (${FIRST_DAY} - 1)::timestamp) + interval '1 month')::date`;
const FULL_END = `date_trunc('month', ${END_DAY}::timestamp)::date`;
/** Over the range ($12 false) with at least one whole month: those months are read from the month roll-up. */
const HAS_FULL_MONTHS = `(NOT $12 AND ${FULL_START} < ${FULL_END})`;

/**
 * Node-days of whole UTC days: the roll-up's, plus hours of utilization samples with no pod or
 * heartbeat; a whole day's hours are the hours its bill is spread over (`day_hours`).
 */
const WHOLE_DAY_NODE_DAYS = `
  sampled AS (
    SELECT s.node, (s.h AT TIME ZONE 'UTC')::date AS day, count(*) AS hours FROM (
      SELECT DISTINCT resource_id AS node, date_trunc('hour', ts AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AS h FROM compute_samples
      WHERE tenant_id = $1 AND resource_id = ANY($4::text[]) AND ts >= $2 AND ts < $3) s
    WHERE NOT EXISTS (SELECT 1 FROM kubernetes_node_hours n WHERE n.tenant_id = $1 AND n.node = s.node AND n.hour = s.h)
    GROUP BY 1, 2),
  node_days AS (
    SELECT coalesce(d.day, s.day) AS day, coalesce(d.node, s.node) AS node, d.cluster,
      coalesce(d.hours, 0) + coalesce(s.hours, 0) AS hours, coalesce(d.hours, 0) + coalesce(s.hours, 0) AS day_hours,
      coalesce(d.cpu_claim, 0) AS cpu, coalesce(d.memory_claim, 0) AS mem, coalesce(d.gpu_claim, 0) AS gpu
    FROM (SELECT * FROM kubernetes_node_days WHERE tenant_id = $1 AND day >= ${FIRST_DAY} AND day < ${END_DAY}) d
    FULL JOIN sampled s ON s.day = d.day AND s.node = d.node)`;

/**
 * Node-days of a range of whole hours: its hours of each day (node-hours and utilization samples
 * within the range), the day's hours (the bill's divisor) and the claims of the range's pod samples.
 */
const HOURLY_NODE_DAYS = `
  sampled AS (
    SELECT s.node, (s.h AT TIME ZONE 'UTC')::date AS day, count(*) AS day_hours, count(*) FILTER (WHERE s.h >= $2 AND s.h < $3) AS hours FROM (
      SELECT DISTINCT resource_id AS node, date_trunc('hour', ts AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AS h FROM compute_samples
      WHERE tenant_id = $1 AND resource_id = ANY($4::text[]) AND ts >= ${FIRST_DAY}::timestamp AT TIME ZONE 'UTC' AND ts < ${END_DAY_CEIL}::timestamp AT TIME ZONE 'UTC') s
    WHERE NOT EXISTS (SELECT 1 FROM kubernetes_node_hours n WHERE n.tenant_id = $1 AND n.node = s.node AND n.hour = s.h)
    GROUP BY 1, 2),
  ranged AS (
    SELECT node, (hour AT TIME ZONE 'UTC')::date AS day, count(*) AS hours FROM kubernetes_node_hours
    WHERE tenant_id = $1 AND hour >= $2 AND hour < $3 GROUP BY 1, 2),
  pod_claims AS (
    SELECT node, (hour AT TIME ZONE 'UTC')::date AS day, min(cluster) AS cluster,
      sum(greatest(cpu_request, coalesce(cpu_usage, 0))) AS cpu, sum(greatest(memory_request, coalesce(memory_usage, 0))) AS mem, sum(gpu_request) AS gpu
    FROM kubernetes_pod_samples WHERE tenant_id = $1 AND hour >= $2 AND hour < $3 GROUP BY 1, 2),
  node_days AS (
    SELECT b.day, b.node, coalesce(b.cluster, c.cluster) AS cluster, coalesce(r.hours, 0) + b.sampled_hours AS hours, b.day_hours,
      coalesce(c.cpu, 0) AS cpu, coalesce(c.mem, 0) AS mem, coalesce(c.gpu, 0) AS gpu
    FROM (
      SELECT coalesce(d.day, s.day) AS day, coalesce(d.node, s.node) AS node, d.cluster,
        coalesce(d.hours, 0) + coalesce(s.day_hours, 0) AS day_hours, coalesce(s.hours, 0) AS sampled_hours
      FROM (SELECT day, node, cluster, hours FROM kubernetes_node_days WHERE tenant_id = $1 AND day >= ${FIRST_DAY} AND day < ${END_DAY_CEIL}) d
      FULL JOIN sampled s ON s.day = d.day AND s.node = d.node) b
    LEFT JOIN ranged r ON r.node = b.node AND r.day = b.day
    LEFT JOIN pod_claims c ON c.node = b.node AND c.day = b.day)`;

/**
 * What every allocation statement starts from ($1 tenant, $2 start, $3 end, $4 nodes, $5 catalog
 * hourly prices (null: unpriced), $6 cores, $7 GB of RAM, $8 GPUs, $9-$11 the bill's cost per node
 * and day). Per node (`price`): a reference hourly price (the catalog's, 1 when it has none) split
 * into CPU, memory and GPUs by the capacity weights, and the price of one core-hour, GB-hour and
 * GPU-hour. Per node-day (`days`): its billed hours, the factors that scale its claims down when
 * they exceed cores (GB, GPUs) x hours, and `scale`, what the day's hours cost over the reference:
 * the bill's cost over (reference x the day's hours) where the bill has the node that day, else 1
 * (0 for an unpriced node). Per node (`node`): its cluster (the resource's, else the least one its
 * pods named in the range) and its billed hours.
 */
const head = (nodeDays: string) => `
  price AS MATERIALIZED (
    SELECT q.*, dense_rank() OVER (ORDER BY q.core_rate, q.gb_rate, q.gpu_rate) AS price_id FROM (
      SELECT p.node, p.cores, p.ram, p.gpus, p.ref, p.catalog_scale, w.cpu_hourly, p.ref - w.cpu_hourly - w.gpu_hourly AS ram_hourly, w.gpu_hourly,
        CASE WHEN p.cores > 0 THEN w.cpu_hourly / p.cores ELSE 0 END AS core_rate,
        CASE WHEN p.ram > 0 THEN (p.ref - w.cpu_hourly - w.gpu_hourly) / p.ram ELSE 0 END AS gb_rate,
        CASE WHEN p.gpus > 0 THEN w.gpu_hourly / p.gpus ELSE 0 END AS gpu_rate
      FROM (SELECT u.node, u.cores, u.ram, coalesce(u.gpus, 0) AS gpus, CASE WHEN u.hourly > 0 THEN u.hourly ELSE 1 END AS ref,
              CASE WHEN u.hourly > 0 THEN 1 ELSE 0 END AS catalog_scale
            FROM unnest($4::text[], $5::numeric[], $6::numeric[], $7::numeric[], $8::numeric[]) AS u(node, hourly, cores, ram, gpus)) p,
        LATERAL (SELECT
          CASE WHEN p.cores > 0 AND p.ram > 0 THEN p.ref * (p.cores * 0.031611) / (p.cores * 0.031611 + p.ram * 0.004237 + p.gpus * 0.95) ELSE 0 END AS cpu_hourly,
          CASE WHEN p.cores > 0 AND p.ram > 0 THEN p.ref * (p.gpus * 0.95) / (p.cores * 0.031611 + p.ram * 0.004237 + p.gpus * 0.95) ELSE 0 END AS gpu_hourly) w) q),
  bill AS (SELECT * FROM unnest($9::text[], $10::date[], $11::numeric[]) AS b(node, day, cost)),
  ${nodeDays},
  days AS MATERIALIZED (
    SELECT n.day, n.node, n.cluster, n.hours, p.price_id, p.catalog_scale AS base, b.cost IS NOT NULL AS billed,
      least(1, p.cores * n.hours / nullif(n.cpu, 0)) AS cpu_factor, least(1, p.ram * n.hours / nullif(n.mem, 0)) AS ram_factor,
      least(1, p.gpus * n.hours / nullif(n.gpu, 0)) AS gpu_factor,
      CASE WHEN b.cost IS NOT NULL THEN round(b.cost, 40) / (p.ref * n.day_hours) ELSE p.catalog_scale END AS scale
    FROM node_days n JOIN price p ON p.node = n.node LEFT JOIN bill b ON b.node = n.node AND b.day = n.day
    WHERE n.hours > 0),
  node AS MATERIALIZED (
    SELECT d.node, coalesce(r.cluster, d.cluster, '') AS cluster, d.hours
    FROM (SELECT node, min(cluster) AS cluster, sum(hours) AS hours FROM days GROUP BY node) d
    JOIN compute_resources r ON r.tenant_id = $1 AND r.resource_id = d.node)`;

/**
 * Per day ($12) or over the range, from `claims` (rows of day, node, grp and claimed and used
 * core-hours and GB-hours and claimed GPU-hours). Node-days that share a cluster, prices,
 * over-commitment factors and scale (nodes of one type on days without over-commitment or bill)
 * share one small integer, so the claims are summed per integer key and the numeric products are
 * taken once per rate, not per claim row or node-day. The `capacity` rows are each cluster's node
 * cost, per resource, from which the caller takes idle as what the groups leave, and its node-days
 * by the basis of their price.
 */
export const allocationSql = (nodeDays: string, claims: string) => `
  WITH ${head(nodeDays)},
  rates AS MATERIALIZED (
    SELECT x.*, dense_rank() OVER (ORDER BY x.cluster, x.price_id, x.cpu_factor, x.ram_factor, x.gpu_factor, x.scale) AS rate_id FROM (
      SELECT d.day, d.node, k.cluster, d.hours, d.billed, d.price_id, d.cpu_factor, d.ram_factor, d.gpu_factor, d.scale
      FROM days d JOIN node k ON k.node = d.node) x),
  claims AS (${claims}),
  by_rate AS (
    SELECT CASE WHEN $12 THEN c.day END AS day, k.rate_id, c.grp,
      sum(c.cpu) AS cpu, sum(c.mem) AS mem, sum(c.gpu) AS gpu, sum(c.cpu_used) AS cpu_used, sum(c.mem_used) AS mem_used
    FROM claims c JOIN rates k ON k.day = c.day AND k.node = c.node
    GROUP BY 1, 2, 3),
  rate AS (
    SELECT g.rate_id, g.cluster, g.cpu_factor, g.ram_factor, g.gpu_factor, p.core_rate * g.cpu_factor * g.scale AS cpu_rate,
      p.gb_rate * g.ram_factor * g.scale AS ram_rate, p.gpu_rate * g.gpu_factor * g.scale AS gpu_rate
    FROM (SELECT rate_id, min(cluster) AS cluster, min(cpu_factor) AS cpu_factor, min(ram_factor) AS ram_factor, min(gpu_factor) AS gpu_factor,
            min(scale) AS scale, min(price_id) AS price_id
          FROM rates GROUP BY rate_id) g
    JOIN (SELECT DISTINCT ON (price_id) price_id, core_rate, gb_rate, gpu_rate FROM price ORDER BY price_id) p ON p.price_id = g.price_id)
  SELECT b.day::text AS day, k.cluster, b.grp, false AS capacity,
    sum(b.cpu * k.cpu_factor)::text AS cpu_hours, sum(b.mem * k.ram_factor)::text AS ram_hours, coalesce(sum(b.gpu * k.gpu_factor), 0)::text AS gpu_hours,
    sum(b.cpu * k.cpu_rate)::text AS cpu_cost, sum(b.mem * k.ram_rate)::text AS ram_cost, coalesce(sum(b.gpu * k.gpu_rate), 0)::text AS gpu_cost,
    sum(b.cpu_used * k.cpu_rate + b.mem_used * k.ram_rate)::text AS usage_cost, 0::int8 AS bill_days, 0::int8 AS catalog_days
  FROM by_rate b JOIN rate k ON k.rate_id = b.rate_id GROUP BY b.day, k.cluster, b.grp
  UNION ALL
  SELECT h.day::text, h.cluster, '', true, '0', '0', '0', sum(p.cpu_hourly * h.cost_hours)::text, sum(p.ram_hourly * h.cost_hours)::text,
    sum(p.gpu_hourly * h.cost_hours)::text, '0', sum(h.bill_days)::int8, sum(h.catalog_days)::int8
  FROM (SELECT CASE WHEN $12 THEN day END AS day, cluster, node, sum(hours * scale) AS cost_hours,
          count(*) FILTER (WHERE billed) AS bill_days, count(*) FILTER (WHERE NOT billed) AS catalog_days
        FROM rates GROUP BY 1, 2, 3) h JOIN price p ON p.node = h.node
  GROUP BY 1, 2`;

/** The group of `aggregate` ($13; label key $14) of a pod sample. */
const SAMPLE_GROUP = `CASE $13::text WHEN 'pod' THEN namespace || '/' || pod WHEN 'label' THEN coalesce(labels ->> $14::text, '__unallocated__')
      WHEN 'cluster' THEN cluster WHEN 'namespace' THEN namespace ELSE coalesce(nullif(controller, ''), '__unallocated__') END`;

const SAMPLE_CLAIMS = `
    SELECT (hour AT TIME ZONE 'UTC')::date AS day, node, ${SAMPLE_GROUP} AS grp,
      greatest(cpu_request, coalesce(cpu_usage, 0)) AS cpu, greatest(memory_request, coalesce(memory_usage, 0)) AS mem, gpu_request AS gpu,
      coalesce(cpu_usage, 0) AS cpu_used, coalesce(memory_usage, 0) AS mem_used
    FROM kubernetes_pod_samples WHERE tenant_id = $1 AND hour >= $2 AND hour < $3`;

/** allocationSql over whole days, from any `claims` (the benchmark's baseline reads them from the samples). */
export const wholeDayAllocationSql = (claims: string) => allocationSql(WHOLE_DAY_NODE_DAYS, claims);

/** Pod or a label's value ($13, key $14) over whole days, per day or over the range ($12): read from the samples. */
export const ALLOCATION_SAMPLES_SQL = allocationSql(WHOLE_DAY_NODE_DAYS, SAMPLE_CLAIMS);

/** Any aggregate ($13, key $14) over a range of whole hours that are not whole days: read from the samples. */
export const ALLOCATION_HOURS_SQL = allocationSql(HOURLY_NODE_DAYS, SAMPLE_CLAIMS);

/** The roll-up's group of `aggregate` (cluster, namespace or controller) for the row alias `c`. */
const rollupGroup = (aggregate: string) =>
  `CASE ${aggregate}::text WHEN 'cluster' THEN c.cluster WHEN 'namespace' THEN c.namespace ELSE coalesce(nullif(c.controller, ''), '__unallocated__') END`;

/**
 * Cluster, namespace or controller ($13) over whole days, per day or over the range ($12), from the
 * claim roll-ups: over the range, the calendar months wholly inside it from the month roll-up (a
 * row per node and group, not per day), the other days from the day roll-up. No claim row is
 * joined to its node-day: nodes that share a cluster, prices and whether the catalog prices them
 * (`base`) share one small integer (`rate_id`), each claim row finds its node's through a hash of
 * the range's nodes, and the claims are summed per (day, rate, group), then priced once per sum.
 * The claims of node-days whose factors or scale differ from the plain rate (over-committed days,
 * days priced from the bill: few of a cluster's node-days, or a bill's nodes) are read again from
 * the day roll-up through its key to add what their day changes: hours x (factor - 1) to the
 * claimed hours, and x (factor x scale - base) to the hours that are priced. The same figures as
 * allocationSql over the day roll-up.
 */
export const ALLOCATION_ROLLUP_SQL = `
  WITH ${head(WHOLE_DAY_NODE_DAYS)},
  rated AS MATERIALIZED (
    SELECT k.node, k.cluster, p.catalog_scale AS base, dense_rank() OVER (ORDER BY k.cluster, p.price_id, p.catalog_scale) AS rate_id
    FROM node k JOIN price p ON p.node = k.node),
  rate AS (
    SELECT DISTINCT ON (k.rate_id) k.rate_id, k.cluster, k.base, p.core_rate, p.gb_rate, p.gpu_rate
    FROM rated k JOIN price p ON p.node = k.node ORDER BY k.rate_id),
  -- Whole months of the range from the month roll-up (not per day), the other days from the day roll-up.
  claims AS (
    SELECT CASE WHEN $12 THEN c.day ELSE '-infinity' END AS day, k.rate_id, ${rollupGroup("$13")} AS grp,
      sum(c.cpu_claim) AS cpu, sum(c.memory_claim) AS mem, sum(c.gpu_claim) AS gpu, sum(c.cpu_usage) AS cpu_used, sum(c.memory_usage) AS mem_used
    FROM (
      SELECT NULL::date AS day, node, cluster, namespace, controller, cpu_claim, memory_claim, gpu_claim, cpu_usage, memory_usage
      FROM kubernetes_claim_months
      WHERE ${HAS_FULL_MONTHS} AND tenant_id = $1 AND month >= ${FULL_START} AND month < ${FULL_END}
      UNION ALL
      SELECT day, node, cluster, namespace, controller, cpu_claim, memory_claim, gpu_claim, cpu_usage, memory_usage
      FROM kubernetes_claim_days
      WHERE tenant_id = $1 AND day >= ${FIRST_DAY} AND day < CASE WHEN ${HAS_FULL_MONTHS} THEN ${FULL_START} ELSE ${END_DAY} END
      UNION ALL
      SELECT day, node, cluster, namespace, controller, cpu_claim, memory_claim, gpu_claim, cpu_usage, memory_usage
      FROM kubernetes_claim_days
      WHERE ${HAS_FULL_MONTHS} AND tenant_id = $1 AND day >= ${FULL_END} AND day < ${END_DAY}) c
    JOIN rated k ON k.node = c.node
    GROUP BY 1, 2, 3),
  changed AS (
    SELECT CASE WHEN $12 THEN d.day ELSE '-infinity' END AS day, k.rate_id, c.grp,
      sum(c.cpu_claim * (d.cpu_factor - 1)) AS cpu, sum(c.memory_claim * (d.ram_factor - 1)) AS mem, sum(c.gpu_claim * (d.gpu_factor - 1)) AS gpu,
      sum(c.cpu_claim * (d.cpu_factor * d.scale - k.base)) AS cpu_priced, sum(c.memory_claim * (d.ram_factor * d.scale - k.base)) AS mem_priced,
      sum(c.gpu_claim * (d.gpu_factor * d.scale - k.base)) AS gpu_priced,
      sum(c.cpu_usage * (d.cpu_factor * d.scale - k.base)) AS cpu_used, sum(c.memory_usage * (d.ram_factor * d.scale - k.base)) AS mem_used
    -- The node-days that differ first (OFFSET 0 keeps the filter below the lookups: joined after
    -- them, it let every node-day's claims be read, 900,000 rows for 18,000 over a month).
    FROM (SELECT d.day, d.node, d.cpu_factor, d.ram_factor, d.gpu_factor, d.scale FROM days d JOIN rated k ON k.node = d.node
          WHERE d.cpu_factor < 1 OR d.ram_factor < 1 OR d.gpu_factor < 1 OR d.scale <> k.base OFFSET 0) d
      JOIN rated k ON k.node = d.node,
      -- A lookup per such node-day through the key (OFFSET 0 keeps it one).
      LATERAL (SELECT ${rollupGroup("$13")} AS grp, c.cpu_claim, c.memory_claim, c.gpu_claim, c.cpu_usage, c.memory_usage
               FROM kubernetes_claim_days c WHERE c.tenant_id = $1 AND c.day = d.day AND c.node = d.node OFFSET 0) c
    GROUP BY 1, 2, 3),
  allocated AS (
    SELECT c.day, c.rate_id, c.grp, c.cpu + coalesce(s.cpu, 0) AS cpu, c.mem + coalesce(s.mem, 0) AS mem, c.gpu + coalesce(s.gpu, 0) AS gpu,
      c.cpu * r.base + coalesce(s.cpu_priced, 0) AS cpu_priced, c.mem * r.base + coalesce(s.mem_priced, 0) AS mem_priced,
      c.gpu * r.base + coalesce(s.gpu_priced, 0) AS gpu_priced,
      c.cpu_used * r.base + coalesce(s.cpu_used, 0) AS cpu_used, c.mem_used * r.base + coalesce(s.mem_used, 0) AS mem_used
    FROM claims c JOIN rate r ON r.rate_id = c.rate_id LEFT JOIN changed s ON s.day = c.day AND s.rate_id = c.rate_id AND s.grp = c.grp)
  SELECT CASE WHEN $12 THEN a.day::text END AS day, r.cluster, a.grp, false AS capacity,
    sum(a.cpu)::text AS cpu_hours, sum(a.mem)::text AS ram_hours, sum(a.gpu)::text AS gpu_hours, sum(a.cpu_priced * r.core_rate)::text AS cpu_cost,
    sum(a.mem_priced * r.gb_rate)::text AS ram_cost, sum(a.gpu_priced * r.gpu_rate)::text AS gpu_cost,
    sum(a.cpu_used * r.core_rate + a.mem_used * r.gb_rate)::text AS usage_cost, 0::int8 AS bill_days, 0::int8 AS catalog_days
  FROM allocated a JOIN rate r ON r.rate_id = a.rate_id
  GROUP BY a.day, r.cluster, a.grp
  UNION ALL
  SELECT CASE WHEN $12 THEN d.day::text END, k.cluster, '', true, '0', '0', '0', sum(p.cpu_hourly * d.hours * d.scale)::text,
    sum(p.ram_hourly * d.hours * d.scale)::text, sum(p.gpu_hourly * d.hours * d.scale)::text, '0',
    count(*) FILTER (WHERE d.billed), count(*) FILTER (WHERE NOT d.billed)
  FROM days d JOIN node k ON k.node = d.node JOIN price p ON p.node = d.node
  GROUP BY 1, 2`;

export interface AllocationParams {
  start: string;
  end: string;
  nodes: string[];
  /** The catalog's hourly price of each node, null where it has none. */
  hourly: (string | null)[];
  cores: (number | null)[];
  ram: (number | null)[];
  gpus: number[];
  bill: BillDay[];
  byDay: boolean;
  /** Whether start and end are UTC midnights (the roll-ups hold whole days). */
  wholeDays: boolean;
  aggregate: string;
  labelKey: string | null;
}

export function allocate(sql: SqlSession, tenantId: string, p: AllocationParams): Promise<AllocationSqlRow[]> {
  const head = [
    tenantId,
    p.start,
    p.end,
    p.nodes,
    p.hourly,
    p.cores,
    p.ram,
    p.gpus,
    p.bill.map((b) => b.node),
    p.bill.map((b) => b.day),
    p.bill.map((b) => b.cost),
    p.byDay,
  ];
  if (!p.wholeDays) return sql.query<AllocationSqlRow>(ALLOCATION_HOURS_SQL, [...head, p.labelKey !== null ? "label" : p.aggregate, p.labelKey ?? ""]);
  if (p.aggregate === "pod" || p.labelKey !== null) {
    return sql.query<AllocationSqlRow>(ALLOCATION_SAMPLES_SQL, [...head, p.labelKey !== null ? "label" : p.aggregate, p.labelKey ?? ""]);
  }
  return sql.query<AllocationSqlRow>(ALLOCATION_ROLLUP_SQL, [...head, p.aggregate]);
}

const BILL_DAY_COLUMNS = { node: "text", day: "text", cost: "text" } as const satisfies Columns;
export type BillDay = RowOf<typeof BILL_DAY_COLUMNS>;

/**
 * The bill's cost of each of the nodes ($3) per UTC day of the range's days ($4 start, $5 end): the
 * effective cost of the tenant's spend lines carrying the node's id as their FOCUS ResourceId,
 * by the day their charge period starts. One key range of the (organization_id, resource_id,
 * charge_period_start) index per node.
 */
const BILL_DAYS_SQL = `
  SELECT resource_id AS node, (charge_period_start AT TIME ZONE 'UTC')::date::text AS day, sum(effective_cost)::text AS cost
  FROM spend_lines
  WHERE organization_id = $1 AND resource_id = ANY($3::text[]) AND resource_id IS NOT NULL AND tenant_id = $2 AND effective_cost IS NOT NULL
    AND charge_period_start >= date_trunc('day', $4::timestamptz AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'
    AND charge_period_start < (date_trunc('day', ($5::timestamptz - interval '1 hour') AT TIME ZONE 'UTC') + interval '1 day') AT TIME ZONE 'UTC'
  GROUP BY 1, 2`;

export function findBillDays(sql: SqlSession, organizationId: string, tenantId: string, nodes: string[], start: string, end: string): Promise<BillDay[]> {
  if (nodes.length === 0) return Promise.resolve([]);
  return sql.query<BillDay>(BILL_DAYS_SQL, [organizationId, tenantId, nodes, start, end]);
}

const NODE_NAME_COLUMNS = { node: "text" } as const satisfies Columns;
export type NodeName = RowOf<typeof NODE_NAME_COLUMNS>;

/**
 * Kubernetes nodes billed in [$2, $3) with no pod claim there: billed through node-days without
 * claims, or only through utilization samples (nodes absent from the node-days). At most 100.
 */
const NODES_WITHOUT_PODS_SQL = `
  WITH days AS (
    SELECT node, bool_or(cpu_claim <> 0 OR memory_claim <> 0) AS claimed FROM kubernetes_node_days
    WHERE tenant_id = $1 AND day >= ${FIRST_DAY} AND day < ${END_DAY_CEIL} AND hours > 0
    GROUP BY node)
  SELECT r.resource_id AS node FROM compute_resources r LEFT JOIN days d ON d.node = r.resource_id
  WHERE r.tenant_id = $1 AND r.resource_type = 'kubernetes_node'
    AND CASE WHEN d.node IS NOT NULL THEN NOT d.claimed
             ELSE EXISTS (SELECT 1 FROM compute_samples s WHERE s.tenant_id = $1 AND s.resource_id = r.resource_id AND s.ts >= $2 AND s.ts < $3) END
  ORDER BY r.resource_id COLLATE "C" LIMIT 100`;

export function findNodesWithoutPods(sql: SqlSession, tenantId: string, start: string, end: string): Promise<NodeName[]> {
  return sql.query<NodeName>(NODES_WITHOUT_PODS_SQL, [tenantId, start, end]);
}

export function checkedStatements(): CheckedStatement[] {
  return [
    { name: "kubernetes allocation (roll-up)", sql: ALLOCATION_ROLLUP_SQL, columns: ALLOCATION_COLUMNS },
    { name: "kubernetes allocation (samples)", sql: ALLOCATION_SAMPLES_SQL, columns: ALLOCATION_COLUMNS },
    { name: "kubernetes allocation (hours)", sql: ALLOCATION_HOURS_SQL, columns: ALLOCATION_COLUMNS },
    { name: "kubernetes node bill days", sql: BILL_DAYS_SQL, columns: BILL_DAY_COLUMNS, notNullByFilter: ["node"] },
    { name: "kubernetes nodes without pods", sql: NODES_WITHOUT_PODS_SQL, columns: NODE_NAME_COLUMNS },
  ];
}

/** What the allocation service reads (beside the nodes: repository.ts); each function takes the client or the session it runs on. */
export const allocationRepository = { allocate, findBillDays, findNodesWithoutPods };
export type AllocationRepository = typeof allocationRepository;
