import type { Architecture, OperatingSystem, PurchaseOption } from "@cloudcost/contracts";
import type { SqlClient, SqlSession } from "@cloudcost/db";
import type { CheckedStatement, RowOf } from "@cloudcost/db";

// The statements of the compute roll-ups through the driver: the tail, its fence and the window
// statistics, and the SQL the day roll-ups share (day-rollup-repository.ts); what they keep and when
// they run is in rollups.ts.

export const isoDay = (d: Date) => d.toISOString().slice(0, 10);

/** The days a roll-up covers, and the raw samples' share of the analysis window (rollups.ts, rollupWindow). */
interface WindowBounds {
  since: Date;
  firstDay: Date;
  endDay: Date;
}

/**
 * Advisory lock keyspace of the tail's fence ("fenc"; the second key is hashtext(tenant id)): ingest
 * takes it shared (INGEST_SQL, sample-repository.ts), a cycle exclusive while it moves the fence. With the row lock alone
 * overlapping ingests could starve the cycle (share lockers of a row do not queue behind a waiting
 * writer); the lock manager queues a shared request behind a waiting exclusive one, so the cycle
 * waits for the ingests in flight only (docs/performance.md, "The tail's fence").
 */
export const FENCE_LOCK_CLASS = 0x66656e63;

export const ROLLUP_COLUMNS =
  "resource_id, samples, first_ts, last_ts, cpu_max, cpu_buckets, cpu_counts, memory_buckets, memory_counts, memory_first_ts, memory_last_ts, network_samples, network_low, cpu_sum";

/** Network in + out below this many bytes per second counts toward idle (docs/api.md, rule 3). */
export const IDLE_NETWORK_BYTES_PER_S = 5000;

const HAS_NETWORK = "(network_in_bytes_per_s IS NOT NULL OR network_out_bytes_per_s IS NOT NULL)";
const NETWORK_LOW = `(${HAS_NETWORK} AND COALESCE(network_in_bytes_per_s, 0) + COALESCE(network_out_bytes_per_s, 0) < ${IDLE_NETWORK_BYTES_PER_S})`;
const bucketOf = (column: string) => `round(${column} * 100)::smallint`;

/**
 * The samples of the tenant's resources in the given [from, to) ranges, grouped per resource and
 * (CPU, memory) bucket pair: count, first and last timestamp, exact CPU maximum. Read as one key range
 * per resource and range, grouped per resource inside the lateral join: grouped once, so the raw
 * rows are read once for the totals and both histograms, and through a lateral join, so each range is
 * read through the key whatever the planner estimates (docs/performance.md, "Roll-ups").
 * Rows are not unique per key: consumers sum `n`.
 */
export const BUCKETED = (ranges: [from: string, to: string][]) => `
    SELECT r.resource_id, x.cpu_b, x.mem_b, x.n, x.first_ts, x.last_ts, x.cpu_max, x.net_n, x.net_low
    FROM compute_resources r CROSS JOIN LATERAL (
      SELECT ${bucketOf("cpu_utilization")} AS cpu_b, ${bucketOf("memory_utilization")} AS mem_b, count(*)::int AS n,
             min(ts) AS first_ts, max(ts) AS last_ts, max(cpu_utilization) AS cpu_max,
             (count(*) FILTER (WHERE ${HAS_NETWORK}))::int AS net_n, (count(*) FILTER (WHERE ${NETWORK_LOW}))::int AS net_low
      FROM (${ranges
        .map(
          ([from, to]) =>
            `SELECT ts, cpu_utilization, memory_utilization, network_in_bytes_per_s, network_out_bytes_per_s FROM compute_samples s WHERE s.tenant_id = $1 AND s.resource_id = r.resource_id AND s.ts >= ${from} AND s.ts < ${to}`,
        )
        .join(" UNION ALL ")}) s
      GROUP BY 1, 2) x
    WHERE r.tenant_id = $1`;

const bucketedRow = (source: string) =>
  `SELECT resource_id, ${bucketOf("cpu_utilization")}, ${bucketOf("memory_utilization")}, 1, ts, ts, cpu_utilization,
     (${HAS_NETWORK})::int, (${NETWORK_LOW})::int FROM ${source}`;

