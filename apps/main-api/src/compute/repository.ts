import type {
  Action,
  Architecture,
  ComputeResourceData,
  OperatingSystem,
  PurchaseOption,
  RecommendationItem,
  RecommendationState,
  RecommendationsQuery,
  ResourceType,
  SummaryQuery,
} from "@cloudcost/contracts";
import { type SqlClient, type SqlSession, TRANSACTION_OPTIONS } from "@cloudcost/db";
import type { TenantRef } from "../context";
import type { Prisma } from "../db";
import type { CheckedStatement, Columns, RowOf } from "@cloudcost/db";
import { FENCE_LOCK_CLASS } from "./rollup-repository";
import { DEFAULT_COMPUTE_SETTINGS } from "./settings";

// The compute inventory, its samples and analysis results (the roll-ups: rollup-repository.ts).

// One statement: all or nothing, and concurrent upserts of one id cannot duplicate it. Rows are
// written in resource_id order, the order every other writer of them locks in, so two writers of
// the same resources cannot deadlock. The tenant's roll-up status row is created with its first
// resource, so it exists before any sample (rollups.ts). A changed instance type, vCPU count or
// memory is a resize: the time the shape changed moves to the collector's observed_at ($16,
// default now), so that older samples no longer count. Upserting a retired resource revives it.
const UPSERT_RESOURCES_SQL = `WITH status AS (INSERT INTO compute_sample_tail_status (tenant_id) VALUES ($1) ON CONFLICT DO NOTHING),
     v AS (
       SELECT * FROM unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[],
         $10::text[], $11::text[], $12::float8[], $13::float8[], $14::jsonb[], $15::text[], $16::timestamptz[], $17::text[], $18::text[], $19::int[])
       AS v(resource_id, name, resource_type, provider, region, availability_zone, instance_type, architecture,
            operating_system, cpu_cores, ram_gb, labels, purchase_option, observed_at, cluster, node_pool, gpu_count))
     INSERT INTO compute_resources AS r (tenant_id, organization_id, resource_id, name, resource_type, provider, region,
       availability_zone, instance_type, architecture, operating_system, cpu_cores, ram_gb, labels, purchase_option, cluster, node_pool, gpu_count)
     SELECT $1, $2, v.resource_id, v.name, v.resource_type, v.provider, v.region, v.availability_zone, v.instance_type, v.architecture,
       v.operating_system, v.cpu_cores, v.ram_gb, v.labels, v.purchase_option, v.cluster, v.node_pool, v.gpu_count
     FROM v
     ORDER BY v.resource_id COLLATE "C"
     ON CONFLICT (tenant_id, resource_id) DO UPDATE SET
       name = excluded.name, resource_type = excluded.resource_type, provider = excluded.provider,
       region = excluded.region, availability_zone = excluded.availability_zone, instance_type = excluded.instance_type,
       architecture = excluded.architecture, operating_system = excluded.operating_system,
       cpu_cores = excluded.cpu_cores, ram_gb = excluded.ram_gb, labels = excluded.labels,
       purchase_option = excluded.purchase_option, cluster = excluded.cluster, node_pool = excluded.node_pool,
       gpu_count = excluded.gpu_count, updated_at = now(), retired_at = NULL,
       shape_changed_at = CASE WHEN (r.instance_type, r.cpu_cores, r.ram_gb) IS DISTINCT FROM (excluded.instance_type, excluded.cpu_cores, excluded.ram_gb)
         THEN (SELECT v.observed_at FROM v WHERE v.resource_id = excluded.resource_id) ELSE r.shape_changed_at END`;

/**
 * Before the upsert, in its transaction: locks the existing rows (resource_id order, as every
 * writer) and records each resize with the recommendation standing then. The lock makes a
 * concurrent upsert of the same resource wait, so it compares with the shape written here.
 */
