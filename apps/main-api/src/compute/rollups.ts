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
 * - Histograms count values floored to whole percents (bucket b: b <= value < b + 1, 100: 100),
 *   stored sparse (buckets with a count only). The nearest-rank p95 of the merged histogram is
 *   therefore floor(exact nearest-rank p95): exact for integer-valued samples, otherwise at most
 *   one percentage point low. The rule's thresholds stay exact: for an integer t,
 *   p95 < t  <=>  floor(p95) < t, so "p95 below 3 %" is decided exactly; the maximum is kept exact.
 *   Only the needed-vCPU/memory arithmetic of rule 3 sees the floored value.
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

const ROLL_UP_DAY = `
  WITH raw AS (
    SELECT resource_id, ts, cpu_utilization AS cpu, memory_utilization AS mem FROM compute_samples
    WHERE tenant_id = $1 AND ts >= $2::date::timestamp AT TIME ZONE 'UTC' AND ts < ($2::date + 1)::timestamp AT TIME ZONE 'UTC'),
  totals AS (
    SELECT resource_id, count(*)::int AS samples, min(ts) AS first_ts, max(ts) AS last_ts, max(cpu) AS cpu_max FROM raw GROUP BY resource_id),
  cpu AS (
    SELECT resource_id, array_agg(b ORDER BY b) AS buckets, array_agg(n ORDER BY b) AS counts
    FROM (SELECT resource_id, floor(cpu)::smallint AS b, count(*)::int AS n FROM raw GROUP BY 1, 2) h GROUP BY resource_id),
  mem AS (
    SELECT resource_id, array_agg(b ORDER BY b) AS buckets, array_agg(n ORDER BY b) AS counts
    FROM (SELECT resource_id, floor(mem)::smallint AS b, count(*)::int AS n FROM raw WHERE mem IS NOT NULL GROUP BY 1, 2) h GROUP BY resource_id),
  cleared AS (DELETE FROM compute_sample_days WHERE tenant_id = $1 AND day = $2::date AND resource_id NOT IN (SELECT resource_id FROM totals)),
  status AS (
    INSERT INTO compute_sample_day_status AS s (tenant_id, day, version, rolled_version)
    VALUES ($1, $2::date, 0, COALESCE((SELECT version FROM compute_sample_day_status WHERE tenant_id = $1 AND day = $2::date), 0))
    ON CONFLICT (tenant_id, day) DO UPDATE SET rolled_version = excluded.rolled_version)
  INSERT INTO compute_sample_days (tenant_id, resource_id, day, samples, first_ts, last_ts, cpu_max,
    cpu_buckets, cpu_counts, memory_buckets, memory_counts)
  SELECT $1, t.resource_id, $2::date, t.samples, t.first_ts, t.last_ts, t.cpu_max, c.buckets, c.counts, m.buckets, m.counts
  FROM totals t JOIN cpu c USING (resource_id) LEFT JOIN mem m USING (resource_id)
  ON CONFLICT (tenant_id, resource_id, day) DO UPDATE SET samples = excluded.samples, first_ts = excluded.first_ts,
    last_ts = excluded.last_ts, cpu_max = excluded.cpu_max, cpu_buckets = excluded.cpu_buckets, cpu_counts = excluded.cpu_counts,
    memory_buckets = excluded.memory_buckets, memory_counts = excluded.memory_counts`;

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

/**
 * Retention: raw samples before `since`, and roll-ups of days that start before it. The samples go
 * resource by resource (ingest only stores samples of known resources): `tenant_id = $1 AND ts < $2`
 * alone cannot use the (tenant_id, resource_id, ts) key past its first column and read every sample
 * of the tenant each cycle (626k samples, nothing to delete: 200-240 ms), where one key range per
 * resource reads only the expired ones (1000 resources: 45 ms).
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
 * memory (rank ceil(0.95 n) of the merged whole-percent histograms) over the roll-ups of
 * [firstDay, endDay) plus the raw samples of the rest of the window.
 * Parameters: $1 tenant, $2 since, $3 firstDay, $4 endDay (timestamps), $5 firstDay, $6 endDay (dates).
 */
const HISTOGRAM_P95 = (source: string) => `
  SELECT resource_id, min(b) AS p95 FROM (
    SELECT resource_id, b, sum(n) OVER (PARTITION BY resource_id ORDER BY b) AS below,
           sum(n) OVER (PARTITION BY resource_id) AS total
    FROM (SELECT resource_id, b, sum(n) AS n FROM (${source}) x GROUP BY resource_id, b) h) c
  WHERE below >= ceil(0.95 * total) GROUP BY resource_id`;

export const WINDOW_STATS = `
  WITH raw AS (
    SELECT resource_id, ts, cpu_utilization AS cpu, memory_utilization AS mem FROM compute_samples
    WHERE tenant_id = $1 AND ts >= $2 AND (ts < $3 OR ts >= $4)),
  days AS (SELECT * FROM compute_sample_days WHERE tenant_id = $1 AND day >= $5::date AND day < $6::date),
  totals AS (
    SELECT resource_id, sum(samples)::int AS samples, min(first_ts) AS window_start, max(last_ts) AS window_end, max(cpu_max) AS cpu_max
    FROM (SELECT resource_id, samples, first_ts, last_ts, cpu_max FROM days
          UNION ALL SELECT resource_id, 1, ts, ts, cpu FROM raw) x
    GROUP BY resource_id),
  cpu AS (${HISTOGRAM_P95(`
    SELECT resource_id, u.b::int AS b, u.n::bigint AS n FROM days, unnest(days.cpu_buckets, days.cpu_counts) AS u(b, n)
    UNION ALL SELECT resource_id, floor(cpu)::int, 1 FROM raw`)}),
  mem AS (${HISTOGRAM_P95(`
    SELECT resource_id, u.b::int AS b, u.n::bigint AS n FROM days, unnest(days.memory_buckets, days.memory_counts) AS u(b, n)
    UNION ALL SELECT resource_id, floor(mem)::int, 1 FROM raw WHERE mem IS NOT NULL`)})
  SELECT t.resource_id, t.samples, t.window_start, t.window_end, c.p95 AS cpu_p95, t.cpu_max, m.p95 AS memory_p95
  FROM totals t LEFT JOIN cpu c USING (resource_id) LEFT JOIN mem m USING (resource_id)`;

export const windowStatsParams = (tenantId: string, w: RollupWindow) => [
  tenantId,
  w.since,
  w.firstDay,
  w.endDay,
  isoDay(w.firstDay),
  isoDay(w.endDay),
];
