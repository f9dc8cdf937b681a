import type { SqlSession } from "@cloudcost/db";
import type { Prisma } from "../db";

/**
 * Daily roll-ups of the raw samples, so that an analysis cycle reads ~one row per resource and day
 * instead of every 5-minute sample (10,000 resources × 14 days × 288 = 40 M rows).
 *
 * - A UTC day is *settled* one hour after it ends; only settled days are rolled up, by the
 *   analysis cycle (ingest stays a plain insert). Ingest bumps the day's status `version` when a
 *   sample lands in a day that ended more than 30 minutes ago (a late or re-sent sample); the
 *   roll-up records the version it read in the same snapshot as the samples, so a day is rebuilt
 *   whenever a sample arrived after its roll-up, and a re-sent sample is never counted twice
 *   (a roll-up is always rebuilt from the raw rows, never incremented). The 30-minute margin covers
 *   an ingest transaction that straddles the moment the day settles.
 * - Histograms count values in hundredths of a percentage point (bucket b holds the value b / 100,
 *   0..10000: ingest stores utilization rounded half-up to two decimals), stored sparse (buckets
 *   with a count only). The nearest-rank p95 of the merged histogram is therefore the exact
 *   nearest-rank p95 of the stored samples; the maximum is kept exact too.
 * - Memory counts as evidence on its own (rightsizing.ts): the roll-ups keep the first and last
 *   sample that carried memory. Network is only compared with the idle threshold, so a roll-up keeps
 *   two counts, samples that carried network and those below the threshold, from which
 *   "p95 below the threshold" is decided exactly (rank ceil(0.95 n) of n values is below t exactly
 *   when at least that many values are).
 */

const SETTLE_MS = 3600_000;
const DAY_MS = 86_400_000;

export interface RollupWindow {
  /** First sample time in the window (now − lookback). */
  since: Date;
  /** Rolled-up days are [firstDay, endDay) (UTC midnights); empty when endDay <= firstDay. */
  firstDay: Date;
  endDay: Date;
}

const floorDay = (t: number) => Math.floor(t / DAY_MS) * DAY_MS;
const isoDay = (d: Date) => d.toISOString().slice(0, 10);

/** The whole settled days inside [since, now]; raw samples cover the rest of the window. */
export function rollupWindow(since: Date, now: Date): RollupWindow {
  const firstDay = new Date(Math.ceil(since.getTime() / DAY_MS) * DAY_MS);
  const endDay = new Date(Math.max(firstDay.getTime(), floorDay(now.getTime() - SETTLE_MS)));
  return { since, firstDay, endDay };
}