/** Per resource over bucketed rows (BUCKETED's columns): the roll-up's scalar columns. */
export const RAW_TOTALS = `resource_id, sum(n)::int AS samples, min(first_ts) AS first_ts, max(last_ts) AS last_ts, max(cpu_max) AS cpu_max,
      min(first_ts) FILTER (WHERE mem_b IS NOT NULL) AS memory_first_ts, max(last_ts) FILTER (WHERE mem_b IS NOT NULL) AS memory_last_ts,
      sum(net_n)::int AS network_samples, sum(net_low)::int AS network_low, sum(cpu_b::bigint * n)::bigint AS cpu_sum`;

/**
 * A day roll-up also keeps its histograms by whole percent (bucket b / 100): the p95 is found in two
 * steps (WINDOW_STATS), the whole percent first, then the hundredths inside it only.
 */
export const COARSE_COLUMNS = "cpu_coarse_buckets, cpu_coarse_counts, memory_coarse_buckets, memory_coarse_counts";
export const COARSE = (bucket: "cpu_b" | "mem_b") => `
    SELECT resource_id, array_agg(b ORDER BY b) AS buckets, array_agg(n ORDER BY b) AS counts
    FROM (SELECT resource_id, ${bucket} / 100 AS b, sum(n)::int AS n FROM raw WHERE ${bucket} IS NOT NULL GROUP BY 1, 2) h GROUP BY resource_id`;

export const ROLLUP_VALUES = `t.resource_id, t.samples, t.first_ts, t.last_ts, t.cpu_max, c.buckets, c.counts, m.buckets, m.counts,
    t.memory_first_ts, t.memory_last_ts, t.network_samples, t.network_low, t.cpu_sum`;
export const ROLLUP_UPDATE = ROLLUP_COLUMNS.split(", ")
  .slice(1)
  .map((column) => `${column} = excluded.${column}`)
  .join(", ");

/** Per resource over earlier roll-up rows (`rollups`) and the bucketed rows of `raw`: the roll-up's scalar columns. */
const MERGED_TOTALS = (rollups: string) => `resource_id, sum(samples)::int AS samples, min(first_ts) AS first_ts, max(last_ts) AS last_ts,
      max(cpu_max) AS cpu_max, min(memory_first_ts) AS memory_first_ts, max(memory_last_ts) AS memory_last_ts,
      sum(network_samples)::int AS network_samples, sum(network_low)::int AS network_low, sum(cpu_sum)::bigint AS cpu_sum
    FROM (SELECT resource_id, samples, first_ts, last_ts, cpu_max, memory_first_ts, memory_last_ts, network_samples, network_low, cpu_sum FROM ${rollups} rollups
          UNION ALL SELECT ${RAW_TOTALS} FROM raw GROUP BY resource_id) x
    GROUP BY resource_id`;

/** The sparse histogram of one column over the previous tail rows ($4: extending) plus the new bucketed samples. */
const MERGED_HISTOGRAM = (column: "cpu" | "memory", bucket: "cpu_b" | "mem_b") => `
    SELECT resource_id, array_agg(b ORDER BY b) AS buckets, array_agg(n ORDER BY b) AS counts FROM (
      SELECT resource_id, b, sum(n)::int AS n FROM (
        SELECT o.resource_id, u.b, u.n FROM old o, unnest(o.${column}_buckets, o.${column}_counts) AS u(b, n)
        UNION ALL SELECT resource_id, ${bucket}, n FROM raw WHERE ${bucket} IS NOT NULL) h
      GROUP BY 1, 2) h
    GROUP BY resource_id`;

/**
 * Builds ($4 false: from the raw samples of [$2, $3) alone, rows of resources without any deleted)
 * or extends ($4 true: previous rows plus the samples of [$2, $3) and the queued late samples before
 * $2; only resources with new samples are rewritten) the tail roll-up. Queued samples are taken in
 * the same snapshot as the raw ones: those from $2 on are among the raw samples already, and a
 * rebuild reads them all. What the tail now covers is recorded in the same transaction (rollUp).
 */