const RECORD_RESIZES_SQL = `
  WITH v AS (
    SELECT * FROM unnest($2::text[], $3::text[], $4::float8[], $5::float8[], $6::timestamptz[]) AS v(resource_id, instance_type, cpu_cores, ram_gb, observed_at)),
  old AS (
    SELECT r.resource_id, r.instance_type, r.cpu_cores, r.ram_gb, r.action, r.recommended_instance_type, r.savings_monthly_usd,
      r.current_monthly_cost_usd, r.recommended_monthly_cost_usd, r.analyzed_at
    FROM compute_resources r JOIN v ON v.resource_id = r.resource_id
    WHERE r.tenant_id = $1
    ORDER BY r.resource_id COLLATE "C"
    FOR UPDATE OF r)
  INSERT INTO compute_resource_changes AS c (tenant_id, resource_id, at, from_instance_type, from_cpu_cores, from_ram_gb,
    to_instance_type, to_cpu_cores, to_ram_gb, action, recommended_instance_type, savings_monthly_usd,
    current_monthly_cost_usd, recommended_monthly_cost_usd, analyzed_at)
  SELECT $1, o.resource_id, v.observed_at, o.instance_type, o.cpu_cores, o.ram_gb, v.instance_type, v.cpu_cores, v.ram_gb,
    o.action, o.recommended_instance_type, o.savings_monthly_usd, o.current_monthly_cost_usd, o.recommended_monthly_cost_usd, o.analyzed_at
  FROM old o JOIN v ON v.resource_id = o.resource_id
  WHERE (o.instance_type, o.cpu_cores, o.ram_gb) IS DISTINCT FROM (v.instance_type, v.cpu_cores, v.ram_gb)
  ORDER BY o.resource_id COLLATE "C"
  ON CONFLICT (tenant_id, resource_id, at) DO UPDATE SET
    to_instance_type = excluded.to_instance_type, to_cpu_cores = excluded.to_cpu_cores, to_ram_gb = excluded.to_ram_gb, retired = false`;

/** PUT semantics: every attribute is replaced (absent ones become null); analysis results are kept; resizes are recorded. */
export function upsertResourceRows(prisma: Prisma, tenant: TenantRef, resources: ComputeResourceData[], now: Date): Promise<number> {
  const col = <T>(pick: (r: ComputeResourceData) => T) => resources.map(pick);
  const observedAt = col((r) => r.observed_at ?? now.toISOString());
  return prisma.$transaction(async (tx) => {
    await tx.$executeRawUnsafe(
      RECORD_RESIZES_SQL,
      tenant.id,
      col((r) => r.resource_id),
      col((r) => r.instance_type ?? null),
      col((r) => r.cpu_cores ?? null),
      col((r) => r.ram_gb ?? null),
      observedAt,
    );
    return tx.$executeRawUnsafe(
      UPSERT_RESOURCES_SQL,
      tenant.id,
      tenant.organizationId,
      col((r) => r.resource_id),
      col((r) => r.name ?? null),
      col((r) => r.resource_type),
      col((r) => r.provider ?? null),
      col((r) => r.region ?? null),
      col((r) => r.availability_zone ?? null),
      col((r) => r.instance_type ?? null),
      col((r) => r.architecture ?? null),
      col((r) => r.operating_system ?? null),
      col((r) => r.cpu_cores ?? null),
      col((r) => r.ram_gb ?? null),
      col((r) => JSON.stringify(r.labels ?? {})),
      col((r) => r.purchase_option),
      observedAt,
      col((r) => r.cluster ?? null),
      col((r) => r.node_pool ?? null),
      col((r) => r.gpu_count ?? null),
    );
  }, TRANSACTION_OPTIONS);
}

const UNKNOWN_COLUMNS = { id: "text" } as const;
export type UnknownResource = RowOf<typeof UNKNOWN_COLUMNS>;

const UNKNOWN_RESOURCES_SQL = `SELECT id FROM unnest($2::text[]) AS id
     WHERE NOT EXISTS (SELECT 1 FROM compute_resources r WHERE r.tenant_id = $1 AND r.resource_id = id)
     ORDER BY id COLLATE "C" LIMIT 5`;

/** Up to five of `ids` the tenant has no resource for. */
export function findUnknownResources(tx: Pick<Prisma, "$queryRawUnsafe">, tenantId: string, ids: string[]): Promise<UnknownResource[]> {
  return tx.$queryRawUnsafe<UnknownResource[]>(UNKNOWN_RESOURCES_SQL, tenantId, ids);
}

