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
  cpu_cost: "text",
  ram_cost: "text",
  usage_cost: "text",
} as const satisfies Columns;
export type AllocationSqlRow = RowOf<typeof ALLOCATION_COLUMNS>;

const FIRST_DAY = "($2::timestamptz AT TIME ZONE 'UTC')::date";
const END_DAY = "($3::timestamptz AT TIME ZONE 'UTC')::date";
/** The calendar months wholly inside [$2, $3): from FULL_START to FULL_END (none unless FULL_START < FULL_END). */
const FULL_START = `(date_trunc('month', (${FIRST_DAY} - 1)::timestamp) + interval '1 month')::date`;
const FULL_END = `date_trunc('month', ${END_DAY}::timestamp)::date`;
/** Over the range ($8 false) with at least one whole month: those months are read from the month roll-up. */
const HAS_FULL_MONTHS = `(NOT $8 AND ${FULL_START} < ${FULL_END})`;

/**
 * What every allocation statement starts from ($1 tenant, $2 start, $3 end, $4 nodes, $5 hourly
 * prices, $6 cores, $7 GB of RAM). Per node (`price`): its hourly price split into CPU and memory by
 * the capacity weights, and the price of one core-hour and GB-hour (the CPU or memory price over its
 * cores or GB). Per node-day (`days`, one roll-up row each): its billed hours (the roll-up's, plus
 * hours of utilization samples with no pod or heartbeat) and the factors that scale its claims down
 * when the day's claims exceed cores (GB) x hours. Per node (`node`): its cluster (the resource's,
 * else the least one its pods named in the range) and its billed hours.
 */
const HEAD = `
  price AS MATERIALIZED (
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
    FROM (SELECT * FROM kubernetes_node_days WHERE tenant_id = $1 AND day >= ${FIRST_DAY} AND day < ${END_DAY}) d
    FULL JOIN sampled s ON s.day = d.day AND s.node = d.node),
  days AS MATERIALIZED (
    SELECT n.day, n.node, n.cluster, n.hours, p.price_id,
      least(1, p.cores * n.hours / nullif(n.cpu, 0)) AS cpu_factor, least(1, p.ram * n.hours / nullif(n.mem, 0)) AS ram_factor
    FROM node_days n JOIN price p ON p.node = n.node
    WHERE n.hours > 0),
  node AS MATERIALIZED (
    SELECT d.node, coalesce(r.cluster, d.cluster, '') AS cluster, d.hours
    FROM (SELECT node, min(cluster) AS cluster, sum(hours) AS hours FROM days GROUP BY node) d
    JOIN compute_resources r ON r.tenant_id = $1 AND r.resource_id = d.node)`;

/**
 * Per day ($8) or over the range, from `claims` (rows of day, node, grp and claimed and used
 * core-hours and GB-hours). Node-days that share a cluster, prices and over-commitment factors
 * (nodes of one type on days without over-commitment) share one small integer, so the claims are
 * summed per integer key and the numeric products are taken once per rate, not per claim row or
 * node-day. The `capacity` rows are each cluster's node cost, from which the caller takes idle as
 * what the groups leave.
 */