const ROLL_UP_TAIL = `
  WITH queued AS (
    DELETE FROM compute_sample_tail_late WHERE tenant_id = $1
    RETURNING resource_id, ts, cpu_utilization, memory_utilization, network_in_bytes_per_s, network_out_bytes_per_s),
  raw AS (
    ${BUCKETED([["$2", "$3"]])}
    UNION ALL ${bucketedRow("queued WHERE $4 AND ts < $2")}),
  old AS (
    SELECT t.* FROM compute_sample_tail t
    WHERE t.tenant_id = $1 AND $4 AND t.resource_id IN (SELECT resource_id FROM raw)),
  totals AS (SELECT ${MERGED_TOTALS("old")}),
  cpu AS (${MERGED_HISTOGRAM("cpu", "cpu_b")}),
  mem AS (${MERGED_HISTOGRAM("memory", "mem_b")}),
  cleared AS (DELETE FROM compute_sample_tail WHERE tenant_id = $1 AND NOT $4 AND resource_id NOT IN (SELECT resource_id FROM totals))
  INSERT INTO compute_sample_tail AS t (tenant_id, ${ROLLUP_COLUMNS})
  SELECT $1, ${ROLLUP_VALUES}
  FROM totals t JOIN cpu c USING (resource_id) LEFT JOIN mem m USING (resource_id)
  ON CONFLICT (tenant_id, resource_id) DO UPDATE SET ${ROLLUP_UPDATE}`;

/** Writes the tail roll-up (ROLL_UP_TAIL) in the session's transaction. */
export async function writeTail(session: SqlSession, tenantId: string, tail: { from: Date; cut: Date; extending: boolean }): Promise<void> {
  await session.query(ROLL_UP_TAIL, [tenantId, tail.from, tail.cut, tail.extending]);
}

const DAY_VERSION_COLUMNS = { version: "int4" } as const;
const DAY_VERSION_SQL = "SELECT COALESCE((SELECT version FROM compute_sample_day_status WHERE tenant_id = $1 AND day = $2::date), 0) AS version";

/** The status version of a day (0 when it has no status row). */
export async function dayVersion(session: SqlSession, tenantId: string, day: string): Promise<number> {
  const [{ version }] = await session.query<RowOf<typeof DAY_VERSION_COLUMNS>>(DAY_VERSION_SQL, [tenantId, day]);
  return version;
}

const FENCE_LOCK_SQL = "SELECT pg_advisory_xact_lock($1, hashtext($2))";

/** Takes the fence's advisory lock exclusive until the session's transaction ends. */
export async function lockFence(session: SqlSession, tenantId: string): Promise<void> {
  await session.query(FENCE_LOCK_SQL, [FENCE_LOCK_CLASS, tenantId]);
}

const TAIL_STATUS_COLUMNS = { from_day: "text null", cut: "timestamptz null", rolled_cut: "timestamptz null", rolled_version: "int4 null" } as const;
export type TailStatus = RowOf<typeof TAIL_STATUS_COLUMNS>;
const TAIL_STATUS_LIST = "to_char(from_day, 'YYYY-MM-DD') AS from_day, cut, rolled_cut, rolled_version";
const MOVE_FENCE_SQL = `UPDATE compute_sample_tail_status SET cut = GREATEST(cut, $2) WHERE tenant_id = $1 RETURNING ${TAIL_STATUS_LIST}`;
const TAIL_STATUS_SQL = `SELECT ${TAIL_STATUS_LIST} FROM compute_sample_tail_status WHERE tenant_id = $1`;
const INSERT_TAIL_STATUS_SQL = "INSERT INTO compute_sample_tail_status (tenant_id) VALUES ($1) ON CONFLICT DO NOTHING";
const RECORD_TAIL_SQL = "UPDATE compute_sample_tail_status SET from_day = $2::date, rolled_cut = $3, rolled_version = $4 WHERE tenant_id = $1";

/** The status row after moving its fence forward to `target` (never back); undefined when the tenant has none. */
export async function advanceFence(session: SqlSession, tenantId: string, target: Date): Promise<TailStatus | undefined> {
  const [moved] = await session.query<TailStatus>(MOVE_FENCE_SQL, [tenantId, target]);
  return moved;
}

export async function findTailStatus(session: SqlSession, tenantId: string): Promise<TailStatus | undefined> {
  const [current] = await session.query<TailStatus>(TAIL_STATUS_SQL, [tenantId]);
  return current;
}

export async function insertTailStatus(session: SqlSession, tenantId: string): Promise<void> {
  await session.query(INSERT_TAIL_STATUS_SQL, [tenantId]);
}

/** Records what the tail now covers: [endDay, cut) at the day status version `version`. */
export async function recordTail(session: SqlSession, tenantId: string, tail: { endDay: string; cut: Date; version: number }): Promise<void> {
  await session.query(RECORD_TAIL_SQL, [tenantId, tail.endDay, tail.cut, tail.version]);
}