/**
 * Heartbeat = the latest of the stored one and `ts` per resource (a late sample never moves it back).
 * Heartbeats live in compute_resource_heartbeats, a narrow table of their own (migration
 * 20261203100000_compute_resource_heartbeats): moving one rewrites a row of three columns, never
 * the wide resource row the summary reads. Rows are written in resource_id order, as in INGEST_SQL,
 * so concurrent bumps cannot deadlock. The caller checked that every id is a known resource.
 */
const BUMP_HEARTBEATS = `
  INSERT INTO compute_resource_heartbeats AS h (tenant_id, resource_id, last_heartbeat_at)
  SELECT $1, id, max(t) FROM unnest($2::text[], $3::timestamptz[]) AS u(id, t) GROUP BY id ORDER BY id COLLATE "C"
  ON CONFLICT (tenant_id, resource_id) DO UPDATE SET last_heartbeat_at = excluded.last_heartbeat_at
  WHERE h.last_heartbeat_at < excluded.last_heartbeat_at`;

export async function bumpHeartbeats(tx: Pick<Prisma, "$executeRawUnsafe">, tenantId: string, ids: string[], at: string): Promise<void> {
  await tx.$executeRawUnsafe(
    BUMP_HEARTBEATS,
    tenantId,
    ids,
    ids.map(() => at),
  );
}

/**
 * How far a resource's stored heartbeat may trail its newest sample. Every metric batch otherwise
 * rewrote the heartbeat of each resource it named (ten batches a second of one fleet: ten row
 * versions a second per resource), and the `active` filter reads those rows: between vacuum passes,
 * or while any older snapshot is open, it walked ever more versions. A resource is judged active
 * against its active window (a minute at the least), so `active` may turn false up to this much
 * before the window has passed since its very last sample (docs/api.md, compute inventory).
 */
export const HEARTBEAT_RESOLUTION_SECONDS = 10;
const HEARTBEAT_RESOLUTION = `interval '${HEARTBEAT_RESOLUTION_SECONDS} seconds'`;

/**
 * Samples and heartbeats in one statement (one round trip, atomic): the unknown-resource check,
 * the multi-row insert from unnest arrays, the heartbeat bump, the samples queued for the tail and
 * the stale marks of roll-ups all read the same snapshot, and nothing is written when any resource is unknown.
 */
