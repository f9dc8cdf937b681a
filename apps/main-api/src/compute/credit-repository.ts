import type { CheckedStatement, SqlClient } from "@cloudcost/db";

const HOURLY_CPU_COLUMNS = { resource_id: "text", cpu: "jsonb" } as const;
export interface HourlyCpuRow {
  resource_id: string;
  /** The mean CPU % of each UTC hour with samples, oldest first (a JSON array of numbers). */
  cpu: number[];
}

/**
 * The hourly CPU of resources whose credits the right-sizing rule simulates (version 4: burstable
 * types only): per resource $2 from its time $3 on (the window's start, or its resize), the mean
 * CPU of each UTC hour with samples, read from the raw samples through their primary key.
 */
const HOURLY_CPU_SQL = `
  SELECT v.resource_id, jsonb_agg(h.cpu ORDER BY h.hour) AS cpu
    FROM unnest($2::text[], $3::timestamptz[]) AS v(resource_id, since)
    CROSS JOIN LATERAL (
      SELECT date_trunc('hour', x.ts AT TIME ZONE 'UTC') AS hour, avg(x.cpu_utilization) AS cpu
        FROM compute_samples x
       WHERE x.tenant_id = $1 AND x.resource_id = v.resource_id AND x.ts >= v.since
       GROUP BY 1) h
   GROUP BY v.resource_id`;

export function findHourlyCpu(sql: SqlClient, tenantId: string, resources: readonly { resourceId: string; since: Date }[]): Promise<HourlyCpuRow[]> {
  if (resources.length === 0) return Promise.resolve([]);
  return sql.query<HourlyCpuRow>(HOURLY_CPU_SQL, [tenantId, resources.map((r) => r.resourceId), resources.map((r) => r.since)]);
}

/** The raw statements of this module, for test/repository-row-types.test.ts. */
export function checkedStatements(): CheckedStatement[] {
  return [{ name: "compute hourly cpu", sql: HOURLY_CPU_SQL, columns: HOURLY_CPU_COLUMNS }];
}