/**
 * Per resource: samples, first/last sample, exact CPU maximum, and nearest-rank p95 of CPU and
 * memory (rank ceil(0.95 n) of the merged histograms in hundredths) over the day roll-ups of
 * [firstDay, endDay), the tail roll-up of [endDay, tailCut) and the raw samples of the rest of the
 * window ([since, firstDay) and from tailCut on; tailCut = endDay when there is no tail).
 * Parameters: $1 tenant, $2 since, $3 firstDay, $4 endDay (timestamps), $5 firstDay, $6 endDay (dates), $7 tailCut.
 */
/**
 * Exact nearest-rank p95 in two steps, so that the hundredths are read only where the rank is:
 * 1. the whole percent holding rank ceil(0.95 n), and how many samples lie below it, from the
 *    coarse histograms (the days' own, the tail's and raw samples' derived from their hundredths);
 * 2. inside that whole percent, the hundredths: a slice of each day's sorted buckets found by binary
 *    search (width_bucket), plus the tail's and the raw samples there.
 * Merging the full hundredths of 14 days instead sorted one row per distinct value and resource
 * (docs/performance.md, "Exact percentiles").
 */
const P95 = (column: "cpu" | "memory", bucket: "cpu_b" | "mem_b") => `
  ${column}_coarse AS (
    SELECT resource_id, b, sum(n) AS n FROM (
      SELECT resource_id, u.b::int AS b, u.n::bigint AS n FROM days, unnest(days.${column}_coarse_buckets, days.${column}_coarse_counts) AS u(b, n)
      UNION ALL SELECT resource_id, u.b / 100, u.n FROM tail, unnest(tail.${column}_buckets, tail.${column}_counts) AS u(b, n)
      UNION ALL SELECT resource_id, ${bucket} / 100, n FROM raw WHERE ${bucket} IS NOT NULL) x
    GROUP BY resource_id, b),
  ${column}_at AS (
    SELECT DISTINCT ON (resource_id) resource_id, b AS whole, below - n AS before, rank, total FROM (
      SELECT resource_id, b, n, sum(n) OVER (PARTITION BY resource_id ORDER BY b) AS below,
             sum(n) OVER (PARTITION BY resource_id) AS total, ceil(0.95 * sum(n) OVER (PARTITION BY resource_id)) AS rank
      FROM ${column}_coarse) c
    WHERE below >= rank ORDER BY resource_id, b),
  ${column}_fine AS (
    SELECT resource_id, b, sum(n) AS n FROM (
      SELECT a.resource_id, u.b::int AS b, u.n::bigint AS n FROM ${column}_at a JOIN days d USING (resource_id),
        LATERAL (SELECT width_bucket((a.whole * 100 - 1)::smallint, d.${column}_buckets) + 1 AS lo,
                        width_bucket((a.whole * 100 + 99)::smallint, d.${column}_buckets) AS hi) s,
        unnest(d.${column}_buckets[s.lo:s.hi], d.${column}_counts[s.lo:s.hi]) AS u(b, n)
      UNION ALL SELECT a.resource_id, u.b, u.n FROM ${column}_at a JOIN tail t USING (resource_id),
        unnest(t.${column}_buckets, t.${column}_counts) AS u(b, n) WHERE u.b / 100 = a.whole
      UNION ALL SELECT a.resource_id, r.${bucket}, r.n FROM ${column}_at a JOIN raw r USING (resource_id) WHERE r.${bucket} / 100 = a.whole) x
    GROUP BY resource_id, b),
  ${column} AS (
    SELECT DISTINCT ON (resource_id) resource_id, b / 100.0 AS p95, total::int AS n FROM (
      SELECT f.resource_id, f.b, a.before + sum(f.n) OVER (PARTITION BY f.resource_id ORDER BY f.b) AS below, a.rank, a.total
      FROM ${column}_fine f JOIN ${column}_at a USING (resource_id)) c
    WHERE below >= rank ORDER BY resource_id, b)`;