export const INGEST_SQL = `
  WITH v AS (
    -- Utilization is kept at 0.01 percentage-point resolution, rounded half-up from the decimal the client sent.
    SELECT u.resource_id, u.ts, round(u.cpu, 2)::float8 AS cpu, round(u.mem, 2)::float8 AS mem, u.net_in, u.net_out
    FROM unnest($2::text[], $3::timestamptz[], $4::numeric[], $5::numeric[], $6::float8[], $7::float8[]) AS u(resource_id, ts, cpu, mem, net_in, net_out)),
  missing AS (
    SELECT DISTINCT v.resource_id AS id FROM v
    WHERE NOT EXISTS (SELECT 1 FROM compute_resources r WHERE r.tenant_id = $1 AND r.resource_id = v.resource_id AND r.retired_at IS NULL)),
  -- Every write in key order (resource_id, then time): two ingests of the same samples in their own
  -- orders (an agent re-sending a batch while the first copy runs) otherwise deadlocked (one answered 500).
  stored AS (
    INSERT INTO compute_samples (tenant_id, resource_id, ts, cpu_utilization, memory_utilization, network_in_bytes_per_s, network_out_bytes_per_s)
    SELECT $1, v.resource_id, v.ts, v.cpu, v.mem, v.net_in, v.net_out FROM v WHERE NOT EXISTS (SELECT 1 FROM missing)
    ORDER BY v.resource_id COLLATE "C", v.ts
    ON CONFLICT (tenant_id, resource_id, ts) DO UPDATE
      SET cpu_utilization = excluded.cpu_utilization, memory_utilization = excluded.memory_utilization,
        network_in_bytes_per_s = excluded.network_in_bytes_per_s, network_out_bytes_per_s = excluded.network_out_bytes_per_s
    RETURNING resource_id, ts, cpu_utilization, memory_utilization, network_in_bytes_per_s, network_out_bytes_per_s, (xmax = 0) AS inserted),
  -- Heartbeats in their own narrow table (BUMP_HEARTBEATS says why), written in resource_id order:
  -- two ingests moving the same resources' heartbeats forward in other orders can deadlock (one answered 500).
  -- A heartbeat moves only once the batch's newest sample is HEARTBEAT_RESOLUTION newer than the stored one
  -- (checked before the insert, so a heartbeat that stays is neither rewritten nor locked): an agent
  -- sending every second rewrites its row every ${HEARTBEAT_RESOLUTION_SECONDS} s, not with every batch.
  bumped AS (
    INSERT INTO compute_resource_heartbeats AS h (tenant_id, resource_id, last_heartbeat_at)
    SELECT $1, n.resource_id, n.ts FROM (SELECT resource_id, max(ts) AS ts FROM v GROUP BY resource_id) n
    WHERE NOT EXISTS (SELECT 1 FROM missing)
      AND NOT EXISTS (
        SELECT 1 FROM compute_resource_heartbeats o
        WHERE o.tenant_id = $1 AND o.resource_id = n.resource_id AND o.last_heartbeat_at > n.ts - ${HEARTBEAT_RESOLUTION})
    ORDER BY n.resource_id COLLATE "C"
    ON CONFLICT (tenant_id, resource_id) DO UPDATE SET last_heartbeat_at = excluded.last_heartbeat_at
    WHERE h.last_heartbeat_at < excluded.last_heartbeat_at),
  -- The tail's fence, share-locked until commit: a cycle moves it only once no ingest holds the lock,
  -- so every sample is either committed before the cycle reads up to the new fence or checked against it.
  -- The fence's advisory lock first (rollup-repository.ts, FENCE_LOCK_CLASS): the row is locked only once it is held.
  fence AS MATERIALIZED (SELECT pg_advisory_xact_lock_shared(${FENCE_LOCK_CLASS}, hashtext($1)) AS held),
  tail AS MATERIALIZED (SELECT s.from_day, s.cut FROM fence, compute_sample_tail_status s WHERE s.tenant_id = $1 FOR SHARE OF s),
  behind AS (
    SELECT s.* FROM stored s, tail t WHERE s.ts >= t.from_day::timestamp AT TIME ZONE 'UTC' AND s.ts < t.cut),
  -- New samples behind the fence wait for the next cycle to add them to the tail (rollups.ts).
  queued AS (
    INSERT INTO compute_sample_tail_late AS q (tenant_id, resource_id, ts, cpu_utilization, memory_utilization, network_in_bytes_per_s, network_out_bytes_per_s)
    SELECT $1, resource_id, ts, cpu_utilization, memory_utilization, network_in_bytes_per_s, network_out_bytes_per_s FROM behind WHERE inserted
    ORDER BY resource_id COLLATE "C", ts
    ON CONFLICT (tenant_id, resource_id, ts) DO UPDATE
      SET cpu_utilization = excluded.cpu_utilization, memory_utilization = excluded.memory_utilization,
        network_in_bytes_per_s = excluded.network_in_bytes_per_s, network_out_bytes_per_s = excluded.network_out_bytes_per_s),
  -- A sample in a day that ended more than 30 minutes ago makes that day's roll-up stale, and one
  -- re-sent behind the tail's fence makes the tail stale, through the status of its first day.
  late AS (
    INSERT INTO compute_sample_day_status AS s (tenant_id, day)
    SELECT DISTINCT $1, d FROM (
      SELECT (v.ts AT TIME ZONE 'UTC')::date AS d FROM v
      WHERE (v.ts AT TIME ZONE 'UTC')::date < ((now() - interval '30 minutes') AT TIME ZONE 'UTC')::date
      UNION ALL
      SELECT t.from_day FROM tail t WHERE EXISTS (SELECT 1 FROM behind WHERE NOT inserted)) x
    WHERE NOT EXISTS (SELECT 1 FROM missing)
    ORDER BY 2
    ON CONFLICT (tenant_id, day) DO UPDATE SET version = s.version + 1)
  SELECT id FROM missing ORDER BY id COLLATE "C" LIMIT 5`;

