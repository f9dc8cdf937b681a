import type {
  Action,
  Architecture,
  OperatingSystem,
  PurchaseOption,
  RecommendationItem,
  RecommendationState,
  RecommendationsQuery,
  ResourceType,
  SummaryQuery,
} from "@cloudcost/contracts";
import type { CheckedStatement, Columns, RowOf } from "@cloudcost/db";
import type { TenantRef } from "../context";
import type { Prisma } from "../db";
import { DEFAULT_COMPUTE_SETTINGS } from "./settings";

// The recommendations as clients read them: the summary and the list, through Prisma's raw queries.

const ARRAY_FILTERS = [
  ["provider", "provider"],
  ["region", "region"],
  ["availability_zone", "availability_zone"],
  ["instance_type", "instance_type"],
  ["architecture", "architecture"],
  ["operating_system", "operating_system"],
] as const;

const ACTIONABLE = `('DOWNSIZE', 'UPSIZE', 'TERMINATE')`;
const iso = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * The oldest heartbeat that still counts as active, read by the statement that needs it: the
 * `active` filter and column cost no settings round trip. A scalar subquery, so it is computed once
 * per statement (an initplan) rather than once per row as a bare expression of now() would be.
 * $n is the organization id.
 */
const activeSince = (n: number) =>
  `(SELECT now() - make_interval(mins => COALESCE((SELECT active_window_minutes FROM organization_settings WHERE organization_id = $${n}), ${DEFAULT_COMPUTE_SETTINGS.activeWindowMinutes})))`;

/**
 * Whether the resource of the current compute_resources row (unaliased) was seen after `since`: a
 * semi-join with compute_resource_heartbeats. With statistics on both tables (autovacuum's ANALYZE,
 * or the service's own pass where none runs) a large fleet's summary hashes the tenant's fresh
 * heartbeats once and reads resource_id from the summary's covering index (migration
 * 20261203950000_compute_summary_resource_id); a page of the list probes the primary key per row.
 */
const heartbeatSince = (since: string) =>
  `EXISTS (SELECT 1 FROM compute_resource_heartbeats h WHERE h.tenant_id = compute_resources.tenant_id AND h.resource_id = compute_resources.resource_id AND h.last_heartbeat_at > ${since})`;

/** A dismissed or still snoozed recommendation is counted, but its savings are not. */
const SAVINGS_COUNT = "(state <> 'dismissed' AND NOT (state = 'snoozed' AND snoozed_until > now()))";
/** The state a client sees: a snooze that has run out is open again. */
const SHOWN_STATE = "(CASE WHEN state = 'snoozed' AND snoozed_until <= now() THEN 'open' ELSE state END)";

/** WHERE clause of the summary filters; every query is scoped by tenant first; retired resources only when asked for. */
function filters(tenant: TenantRef, query: SummaryQuery, includeRetired = false) {
  const params: unknown[] = [tenant.id, query.resource_type];
  const conditions = ["tenant_id = $1", "resource_type = $2"];
  if (!includeRetired) conditions.push("retired_at IS NULL");
  for (const [field, column] of ARRAY_FILTERS) {
    const values = query[field];
    if (values?.length) {
      params.push(values);
      conditions.push(`${column} = ANY($${params.length}::text[])`);
    }
  }
  if (query.active !== undefined) {
    params.push(tenant.organizationId);
    const fresh = heartbeatSince(activeSince(params.length));
    conditions.push(query.active ? fresh : `NOT ${fresh}`);
  }
  return { params, where: conditions.join(" AND ") };
}

const COUNTS_COLUMNS = { groups: "json", top: "json" } as const;

export interface CountsRow {
  action: "DOWNSIZE" | "UPSIZE" | "TERMINATE" | "NOOP" | "NO_RECOMMENDATION" | null;
  n: number;
  cents: string | null;
}

export interface TopRow {
  resource_id: string;
  name: string;
  resource_type: ResourceType;
  current_instance_type: string;
  recommended_instance_type: string;
  savings: string;
}

/** The summary's one row: the counts and savings per action, and the top ten savers. */
export interface SummaryRows {
  groups: CountsRow[];
  top: TopRow[];
}