const ROLLUP_COLUMNS =
  "resource_id, samples, first_ts, last_ts, cpu_max, cpu_buckets, cpu_counts, memory_buckets, memory_counts, memory_first_ts, memory_last_ts, network_samples, network_low";

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
const BUCKETED = (ranges: [from: string, to: string][]) => `
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
const RAW_TOTALS = `resource_id, sum(n)::int AS samples, min(first_ts) AS first_ts, max(last_ts) AS last_ts, max(cpu_max) AS cpu_max,
      min(first_ts) FILTER (WHERE mem_b IS NOT NULL) AS memory_first_ts, max(last_ts) FILTER (WHERE mem_b IS NOT NULL) AS memory_last_ts,
      sum(net_n)::int AS network_samples, sum(net_low)::int AS network_low`;

/**
 * A day roll-up also keeps its histograms by whole percent (bucket b / 100): the p95 is found in two
 * steps (WINDOW_STATS), the whole percent first, then the hundredths inside it only.
 */
const COARSE_COLUMNS = "cpu_coarse_buckets, cpu_coarse_counts, memory_coarse_buckets, memory_coarse_counts";
const COARSE = (bucket: "cpu_b" | "mem_b") => `
    SELECT resource_id, array_agg(b ORDER BY b) AS buckets, array_agg(n ORDER BY b) AS counts
    FROM (SELECT resource_id, ${bucket} / 100 AS b, sum(n)::int AS n FROM raw WHERE ${bucket} IS NOT NULL GROUP BY 1, 2) h GROUP BY resource_id`;

const ROLLUP_VALUES = `t.resource_id, t.samples, t.first_ts, t.last_ts, t.cpu_max, c.buckets, c.counts, m.buckets, m.counts,
    t.memory_first_ts, t.memory_last_ts, t.network_samples, t.network_low`;
const ROLLUP_UPDATE = ROLLUP_COLUMNS.split(", ")
  .slice(1)
  .map((column) => `${column} = excluded.${column}`)
  .join(", ");

/** Per resource over earlier roll-up rows (`rollups`) and the bucketed rows of `raw`: the roll-up's scalar columns. */
const MERGED_TOTALS = (rollups: string) => `resource_id, sum(samples)::int AS samples, min(first_ts) AS first_ts, max(last_ts) AS last_ts,
      max(cpu_max) AS cpu_max, min(memory_first_ts) AS memory_first_ts, max(memory_last_ts) AS memory_last_ts,
      sum(network_samples)::int AS network_samples, sum(network_low)::int AS network_low
    FROM (SELECT resource_id, samples, first_ts, last_ts, cpu_max, memory_first_ts, memory_last_ts, network_samples, network_low FROM ${rollups} rollups
          UNION ALL SELECT ${RAW_TOTALS} FROM raw GROUP BY resource_id) x
    GROUP BY resource_id`;

const ROLL_UP_DAY = `
  WITH raw AS (${BUCKETED([["$2::date::timestamp AT TIME ZONE 'UTC'", "($2::date + 1)::timestamp AT TIME ZONE 'UTC'"]])}),
  totals AS (SELECT ${RAW_TOTALS} FROM raw GROUP BY resource_id),
  cpu AS (
    SELECT resource_id, array_agg(b ORDER BY b) AS buckets, array_agg(n ORDER BY b) AS counts
    FROM (SELECT resource_id, cpu_b AS b, sum(n)::int AS n FROM raw GROUP BY 1, 2) h GROUP BY resource_id),
  mem AS (
    SELECT resource_id, array_agg(b ORDER BY b) AS buckets, array_agg(n ORDER BY b) AS counts
    FROM (SELECT resource_id, mem_b AS b, sum(n)::int AS n FROM raw WHERE mem_b IS NOT NULL GROUP BY 1, 2) h GROUP BY resource_id),
  cpu_coarse AS (${COARSE("cpu_b")}),
  mem_coarse AS (${COARSE("mem_b")}),
  cleared AS (DELETE FROM compute_sample_days WHERE tenant_id = $1 AND day = $2::date AND resource_id NOT IN (SELECT resource_id FROM totals)),
  status AS (
    INSERT INTO compute_sample_day_status AS s (tenant_id, day, version, rolled_version)
    VALUES ($1, $2::date, 0, COALESCE((SELECT version FROM compute_sample_day_status WHERE tenant_id = $1 AND day = $2::date), 0))
    ON CONFLICT (tenant_id, day) DO UPDATE SET rolled_version = excluded.rolled_version)
  INSERT INTO compute_sample_days (tenant_id, day, ${ROLLUP_COLUMNS}, ${COARSE_COLUMNS})
  SELECT $1, $2::date, ${ROLLUP_VALUES}, cc.buckets, cc.counts, mc.buckets, mc.counts
  FROM totals t JOIN cpu c USING (resource_id) LEFT JOIN mem m USING (resource_id)
    JOIN cpu_coarse cc USING (resource_id) LEFT JOIN mem_coarse mc USING (resource_id)
  ON CONFLICT (tenant_id, resource_id, day) DO UPDATE SET ${ROLLUP_UPDATE}, ${COARSE_COLUMNS.split(", ")
    .map((column) => `${column} = excluded.${column}`)
    .join(", ")}`;

/**
 * Rolls up every settled day of the window that has no roll-up yet or got samples since (one
 * statement per day: the samples and the status version are read in one snapshot); rows of
 * resources without samples that day any more are deleted, the others overwritten.
 */
export async function rollUpSettledDays(prisma: Prisma, tenantId: string, window: RollupWindow): Promise<number> {
  if (window.endDay <= window.firstDay) return 0;
  const stale = await prisma.$queryRawUnsafe<{ day: string }[]>(
    `SELECT to_char(d, 'YYYY-MM-DD') AS day
     FROM generate_series($2::date, $3::date - 1, interval '1 day') AS d
     LEFT JOIN compute_sample_day_status s ON s.tenant_id = $1 AND s.day = d::date
     WHERE s.day IS NULL OR s.rolled_version IS DISTINCT FROM s.version
     ORDER BY d`,
    tenantId,
    isoDay(window.firstDay),
    isoDay(window.endDay),
  );
  for (const { day } of stale) await prisma.$executeRawUnsafe(ROLL_UP_DAY, tenantId, day);
  return stale.length;
}

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

interface TailStatus {
  from_day: string | null;
  cut: Date | null;
  rolled_cut: Date | null;
  rolled_version: number | null;
}

/** How long a cycle waits for in-flight ingests to let go of the fence before it keeps the tail as it is. */
const FENCE_WAIT = "2s";

/**
 * Advisory lock keyspace of the tail's fence ("fenc"; the second key is hashtext(tenant id)): ingest
 * takes it shared (INGEST_SQL), a cycle exclusive while it moves the fence. With the row lock alone
 * overlapping ingests could starve the cycle (share lockers of a row do not queue behind a waiting
 * writer); the lock manager queues a shared request behind a waiting exclusive one, so the cycle
 * waits for the ingests in flight only (docs/performance.md, "The tail's fence").
 */
export const FENCE_LOCK_CLASS = 0x66656e63;

/**
 * The tail: the window's unsettled part, [endDay, cut), rolled up per resource and extended each
 * cycle by the samples since the previous cut only, so a cycle's cost follows what arrived since the
 * last one, not the whole unsettled day (which the statistics otherwise re-read every cycle).
 *
 * - The fence: ingest share-locks the tenant's status row (after the fence's advisory lock, shared)
 *   and checks its samples against `cut`. A
 *   new sample behind it (a delayed agent) is queued in compute_sample_tail_late for the next
 *   extension; a re-sent one (its old value is in the tail) marks the tail stale, through a version
 *   bump of its first day's status, as for day roll-ups. A cycle first moves `cut` to `target` under
 *   the advisory lock taken exclusive, which waits until no ingest holds it, so every sample before the new cut is committed by
 *   the time the cycle reads it, or was checked against it.
 * - Rebuilt from the raw samples when it starts on another day than the window's endDay, when a
 *   re-sent sample made it stale, or when there is none; extended otherwise. A rebuild needs no new
 *   fence: everything before the old one is committed, queued or marked.
 * - When the fence cannot be moved within FENCE_WAIT (ingest holding it without a gap), the cycle
 *   uses the tail as it is and reads the raw samples from where it ends.
 *
 * Returns where the tail ends (endDay when there is none): the raw samples are read from there.
 */
export async function rollUpTail(session: SqlSession, tenantId: string, window: RollupWindow, target: Date): Promise<Date> {
  const endDay = isoDay(window.endDay);
  const [{ version }] = await session.query<{ version: number }>(
    "SELECT COALESCE((SELECT version FROM compute_sample_day_status WHERE tenant_id = $1 AND day = $2::date), 0) AS version",
    [tenantId, endDay],
  );
  const status = await moveFence(session, tenantId, target);
  if (!status) return window.endDay;
  const rolledCut = status.rolled_cut;
  if (rolledCut === null || status.from_day !== endDay || status.rolled_version !== version) {
    // Stale: the tail is rebuilt from the end of the rolled-up days.
    const cut = status.cut ?? rolledCut;
    if (!cut || cut <= window.endDay) return window.endDay;
    await rollUp(session, tenantId, { from: window.endDay, cut, extending: false, endDay, version });
    return cut;
  }
  const cut = status.cut ?? rolledCut;
  if (cut > rolledCut) await rollUp(session, tenantId, { from: rolledCut, cut, extending: true, endDay, version });
  return cut;
}

/**
 * ROLL_UP_TAIL and the status row that records what the tail then covers ([endDay, cut) at the day
 * status version read before), in one transaction. The row is updated under the fence's advisory
 * lock, taken once the roll-up is written: the update waits for the ingests in flight only, and new
 * ones wait for the few milliseconds until the commit, not for the roll-up.
 */
async function rollUp(
  session: SqlSession,
  tenantId: string,
  tail: { from: Date; cut: Date; extending: boolean; endDay: string; version: number },
): Promise<void> {
  await session.query("BEGIN");
  try {
    await session.query(ROLL_UP_TAIL, [tenantId, tail.from, tail.cut, tail.extending]);
    await session.query("SELECT pg_advisory_xact_lock($1, hashtext($2))", [FENCE_LOCK_CLASS, tenantId]);
    await session.query("UPDATE compute_sample_tail_status SET from_day = $2::date, rolled_cut = $3, rolled_version = $4 WHERE tenant_id = $1", [
      tenantId,
      tail.endDay,
      tail.cut,
      tail.version,
    ]);
    await session.query("COMMIT");
  } catch (err) {
    await session.query("ROLLBACK");
    throw err;
  }
}

/** The status row after moving its fence forward to `target` (never back), or as it is when the lock wait ran out. */
async function moveFence(session: SqlSession, tenantId: string, target: Date): Promise<TailStatus | null> {
  const columns = "to_char(from_day, 'YYYY-MM-DD') AS from_day, cut, rolled_cut, rolled_version";
  await session.query("BEGIN");
  try {
    await session.query(`SET LOCAL lock_timeout = '${FENCE_WAIT}'`);
    await session.query("SELECT pg_advisory_xact_lock($1, hashtext($2))", [FENCE_LOCK_CLASS, tenantId]);
    const [moved] = await session.query<TailStatus>(`UPDATE compute_sample_tail_status SET cut = GREATEST(cut, $2) WHERE tenant_id = $1 RETURNING ${columns}`, [
      tenantId,
      target,
    ]);
    await session.query("COMMIT");
    if (moved) return moved;
    // Only a tenant whose resources predate its status row (none after the migration that adds it).
    await session.query("INSERT INTO compute_sample_tail_status (tenant_id) VALUES ($1) ON CONFLICT DO NOTHING", [tenantId]);
    return null;
  } catch (err) {
    await session.query("ROLLBACK");
    if ((err as { code?: string }).code !== "55P03") throw err;
    // The fence stays where the last cycle left it: everything before it is committed, queued or marked.
    const [current] = await session.query<TailStatus>(`SELECT ${columns} FROM compute_sample_tail_status WHERE tenant_id = $1`, [tenantId]);
    return current ?? null;
  }
}

/**
 * Retention: raw samples before `since`, and roll-ups of days that start before it. The samples go
 * resource by resource (ingest only stores samples of known resources): `tenant_id = $1 AND ts < $2`
 * alone cannot use the (tenant_id, resource_id, ts) key past its first column and would read every
 * sample of the tenant, where one key range per resource reads only the expired ones.
 */
export async function dropExpired(prisma: Prisma, tenantId: string, window: RollupWindow): Promise<void> {
  await prisma.$executeRawUnsafe(
    `DELETE FROM compute_samples s USING compute_resources r
     WHERE r.tenant_id = $1 AND s.tenant_id = $1 AND s.resource_id = r.resource_id AND s.ts < $2`,
    tenantId,
    window.since,
  );
  await prisma.$executeRawUnsafe("DELETE FROM compute_sample_days WHERE tenant_id = $1 AND day < $2::date", tenantId, isoDay(window.firstDay));
  await prisma.$executeRawUnsafe("DELETE FROM compute_sample_day_status WHERE tenant_id = $1 AND day < $2::date", tenantId, isoDay(window.firstDay));
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

export const WINDOW_STATS = `
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
    t.network_samples, t.network_low
  FROM totals t LEFT JOIN cpu c USING (resource_id) LEFT JOIN memory m USING (resource_id)`;

export const windowStatsParams = (tenantId: string, w: RollupWindow, tailCut: Date) => [
  tenantId,
  w.since,
  w.firstDay,
  w.endDay,
  isoDay(w.firstDay),
  isoDay(w.endDay),
  tailCut,
];