/** Samples as the PostgreSQL array literals INGEST_SQL takes (inventory-service.ts, sampleBatch). */
export interface SampleArrays {
  resourceIds: string;
  timestamps: string;
  cpu: string;
  memory: string;
  networkIn: string;
  networkOut: string;
}

/**
 * Stores the samples (INGEST_SQL); answers with up to five unknown resources, in which case nothing
 * was stored. Prepared by name, so it is parsed and planned once.
 */
export function insertSamples(sql: SqlClient, tenantId: string, batch: SampleArrays): Promise<UnknownResource[]> {
  return sql.query<UnknownResource>(INGEST_SQL, [tenantId, batch.resourceIds, batch.timestamps, batch.cpu, batch.memory, batch.networkIn, batch.networkOut], {
    name: "compute_ingest",
  });
}

/** A decision about a recommendation holds while the analysis keeps its action and recommended type. */
const REOPENS = "(r.action IS DISTINCT FROM v.action OR r.recommended_instance_type IS DISTINCT FROM v.recommended_type)";

// The rows are locked in resource_id order first, as ingest, heartbeats and the inventory upsert
// lock or write them (above): writers of the same rows in different orders can deadlock.
const WRITE_SQL = `
  WITH v AS (
    SELECT * FROM unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::numeric[], $8::numeric[], $9::numeric[],
                         $10::float8[], $11::float8[], $12::float8[], $13::int[], $14::timestamptz[], $15::timestamptz[],
                         $16::text[], $17::jsonb[], $18::jsonb[])
      AS v(resource_id, action, current_type, recommended_type, current_cost, recommended_cost, savings,
           cpu_p95, cpu_max, memory_p95, samples, window_start, window_end, reasons, options, price)),
  locked AS (
    SELECT r.resource_id FROM compute_resources r JOIN v ON r.resource_id = v.resource_id
    WHERE r.tenant_id = $1
    ORDER BY r.resource_id COLLATE "C"
    FOR UPDATE OF r)
  UPDATE compute_resources r SET
    action = v.action, current_instance_type = v.current_type, recommended_instance_type = v.recommended_type,
    current_monthly_cost_usd = v.current_cost, recommended_monthly_cost_usd = v.recommended_cost,
    savings_monthly_usd = v.savings, cpu_p95 = v.cpu_p95, cpu_max = v.cpu_max, memory_p95 = v.memory_p95,
    sample_count = v.samples, window_start = v.window_start, window_end = v.window_end, analyzed_at = $2,
    finding_reasons = string_to_array(v.reasons, ','), options = v.options, price = v.price,
    state = CASE WHEN ${REOPENS} THEN 'open' ELSE r.state END,
    state_reason = CASE WHEN ${REOPENS} THEN NULL ELSE r.state_reason END,
    snoozed_until = CASE WHEN ${REOPENS} THEN NULL ELSE r.snoozed_until END
  FROM v JOIN locked l ON l.resource_id = v.resource_id
  WHERE r.tenant_id = $1 AND r.resource_id = v.resource_id`;

/** One cycle's results, a column per field and an element per resource (WRITE_SQL's unnest arrays). */
export interface AnalysisResults {
  resourceIds: string[];
  actions: string[];
  currentTypes: (string | null)[];
  recommendedTypes: (string | null)[];
  currentCosts: (string | null)[];
  recommendedCosts: (string | null)[];
  savings: (string | null)[];
  cpuP95: (number | null)[];
  cpuMax: (number | null)[];
  memoryP95: (number | null)[];
  samples: (number | null)[];
  windowStarts: (Date | null)[];
  windowEnds: (Date | null)[];
  /** Comma-separated finding reasons. */
  reasons: string[];
  /** JSON. */
  options: string[];
  /** JSON. */
  prices: string[];
}