const WINDOW_STATS = `
  WITH raw AS (${BUCKETED([
    ["$2", "$3"],
    ["$7", "'infinity'"],
  ])}),
  days AS (
    SELECT ${ROLLUP_COLUMNS}, ${COARSE_COLUMNS} FROM compute_sample_days WHERE tenant_id = $1 AND day >= $5::date AND day < $6::date),
  tail AS (SELECT ${ROLLUP_COLUMNS} FROM compute_sample_tail WHERE tenant_id = $1 AND $7::timestamptz > $4::timestamptz),
  totals AS (SELECT ${MERGED_TOTALS(`(SELECT ${ROLLUP_COLUMNS} FROM days UNION ALL SELECT ${ROLLUP_COLUMNS} FROM tail)`)}),
  ${P95("cpu", "cpu_b")},
  ${P95("memory", "mem_b")}
  SELECT t.resource_id, t.samples, t.first_ts AS window_start, t.last_ts AS window_end, c.p95::float8 AS cpu_p95, t.cpu_max,
    m.p95::float8 AS memory_p95, COALESCE(m.n, 0) AS memory_samples, t.memory_first_ts AS memory_start, t.memory_last_ts AS memory_end,
    t.network_samples, t.network_low, t.cpu_sum::float8 / 100 / t.samples AS cpu_mean
  FROM totals t LEFT JOIN cpu c USING (resource_id) LEFT JOIN memory m USING (resource_id)`;

const iso = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

const STATS_COLUMNS = {
  resource_id: "text",
  provider: "text null",
  region: "text null",
  instance_type: "text null",
  architecture: "text null",
  operating_system: "text null",
  cpu_cores: "float8 null",
  ram_gb: "float8 null",
  purchase_option: "text",
  samples: "int4 null",
  window_start: "text null",
  window_end: "text null",
  cpu_p95: "float8 null",
  cpu_max: "float8 null",
  memory_p95: "float8 null",
  memory_samples: "int4 null",
  memory_start: "text null",
  memory_end: "text null",
  network_samples: "int4 null",
  network_low: "int4 null",
  cpu_mean: "float8 null",
  changed_at: "timestamptz null",
} as const;
export type WindowStatsRow = Omit<RowOf<typeof STATS_COLUMNS>, "architecture" | "operating_system" | "purchase_option"> & {
  architecture: Architecture | null;
  operating_system: OperatingSystem | null;
  purchase_option: PurchaseOption;
};

// Nearest-rank p95 over the day and tail roll-ups plus the raw samples of the window's edges;
// only one row per resource comes back to Node.
const STATS_SQL = `
  WITH s AS (${WINDOW_STATS})
  SELECT r.resource_id, r.provider, r.region, r.instance_type, r.architecture, r.operating_system, r.cpu_cores, r.ram_gb, r.purchase_option,
         s.samples, ${iso("s.window_start")} AS window_start, ${iso("s.window_end")} AS window_end,
         s.cpu_p95, s.cpu_max, s.memory_p95, s.memory_samples, ${iso("s.memory_start")} AS memory_start, ${iso("s.memory_end")} AS memory_end,
         s.network_samples, s.network_low, s.cpu_mean, r.shape_changed_at AS changed_at
  FROM compute_resources r LEFT JOIN s ON s.resource_id = r.resource_id
  WHERE r.tenant_id = $1 AND r.retired_at IS NULL`;

/**
 * Every resource of the tenant with its statistics over the window (roll-ups up to `tailCut`, raw
 * samples elsewhere). Through the driver: Prisma's raw-query layer converts every row and array
 * element into objects of its own, garbage that stalls the event loop under load.
 */
export function findWindowStats(sql: SqlClient, tenantId: string, w: WindowBounds, tailCut: Date): Promise<WindowStatsRow[]> {
  return sql.query<WindowStatsRow>(STATS_SQL, [tenantId, w.since, w.firstDay, w.endDay, isoDay(w.firstDay), isoDay(w.endDay), tailCut]);
}

/**
 * Statistics from raw samples for resources resized inside the window: only the samples from the
 * resize on count (their day roll-ups mix both shapes). Few resources are resized at a time, so each
 * is read as one key range and its percentiles found by sorting its own samples.
 * $1 tenant, $2 resource ids, $3 their first sample times (the later of the resize and the window start).
 */