const summarySql = (where: string) => `WITH groups AS (
       SELECT action, count(*)::int AS n, (sum(savings_cents) FILTER (WHERE ${SAVINGS_COUNT}))::text AS cents
       FROM compute_resources WHERE ${where} GROUP BY action),
     top AS (
       SELECT resource_id, savings_monthly_usd FROM compute_resources
       WHERE ${where} AND action IN ${ACTIONABLE} AND savings_monthly_usd > 0 AND ${SAVINGS_COUNT}
       ORDER BY savings_monthly_usd DESC, resource_id COLLATE "C"
       LIMIT 10),
     shown AS (
       SELECT r.resource_id, COALESCE(r.name, r.resource_id) AS name, r.resource_type, r.current_instance_type,
         r.recommended_instance_type, r.savings_monthly_usd::text AS savings, top.savings_monthly_usd AS rank
       FROM top JOIN compute_resources r ON r.tenant_id = $1 AND r.resource_id = top.resource_id)
     SELECT (SELECT COALESCE(json_agg(g), '[]') FROM groups g) AS groups,
       (SELECT COALESCE(json_agg(s ORDER BY s.rank DESC, s.resource_id COLLATE "C"), '[]') FROM shown s) AS top`;

/**
 * One statement over narrow covering indexes, nothing per resource in Node:
 * - counts and savings: an index-only scan of manual_compute_resources_summary_idx grouped by
 *   action (at most six rows), savings summed as integer cents (savings_cents, generated) over the
 *   recommendations not dismissed or snoozed (state and snoozed_until are in the index; both
 *   indexes hold live resources only: migration 20261129100000_compute_recommendations_over_time);
 * - top ten: the first ten qualifying entries of the partial index
 *   manual_compute_resources_top_savers_cover_idx (filters checked on the index tuple), then the
 *   display columns of just those ten rows.
 * Both come back as JSON arrays in one row: one round trip and one connection per summary (two
 * statements on two connections at once cost a second wake-up of the database and of this process).
 * The `active` filter adds one probe per resource of compute_resource_heartbeats, the narrow table
 * ingest writes: nothing ingest does touches compute_resources, so the summary of a fixed fleet reads
 * the same rows however many samples arrive (test/compute-summary-flat.test.ts).
 */
export async function findSummary(db: Prisma, tenant: TenantRef, query: SummaryQuery): Promise<SummaryRows> {
  const { sql, params } = summaryStatement(tenant, query);
  // The plans rely on the session settings of db.ts (SSD costs: the covering indexes win).
  const [row] = await db.$queryRawUnsafe<SummaryRows[]>(sql, ...params);
  return row;
}

/** The summary's statement and parameters (also for tests that read its plan). */
export function summaryStatement(tenant: TenantRef, query: SummaryQuery): { sql: string; params: unknown[] } {
  const { params, where } = filters(tenant, query);
  return { sql: summarySql(where), params };
}

const ITEM_COLUMNS = {
  resource_id: "text",
  name: "text null",
  resource_type: "text",
  provider: "text null",
  region: "text null",
  availability_zone: "text null",
  instance_type: "text null",
  architecture: "text null",
  operating_system: "text null",
  cpu_cores: "float8 null",
  ram_gb: "float8 null",
  labels: "jsonb",
  purchase_option: "text",
  cluster: "text null",
  node_pool: "text null",
  gpu_count: "int4 null",
  active: "bool",
  action: "text null",
  current_instance_type: "text null",
  recommended_instance_type: "text null",
  current_monthly_cost_usd: "text null",
  recommended_monthly_cost_usd: "text null",
  savings_monthly_usd: "text null",
  cpu_p95: "float8 null",
  cpu_max: "float8 null",
  memory_p95: "float8 null",
  sample_count: "int4 null",
  window_start: "text null",
  window_end: "text null",
  finding_reasons: "text[] null",
  options: "jsonb null",
  price: "jsonb null",
  analyzed_at: "text null",
  state: "text",
  state_reason: "text null",
  snoozed_until: "text null",
  retired_at: "text null",
} as const;

/** A resource with its latest results; the contract's own types where the columns hold its values. */
export type RecommendationRow = Omit<
  RowOf<typeof ITEM_COLUMNS>,
  "resource_type" | "architecture" | "operating_system" | "purchase_option" | "action" | "labels" | "finding_reasons" | "options" | "price" | "state"