export async function writeAnalysisResults(sql: SqlClient, tenantId: string, analyzedAt: Date, r: AnalysisResults): Promise<void> {
  await sql.query(
    WRITE_SQL,
    [
      tenantId,
      analyzedAt,
      r.resourceIds,
      r.actions,
      r.currentTypes,
      r.recommendedTypes,
      r.currentCosts,
      r.recommendedCosts,
      r.savings,
      r.cpuP95,
      r.cpuMax,
      r.memoryP95,
      r.samples,
      r.windowStarts,
      r.windowEnds,
      r.reasons,
      r.options,
      r.prices,
    ],
    { name: "compute_write_results" },
  );
}

const INVENTORY_TENANTS_COLUMNS = { tenant_id: "text", organization_id: "text" } as const;
const INVENTORY_TENANTS_SQL = "SELECT DISTINCT tenant_id, organization_id FROM compute_resources";

/** Every tenant with an inventory. */
export async function findTenantsWithInventory(prisma: Prisma): Promise<TenantRef[]> {
  const rows = await prisma.$queryRawUnsafe<RowOf<typeof INVENTORY_TENANTS_COLUMNS>[]>(INVENTORY_TENANTS_SQL);
  return rows.map((row) => ({ id: row.tenant_id, organizationId: row.organization_id }));
}

// Advisory lock keyspace of compute analysis ("comp"); the second key is hashtext(tenant id).
const ANALYSIS_LOCK_CLASS = 0x636f6d70;
const ANALYSIS_LOCK_COLUMNS = { locked: "bool" } as const;
const ANALYSIS_LOCK_SQL = "SELECT pg_try_advisory_lock($1, hashtext($2)) AS locked";
const ANALYSIS_UNLOCK_SQL = "SELECT pg_advisory_unlock($1, hashtext($2))";

/** Takes the tenant's analysis lock for the session, if no other session holds it. */
export async function tryLockAnalysis(session: SqlSession, tenantId: string): Promise<boolean> {
  const [{ locked }] = await session.query<RowOf<typeof ANALYSIS_LOCK_COLUMNS>>(ANALYSIS_LOCK_SQL, [ANALYSIS_LOCK_CLASS, tenantId]);
  return locked;
}

export async function unlockAnalysis(session: SqlSession, tenantId: string): Promise<void> {
  await session.query(ANALYSIS_UNLOCK_SQL, [ANALYSIS_LOCK_CLASS, tenantId]);
}

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
export async function findSummary(prisma: Prisma, tenant: TenantRef, query: SummaryQuery): Promise<{ groups: CountsRow[]; top: TopRow[] }> {
  const { sql, params } = summaryStatement(tenant, query);
  // The plans rely on the session settings of db.ts (SSD costs: the covering indexes win).
  const [row] = await prisma.$queryRawUnsafe<{ groups: CountsRow[]; top: TopRow[] }[]>(sql, ...params);
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
export function findRecommendationRows(
  prisma: Prisma,
  tenant: TenantRef,
  query: RecommendationsQuery,
  after: string | undefined,
): Promise<RecommendationRow[]> {
  const { sql, params } = itemsStatement(tenant, query, after);
  return prisma.$queryRawUnsafe<RecommendationRow[]>(sql, ...params);
}

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
    { name: "compute resources upsert", sql: UPSERT_RESOURCES_SQL, columns: null },
    { name: "compute resizes record", sql: RECORD_RESIZES_SQL, columns: null },
    { name: "compute unknown resources", sql: UNKNOWN_RESOURCES_SQL, columns: UNKNOWN_COLUMNS },
    { name: "compute heartbeats", sql: BUMP_HEARTBEATS, columns: null },
    { name: "compute ingest", sql: INGEST_SQL, columns: UNKNOWN_COLUMNS },
    { name: "compute analysis results write", sql: WRITE_SQL, columns: null },
    { name: "compute tenants with inventory", sql: INVENTORY_TENANTS_SQL, columns: INVENTORY_TENANTS_COLUMNS },
    { name: "compute analysis lock", sql: ANALYSIS_LOCK_SQL, columns: ANALYSIS_LOCK_COLUMNS },
    { name: "compute analysis unlock", sql: ANALYSIS_UNLOCK_SQL, columns: null },
    { name: "compute summary (every filter)", sql: summarySql(filters(tenant, filtered).where), columns: counts },
    { name: "compute recommendations (every filter)", sql: items.sql, columns: ITEM_COLUMNS },
  ];
}
