import type { Action, RecommendationState } from "@cloudcost/contracts";
import type { SqlClient } from "@cloudcost/db";
import type { CheckedStatement, RowOf } from "@cloudcost/db";

// Retirement, recommendation states and the recorded changes of compute resources.

const iso = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * Retires a live resource and records the retirement with the recommendation standing then, in one
 * statement; a second retirement finds no live row and changes nothing.
 */
const RETIRE_SQL = `
  WITH retired AS (
    UPDATE compute_resources SET retired_at = $3 WHERE tenant_id = $1 AND resource_id = $2 AND retired_at IS NULL
    RETURNING resource_id, instance_type, cpu_cores, ram_gb, action, recommended_instance_type, savings_monthly_usd,
      current_monthly_cost_usd, recommended_monthly_cost_usd, analyzed_at),
  recorded AS (
    INSERT INTO compute_resource_changes AS c (tenant_id, resource_id, at, retired, from_instance_type, from_cpu_cores, from_ram_gb,
      action, recommended_instance_type, savings_monthly_usd, current_monthly_cost_usd, recommended_monthly_cost_usd, analyzed_at)
    SELECT $1, resource_id, $3, true, instance_type, cpu_cores, ram_gb, action, recommended_instance_type, savings_monthly_usd,
      current_monthly_cost_usd, recommended_monthly_cost_usd, analyzed_at FROM retired
    ON CONFLICT (tenant_id, resource_id, at) DO UPDATE SET retired = true, to_instance_type = NULL, to_cpu_cores = NULL, to_ram_gb = NULL)
  SELECT (SELECT count(*) FROM retired)::int AS retired,
    EXISTS (SELECT 1 FROM compute_resources WHERE tenant_id = $1 AND resource_id = $2) AS known`;
const RETIRE_COLUMNS = { retired: "int4", known: "bool" } as const;

/** Retires the resource at `at`: whether it exists at all (retired now or before). */
export async function retireResourceRow(sql: SqlClient, tenantId: string, resourceId: string, at: Date): Promise<boolean> {
  const [row] = await sql.query<RowOf<typeof RETIRE_COLUMNS>>(RETIRE_SQL, [tenantId, resourceId, at]);
  return row.known;
}

const SET_STATE_SQL = `UPDATE compute_resources SET state = $3, state_reason = $4, snoozed_until = $5, state_changed_at = now()
     WHERE tenant_id = $1 AND resource_id = $2 AND retired_at IS NULL
     RETURNING resource_id, action, recommended_instance_type, state, state_reason, ${iso("snoozed_until")} AS snoozed_until`;
const STATE_COLUMNS = {
  resource_id: "text",
  action: "text null",
  recommended_instance_type: "text null",
  state: "text",
  state_reason: "text null",
  snoozed_until: "text null",
} as const;
export type StateRow = Omit<RowOf<typeof STATE_COLUMNS>, "action" | "state"> & { action: Action | null; state: RecommendationState };

/** Sets a live resource's recommendation state; undefined when there is none. */
export async function setRecommendationState(
  sql: SqlClient,
  tenantId: string,
  resourceId: string,
  state: { state: RecommendationState; reason: string | null; snoozedUntil: string | null },
): Promise<StateRow | undefined> {
  const [row] = await sql.query<StateRow>(SET_STATE_SQL, [tenantId, resourceId, state.state, state.reason, state.snoozedUntil]);
  return row;
}

/**
 * The changes of [$2, $3) made while an actionable recommendation stood that was analyzed before the
 * change (a change made before the analysis, e.g. one observed_at in the past, was not its doing),
 * with the current price of the type the resource has now (its latest analysis, when it priced that
 * type) and whether the resource is reserved. Read through the (tenant_id, at) index.
 */
const CHANGES_SQL = `
  SELECT c.resource_id, c.at, ${iso("c.at")} AS at_iso, c.retired, c.from_instance_type, c.from_cpu_cores, c.from_ram_gb,
    c.to_instance_type, c.to_cpu_cores, c.to_ram_gb, c.action, c.recommended_instance_type,
    c.savings_monthly_usd::text AS savings_monthly_usd, c.current_monthly_cost_usd::text AS current_monthly_cost_usd,
    c.recommended_monthly_cost_usd::text AS recommended_monthly_cost_usd, ${iso("c.analyzed_at")} AS analyzed_at,
    CASE WHEN r.current_instance_type IS NOT DISTINCT FROM c.to_instance_type THEN r.current_monthly_cost_usd::text END AS now_monthly_cost_usd,
    coalesce(r.purchase_option = 'reserved', false) AS reserved
  FROM compute_resource_changes c
  LEFT JOIN compute_resources r ON r.tenant_id = c.tenant_id AND r.resource_id = c.resource_id
  WHERE c.tenant_id = $1 AND c.at >= $2 AND c.at < $3 AND c.action IN ('DOWNSIZE', 'UPSIZE', 'TERMINATE') AND c.analyzed_at < c.at
  ORDER BY c.at, c.resource_id COLLATE "C"`;
const CHANGES_COLUMNS = {
  resource_id: "text",
  at: "timestamptz",
  at_iso: "text",
  retired: "bool",
  from_instance_type: "text null",
  from_cpu_cores: "float8 null",
  from_ram_gb: "float8 null",
  to_instance_type: "text null",
  to_cpu_cores: "float8 null",
  to_ram_gb: "float8 null",
  action: "text null",
  recommended_instance_type: "text null",
  savings_monthly_usd: "text null",
  current_monthly_cost_usd: "text null",
  recommended_monthly_cost_usd: "text null",
  analyzed_at: "text",
  now_monthly_cost_usd: "text null",
  reserved: "bool",
} as const;
export type ChangeRow = Omit<RowOf<typeof CHANGES_COLUMNS>, "action"> & { action: Action };

export function findChangesAfterRecommendations(sql: SqlClient, tenantId: string, start: string, end: string): Promise<ChangeRow[]> {
  return sql.query<ChangeRow>(CHANGES_SQL, [tenantId, start, end]);
}

export const lifecycleRepository = { retireResourceRow, setRecommendationState, findChangesAfterRecommendations };
export type LifecycleRepository = typeof lifecycleRepository;

/** The raw statements of this module, for test/repository-row-types.test.ts. */
export function checkedStatements(): CheckedStatement[] {
  return [
    { name: "compute retire resource", sql: RETIRE_SQL, columns: RETIRE_COLUMNS },
    { name: "compute recommendation state", sql: SET_STATE_SQL, columns: STATE_COLUMNS },
    { name: "compute changes after recommendations", sql: CHANGES_SQL, columns: CHANGES_COLUMNS },
  ];
}
