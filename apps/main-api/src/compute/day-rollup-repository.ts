import type { CheckedStatement, RowOf } from "@cloudcost/db";
import type { Prisma } from "../db";
import { BUCKETED, COARSE, COARSE_COLUMNS, isoDay, RAW_TOTALS, ROLLUP_COLUMNS, ROLLUP_UPDATE, ROLLUP_VALUES } from "./rollup-repository";

// The day roll-ups of the compute samples and their retention, through Prisma's raw queries (the
// tail and the window statistics: rollup-repository.ts); what they keep and when they run is in rollups.ts.

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

const STALE_DAYS_COLUMNS = { day: "text" } as const;
const STALE_DAYS_SQL = `SELECT to_char(d, 'YYYY-MM-DD') AS day
     FROM generate_series($2::date, $3::date - 1, interval '1 day') AS d
     LEFT JOIN compute_sample_day_status s ON s.tenant_id = $1 AND s.day = d::date
     WHERE s.day IS NULL OR s.rolled_version IS DISTINCT FROM s.version
     ORDER BY d`;

/** The settled days of [firstDay, endDay) that have no roll-up yet or got samples since theirs (YYYY-MM-DD). */
export async function findStaleDays(prisma: Prisma, tenantId: string, firstDay: Date, endDay: Date): Promise<string[]> {
  const rows = await prisma.$queryRawUnsafe<RowOf<typeof STALE_DAYS_COLUMNS>[]>(STALE_DAYS_SQL, tenantId, isoDay(firstDay), isoDay(endDay));
  return rows.map((row) => row.day);
}

/** Rebuilds the roll-up of one day (YYYY-MM-DD) from its raw samples. */
export async function rollUpDay(prisma: Prisma, tenantId: string, day: string): Promise<void> {
  await prisma.$executeRawUnsafe(ROLL_UP_DAY, tenantId, day);
}

const DELETE_EXPIRED_SAMPLES_SQL = `DELETE FROM compute_samples s USING compute_resources r
     WHERE r.tenant_id = $1 AND s.tenant_id = $1 AND s.resource_id = r.resource_id AND s.ts < $2`;
const DELETE_EXPIRED_DAYS_SQL = "DELETE FROM compute_sample_days WHERE tenant_id = $1 AND day < $2::date";
const DELETE_EXPIRED_DAY_STATUS_SQL = "DELETE FROM compute_sample_day_status WHERE tenant_id = $1 AND day < $2::date";

/**
 * Raw samples before `since`, and roll-ups of days that start before `firstDay`. The samples go
 * resource by resource (ingest only stores samples of known resources): `tenant_id = $1 AND ts < $2`
 * alone cannot use the (tenant_id, resource_id, ts) key past its first column and would read every
 * sample of the tenant, where one key range per resource reads only the expired ones.
 */
export async function deleteExpired(prisma: Prisma, tenantId: string, since: Date, firstDay: Date): Promise<void> {
  await prisma.$executeRawUnsafe(DELETE_EXPIRED_SAMPLES_SQL, tenantId, since);
  await prisma.$executeRawUnsafe(DELETE_EXPIRED_DAYS_SQL, tenantId, isoDay(firstDay));
  await prisma.$executeRawUnsafe(DELETE_EXPIRED_DAY_STATUS_SQL, tenantId, isoDay(firstDay));
}

export const dayRollupRepository = { findStaleDays, rollUpDay, deleteExpired };
export type DayRollupRepository = typeof dayRollupRepository;

/** The raw statements of this module, for test/repository-row-types.test.ts. */
export function checkedStatements(): CheckedStatement[] {
  return [
    { name: "compute stale days", sql: STALE_DAYS_SQL, columns: STALE_DAYS_COLUMNS },
    { name: "compute day roll-up", sql: ROLL_UP_DAY, columns: null },
    { name: "compute expired samples delete", sql: DELETE_EXPIRED_SAMPLES_SQL, columns: null },
    { name: "compute expired days delete", sql: DELETE_EXPIRED_DAYS_SQL, columns: null },
    { name: "compute expired day status delete", sql: DELETE_EXPIRED_DAY_STATUS_SQL, columns: null },
  ];
}