> & {
  state: RecommendationState;
  resource_type: ResourceType;
  architecture: Architecture | null;
  operating_system: OperatingSystem | null;
  purchase_option: PurchaseOption;
  action: Action | null;
  labels: RecommendationItem["labels"];
  finding_reasons: RecommendationItem["finding_reasons"] | null;
  options: RecommendationItem["options"] | null;
  price: RecommendationItem["price"];
};

function itemsStatement(tenant: TenantRef, query: RecommendationsQuery, after: string | undefined) {
  const { params, where } = filters(tenant, query, query.include_retired === true);
  const conditions = [where];
  if (query.state?.length) {
    params.push(query.state);
    conditions.push(`${SHOWN_STATE} = ANY($${params.length}::text[])`);
  }
  if (query.action?.length) {
    const actions = query.action.filter((a) => a !== "PENDING");
    params.push(actions);
    conditions.push(`(action = ANY($${params.length}::text[])${query.action.includes("PENDING") ? " OR action IS NULL" : ""})`);
  }
  if (after !== undefined) {
    params.push(after);
    conditions.push(`resource_id COLLATE "C" > $${params.length}`);
  }
  params.push(tenant.organizationId, query.limit + 1);
  const sql = `SELECT resource_id, name, resource_type, provider, region, availability_zone, instance_type, architecture,
       operating_system, cpu_cores, ram_gb, labels, purchase_option, cluster, node_pool, gpu_count,
       ${heartbeatSince(activeSince(params.length - 1))} AS active,
       action, current_instance_type, recommended_instance_type,
       current_monthly_cost_usd::text AS current_monthly_cost_usd,
       recommended_monthly_cost_usd::text AS recommended_monthly_cost_usd,
       savings_monthly_usd::text AS savings_monthly_usd,
       cpu_p95, cpu_max, memory_p95, sample_count, ${iso("window_start")} AS window_start, ${iso("window_end")} AS window_end,
       finding_reasons, options, CASE WHEN action IS NULL THEN NULL ELSE price END AS price,
       ${iso("analyzed_at")} AS analyzed_at, ${SHOWN_STATE} AS state,
       CASE WHEN ${SHOWN_STATE} = 'open' THEN NULL ELSE state_reason END AS state_reason,
       CASE WHEN ${SHOWN_STATE} = 'snoozed' THEN ${iso("snoozed_until")} END AS snoozed_until, ${iso("retired_at")} AS retired_at
     FROM compute_resources WHERE ${conditions.join(" AND ")}
     ORDER BY resource_id COLLATE "C" LIMIT $${params.length}`;
  return { sql, params };
}

/** Up to `query.limit + 1` resources after `after` in resource_id byte order (keyset pagination). */
export function findRecommendationRows(db: Prisma, tenant: TenantRef, query: RecommendationsQuery, after: string | undefined): Promise<RecommendationRow[]> {
  const { sql, params } = itemsStatement(tenant, query, after);
  return db.$queryRawUnsafe<RecommendationRow[]>(sql, ...params);
}

export const recommendationRepository = { findSummary, findRecommendationRows };
export type RecommendationRepository = typeof recommendationRepository;

/** The raw statements of this module, for test/repository-row-types.test.ts. */
export function checkedStatements(): CheckedStatement[] {
  const tenant = { id: "t", organizationId: "o" };
  const filtered = {
    resource_type: "virtual_machine",
    provider: ["aws"],
    region: ["eu-west-1"],
    availability_zone: ["eu-west-1a"],
    instance_type: ["m5.large"],
    architecture: ["x86_64"],
    operating_system: ["linux"],
    active: true,
  } as SummaryQuery;
  const items = itemsStatement(
    tenant,
    { ...filtered, action: ["DOWNSIZE", "PENDING"], state: ["open", "snoozed"], include_retired: true, limit: 10 } as RecommendationsQuery,
    "r",
  );
  const counts: Columns = COUNTS_COLUMNS;
  return [
    { name: "compute summary (every filter)", sql: summarySql(filters(tenant, filtered).where), columns: counts },
    { name: "compute recommendations (every filter)", sql: items.sql, columns: ITEM_COLUMNS },
  ];
}
