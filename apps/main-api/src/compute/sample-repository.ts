import type { CheckedStatement, SqlClient } from "@cloudcost/db";
import { UNKNOWN_COLUMNS, type UnknownResource } from "./inventory-repository";
import { FENCE_LOCK_CLASS } from "./rollup-repository";

// Metric samples of the compute inventory, through the driver (the ingest path: docs/performance.md, "Metric ingest").

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
 * Samples and heartbeats in one statement (one round trip, atomic; BUMP_HEARTBEATS, which its
 * comments name, is in inventory-repository.ts): the unknown-resource check,
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

export const sampleRepository = { insertSamples };
export type SampleRepository = typeof sampleRepository;

/** The raw statements of this module, for test/repository-row-types.test.ts. */
export function checkedStatements(): CheckedStatement[] {
  return [{ name: "compute ingest", sql: INGEST_SQL, columns: UNKNOWN_COLUMNS }];
}