const RESIZED_STATS_SQL = `
  WITH s AS (
    SELECT v.resource_id, x.ts, x.cpu_utilization AS cpu, x.memory_utilization AS mem,
      (${HAS_NETWORK.replace(/network_/g, "x.network_")})::int AS net_n, (${NETWORK_LOW.replace(/network_/g, "x.network_")})::int AS net_low
    FROM unnest($2::text[], $3::timestamptz[]) AS v(resource_id, since)
    JOIN compute_samples x ON x.tenant_id = $1 AND x.resource_id = v.resource_id AND x.ts >= v.since),
  cpu AS (
    SELECT resource_id, cpu, row_number() OVER (PARTITION BY resource_id ORDER BY cpu) AS k, count(*) OVER (PARTITION BY resource_id) AS n FROM s),
  mem AS (
    SELECT resource_id, mem, row_number() OVER (PARTITION BY resource_id ORDER BY mem) AS k, count(*) OVER (PARTITION BY resource_id) AS n
    FROM s WHERE mem IS NOT NULL)
  SELECT t.resource_id, t.samples, ${iso("t.window_start")} AS window_start, ${iso("t.window_end")} AS window_end,
    (SELECT c.cpu FROM cpu c WHERE c.resource_id = t.resource_id AND c.k = ceil(0.95 * c.n)) AS cpu_p95, t.cpu_max,
    (SELECT m.mem FROM mem m WHERE m.resource_id = t.resource_id AND m.k = ceil(0.95 * m.n)) AS memory_p95,
    t.memory_samples, ${iso("t.memory_start")} AS memory_start, ${iso("t.memory_end")} AS memory_end,
    t.network_samples, t.network_low, t.cpu_mean
  FROM (
    SELECT resource_id, count(*)::int AS samples, min(ts) AS window_start, max(ts) AS window_end, max(cpu) AS cpu_max,
      (count(mem))::int AS memory_samples, min(ts) FILTER (WHERE mem IS NOT NULL) AS memory_start, max(ts) FILTER (WHERE mem IS NOT NULL) AS memory_end,
      sum(net_n)::int AS network_samples, sum(net_low)::int AS network_low, (sum(round(cpu::numeric * 100)) / 100 / count(*))::float8 AS cpu_mean
    FROM s GROUP BY resource_id) t`;

const RESIZED_STATS_COLUMNS = {
  resource_id: "text",
  samples: "int4",
  window_start: "text",
  window_end: "text",
  cpu_p95: "float8 null",
  cpu_max: "float8",
  memory_p95: "float8 null",
  memory_samples: "int4",
  memory_start: "text null",
  memory_end: "text null",
  network_samples: "int4",
  network_low: "int4",
  cpu_mean: "float8",
} as const;
export type ResizedStatsRow = RowOf<typeof RESIZED_STATS_COLUMNS>;

/** Statistics of the samples of each resource from its own start time on (resized resources). */
export function findStatsSince(sql: SqlClient, tenantId: string, since: { resourceId: string; from: Date }[]): Promise<ResizedStatsRow[]> {
  if (since.length === 0) return Promise.resolve([]);
  return sql.query<ResizedStatsRow>(RESIZED_STATS_SQL, [tenantId, since.map((s) => s.resourceId), since.map((s) => s.from)]);
}

/** The raw statements of this module, for test/repository-row-types.test.ts. */
export function checkedStatements(): CheckedStatement[] {
  return [
    { name: "compute tail roll-up", sql: ROLL_UP_TAIL, columns: null },
    { name: "compute day version", sql: DAY_VERSION_SQL, columns: DAY_VERSION_COLUMNS },
    { name: "compute fence lock", sql: FENCE_LOCK_SQL, columns: null },
    { name: "compute fence move", sql: MOVE_FENCE_SQL, columns: TAIL_STATUS_COLUMNS },
    { name: "compute tail status", sql: TAIL_STATUS_SQL, columns: TAIL_STATUS_COLUMNS },
    { name: "compute tail status insert", sql: INSERT_TAIL_STATUS_SQL, columns: null },
    { name: "compute tail record", sql: RECORD_TAIL_SQL, columns: null },
    { name: "compute window statistics", sql: STATS_SQL, columns: STATS_COLUMNS },
    { name: "compute statistics since a resize", sql: RESIZED_STATS_SQL, columns: RESIZED_STATS_COLUMNS },
  ];
}

/** What the tail roll-up (rollups.ts) reads and writes; each function runs on the cycle's session. */
export const tailRepository = { writeTail, dayVersion, lockFence, advanceFence, findTailStatus, insertTailStatus, recordTail };
export type TailRepository = typeof tailRepository;