export const allocationSql = (claims: string) => `
  WITH ${HEAD},
  rates AS MATERIALIZED (
    SELECT x.*, dense_rank() OVER (ORDER BY x.cluster, x.price_id, x.cpu_factor, x.ram_factor) AS rate_id FROM (
      SELECT d.day, d.node, k.cluster, d.hours, d.price_id, d.cpu_factor, d.ram_factor
      FROM days d JOIN node k ON k.node = d.node) x),
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

/** The roll-up's group of `aggregate` (cluster, namespace or controller) for the row alias `c`. */
const rollupGroup = (aggregate: string) =>
  `CASE ${aggregate}::text WHEN 'cluster' THEN c.cluster WHEN 'namespace' THEN c.namespace ELSE coalesce(nullif(c.controller, ''), '__unallocated__') END`;

/** Pod ($9 = 'pod') or a label's value (key $10) per day or over the range ($8): read from the samples. */
export const ALLOCATION_SAMPLES_SQL = allocationSql(`
    SELECT (hour AT TIME ZONE 'UTC')::date AS day, node,
      CASE WHEN $9::text = 'pod' THEN namespace || '/' || pod ELSE coalesce(labels ->> $10::text, '__unallocated__') END AS grp,
      greatest(cpu_request, coalesce(cpu_usage, 0)) AS cpu, greatest(memory_request, coalesce(memory_usage, 0)) AS mem,
      coalesce(cpu_usage, 0) AS cpu_used, coalesce(memory_usage, 0) AS mem_used
    FROM kubernetes_pod_samples WHERE tenant_id = $1 AND hour >= $2 AND hour < $3`);

/**
 * Cluster, namespace or controller ($9), per day ($8) or over the range, from the claim roll-ups:
 * over the range, the calendar months wholly inside it from the month roll-up (a row per node and
 * group, not per day), the other days from the day roll-up. No claim row is joined to its
 * node-day: nodes that share a cluster and prices share one small integer (`rate_id`), each claim
 * row finds its node's through a hash of the range's nodes, and the claims are summed per (day,
 * rate, group), then priced once per sum. The claims of over-committed node-days (few, in a cluster
 * whose pods fit their nodes) are read again from the day roll-up through its key to take off what
 * their day's factors scale away. The same figures as allocationSql over the day roll-up.
 */
export const ALLOCATION_ROLLUP_SQL = `
  WITH ${HEAD},
  rated AS MATERIALIZED (
    SELECT k.node, k.cluster, dense_rank() OVER (ORDER BY k.cluster, p.price_id) AS rate_id
    FROM node k JOIN price p ON p.node = k.node),
  rate AS (
    SELECT DISTINCT ON (k.rate_id) k.rate_id, k.cluster, p.core_rate, p.gb_rate
    FROM rated k JOIN price p ON p.node = k.node ORDER BY k.rate_id),
  -- Whole months of the range from the month roll-up (not per day), the other days from the day roll-up.
  claims AS (
    SELECT CASE WHEN $8 THEN c.day ELSE '-infinity' END AS day, k.rate_id, ${rollupGroup("$9")} AS grp,
      sum(c.cpu_claim) AS cpu, sum(c.memory_claim) AS mem, sum(c.cpu_usage) AS cpu_used, sum(c.memory_usage) AS mem_used
    FROM (
      SELECT NULL::date AS day, node, cluster, namespace, controller, cpu_claim, memory_claim, cpu_usage, memory_usage
      FROM kubernetes_claim_months
      WHERE ${HAS_FULL_MONTHS} AND tenant_id = $1 AND month >= ${FULL_START} AND month < ${FULL_END}
      UNION ALL
      SELECT day, node, cluster, namespace, controller, cpu_claim, memory_claim, cpu_usage, memory_usage
      FROM kubernetes_claim_days
      WHERE tenant_id = $1 AND day >= ${FIRST_DAY} AND day < CASE WHEN ${HAS_FULL_MONTHS} THEN ${FULL_START} ELSE ${END_DAY} END
      UNION ALL
      SELECT day, node, cluster, namespace, controller, cpu_claim, memory_claim, cpu_usage, memory_usage
      FROM kubernetes_claim_days
      WHERE ${HAS_FULL_MONTHS} AND tenant_id = $1 AND day >= ${FULL_END} AND day < ${END_DAY}) c
    JOIN rated k ON k.node = c.node
    GROUP BY 1, 2, 3),
  scaled_away AS (
    SELECT CASE WHEN $8 THEN d.day ELSE '-infinity' END AS day, k.rate_id, c.grp,
      sum(c.cpu_claim * (d.cpu_factor - 1)) AS cpu, sum(c.memory_claim * (d.ram_factor - 1)) AS mem,
      sum(c.cpu_usage * (d.cpu_factor - 1)) AS cpu_used, sum(c.memory_usage * (d.ram_factor - 1)) AS mem_used
    FROM days d JOIN rated k ON k.node = d.node,
      -- A lookup per over-committed node-day through the key (OFFSET 0 keeps it one).
      LATERAL (SELECT ${rollupGroup("$9")} AS grp, c.cpu_claim, c.memory_claim, c.cpu_usage, c.memory_usage
               FROM kubernetes_claim_days c WHERE c.tenant_id = $1 AND c.day = d.day AND c.node = d.node OFFSET 0) c
    WHERE d.cpu_factor < 1 OR d.ram_factor < 1
    GROUP BY 1, 2, 3),
  allocated AS (
    SELECT c.day, c.rate_id, c.grp, c.cpu + coalesce(s.cpu, 0) AS cpu, c.mem + coalesce(s.mem, 0) AS mem,
      c.cpu_used + coalesce(s.cpu_used, 0) AS cpu_used, c.mem_used + coalesce(s.mem_used, 0) AS mem_used
    FROM claims c LEFT JOIN scaled_away s ON s.day = c.day AND s.rate_id = c.rate_id AND s.grp = c.grp)
  SELECT CASE WHEN $8 THEN a.day::text END AS day, r.cluster, a.grp, false AS capacity,
    sum(a.cpu)::text AS cpu_hours, sum(a.mem)::text AS ram_hours, sum(a.cpu * r.core_rate)::text AS cpu_cost,
    sum(a.mem * r.gb_rate)::text AS ram_cost, sum(a.cpu_used * r.core_rate + a.mem_used * r.gb_rate)::text AS usage_cost
  FROM allocated a JOIN rate r ON r.rate_id = a.rate_id
  GROUP BY a.day, r.cluster, a.grp
  UNION ALL
  SELECT CASE WHEN $8 THEN d.day::text END, k.cluster, '', true, '0', '0', sum(p.cpu_hourly * d.hours)::text, sum(p.ram_hourly * d.hours)::text, '0'
  FROM days d JOIN node k ON k.node = d.node JOIN price p ON p.node = d.node
  GROUP BY 1, 2`;

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
  const head = [tenantId, p.start, p.end, p.nodes, p.hourly, p.cores, p.ram];
  if (p.aggregate === "pod" || p.labelKey !== null) {
    return sql.query<AllocationSqlRow>(ALLOCATION_SAMPLES_SQL, [...head, p.byDay, p.aggregate, p.labelKey ?? ""]);
  }
  return sql.query<AllocationSqlRow>(ALLOCATION_ROLLUP_SQL, [...head, p.byDay, p.aggregate]);
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
    WHERE tenant_id = $1 AND day >= ${FIRST_DAY} AND day < ${END_DAY} AND hours > 0
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
    { name: "kubernetes nodes without pods", sql: NODES_WITHOUT_PODS_SQL, columns: NODE_NAME_COLUMNS },
  ];
}
