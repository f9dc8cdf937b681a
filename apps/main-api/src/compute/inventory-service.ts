import { badRequest } from "@cloudcost/http";
import type { ComputeResourceData, HeartbeatsRequest, MetricSample } from "@cloudcost/contracts";
import type { SqlClient } from "@cloudcost/db";
import type { Prisma } from "../db";
import { FENCE_LOCK_CLASS } from "./rollups";
import type { TenantRef } from "../context";

/** A sample may run a little ahead of our clock, not more. */
const MAX_CLOCK_SKEW_MS = 5 * 60_000;

/** PUT semantics: every attribute is replaced (absent ones become null); analysis results are kept. */
export async function upsertResources(prisma: Prisma, tenant: TenantRef, resources: ComputeResourceData[]): Promise<number> {
  const col = <T>(pick: (r: ComputeResourceData) => T) => resources.map(pick);
  // One statement: all or nothing, and concurrent upserts of one id cannot duplicate it. Rows are
  // written in resource_id order, the order every other writer of them locks in, so two writers of
  // the same resources cannot deadlock. The tenant's roll-up status row is created with its first
  // resource, so it exists before any sample (rollups.ts).
  return prisma.$executeRawUnsafe(
    `WITH status AS (INSERT INTO compute_sample_tail_status (tenant_id) VALUES ($1) ON CONFLICT DO NOTHING)
     INSERT INTO compute_resources AS r (tenant_id, organization_id, resource_id, name, resource_type, provider, region,
       availability_zone, instance_type, architecture, operating_system, cpu_cores, ram_gb, labels, purchase_option)
     SELECT $1, $2, v.* FROM unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[],
       $10::text[], $11::text[], $12::float8[], $13::float8[], $14::jsonb[], $15::text[])
       AS v(resource_id, name, resource_type, provider, region, availability_zone, instance_type, architecture,
            operating_system, cpu_cores, ram_gb, labels, purchase_option)
     ORDER BY v.resource_id COLLATE "C"
     ON CONFLICT (tenant_id, resource_id) DO UPDATE SET
       name = excluded.name, resource_type = excluded.resource_type, provider = excluded.provider,
       region = excluded.region, availability_zone = excluded.availability_zone, instance_type = excluded.instance_type,
       architecture = excluded.architecture, operating_system = excluded.operating_system,
       cpu_cores = excluded.cpu_cores, ram_gb = excluded.ram_gb, labels = excluded.labels,
       purchase_option = excluded.purchase_option, updated_at = now()`,
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
  );
}

async function assertKnown(tx: Pick<Prisma, "$queryRawUnsafe">, tenantId: string, ids: string[]): Promise<void> {
  const unknown = await tx.$queryRawUnsafe<{ id: string }[]>(
    `SELECT id FROM unnest($2::text[]) AS id
     WHERE NOT EXISTS (SELECT 1 FROM compute_resources r WHERE r.tenant_id = $1 AND r.resource_id = id)
     ORDER BY id COLLATE "C" LIMIT 5`,
    tenantId,
    ids,
  );
  if (unknown.length) throw unknownResources(unknown);
}

const unknownResources = (unknown: { id: string }[]) =>
  badRequest(
    `Unknown resource_id ${unknown.map((u) => `'${u.id}'`).join(", ")}: upsert the resource with PUT /api/v1/tenant/compute/resources first; nothing was stored`,
  );

function assertNotFuture(timestamps: string[], field: string) {
  const limit = Date.now() + MAX_CLOCK_SKEW_MS;
  const index = timestamps.findIndex((t) => Date.parse(t) > limit);
  if (index >= 0) throw badRequest(`Invalid request: ${field.replace("#", String(index))}: timestamp is in the future`);
}

/**
 * Heartbeat = the latest of the stored one and `ts` per resource (a late sample never moves it back);
 * rows locked in resource_id order, as in INGEST_SQL, so concurrent bumps cannot deadlock.
 */
const BUMP_HEARTBEATS = `
  WITH locked AS (
    SELECT r.resource_id, v.ts FROM compute_resources r
    JOIN (SELECT id, max(t) AS ts FROM unnest($2::text[], $3::timestamptz[]) AS u(id, t) GROUP BY id) v ON r.resource_id = v.id
    WHERE r.tenant_id = $1 AND (r.last_heartbeat_at IS NULL OR r.last_heartbeat_at < v.ts)
    ORDER BY r.resource_id COLLATE "C"
    FOR UPDATE OF r)
  UPDATE compute_resources r SET last_heartbeat_at = l.ts FROM locked l
  WHERE r.tenant_id = $1 AND r.resource_id = l.resource_id AND (r.last_heartbeat_at IS NULL OR r.last_heartbeat_at < l.ts)`;

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
    WHERE NOT EXISTS (SELECT 1 FROM compute_resources r WHERE r.tenant_id = $1 AND r.resource_id = v.resource_id)),
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
  -- Rows to bump are locked in resource_id order first: two ingests moving the same resources'
  -- heartbeats forward otherwise lock them in join order and can deadlock (one answered 500).
  locked AS (
    SELECT r.resource_id, h.ts FROM compute_resources r
    JOIN (SELECT resource_id, max(ts) AS ts FROM v GROUP BY resource_id) h ON r.resource_id = h.resource_id
    WHERE NOT EXISTS (SELECT 1 FROM missing) AND r.tenant_id = $1 AND (r.last_heartbeat_at IS NULL OR r.last_heartbeat_at < h.ts)
    ORDER BY r.resource_id COLLATE "C"
    FOR UPDATE OF r),
  bumped AS (
    UPDATE compute_resources r SET last_heartbeat_at = l.ts FROM locked l
    WHERE r.tenant_id = $1 AND r.resource_id = l.resource_id AND (r.last_heartbeat_at IS NULL OR r.last_heartbeat_at < l.ts)),
  -- The tail's fence, share-locked until commit: a cycle moves it only once no ingest holds the lock,
  -- so every sample is either committed before the cycle reads up to the new fence or checked against it.
  -- The fence's advisory lock first (rollups.ts, FENCE_LOCK_CLASS): the row is locked only once it is held.
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

/**
 * A validated batch as the four PostgreSQL array literals INGEST_SQL takes, built before the
 * database round trip so that the request's parsed body can be garbage before the statement runs,
 * and joined here because the driver's per-element concatenation allocates far more
 * (docs/performance.md, "Metric ingest").
 */
export interface SampleBatch {
  count: number;
  resourceIds: string;
  timestamps: string;
  cpu: string;
  memory: string;
  networkIn: string;
  networkOut: string;
}

// Inside double quotes an array element only needs `"` and `\` escaped.
const arrayElement = (text: string) => `"${text.replace(/["\\]/g, "\\$&")}"`;

export function sampleBatch(samples: MetricSample[]): SampleBatch {
  assertNotFuture(
    samples.map((s) => s.timestamp),
    "samples.#.timestamp",
  );
  // ON CONFLICT cannot touch one row twice in a statement: the last sample of a (resource, timestamp) wins.
  const latest = new Map<string, MetricSample>();
  for (const s of samples) latest.set(`${s.resource_id}\u0000${s.timestamp}`, s);
  const rows = latest.size === samples.length ? samples : [...latest.values()];
  return {
    count: samples.length,
    resourceIds: `{${rows.map((s) => arrayElement(s.resource_id)).join(",")}}`,
    // Timestamps come out of the contract normalised (2026-11-24T19:36:25.000Z) and numbers as
    // JavaScript writes them: neither holds a character an array literal would need quoted.
    timestamps: `{${rows.map((s) => s.timestamp).join(",")}}`,
    cpu: `{${rows.map((s) => s.cpu_utilization).join(",")}}`,
    memory: `{${rows.map((s) => s.memory_utilization ?? "NULL").join(",")}}`,
    networkIn: `{${rows.map((s) => s.network_in_bytes_per_s ?? "NULL").join(",")}}`,
    networkOut: `{${rows.map((s) => s.network_out_bytes_per_s ?? "NULL").join(",")}}`,
  };
}

/**
 * Stores samples all or nothing; a repeated (resource, timestamp) keeps the last value sent.
 * Sent through the driver, which does not walk every array element as Prisma's raw-query layer
 * does, and prepared by name so it is parsed and planned once (docs/performance.md, "Metric ingest").
 */
export async function ingestMetrics(sql: SqlClient, tenant: TenantRef, batch: SampleBatch): Promise<number> {
  const unknown = await sql.query<{ id: string }>(
    INGEST_SQL,
    [tenant.id, batch.resourceIds, batch.timestamps, batch.cpu, batch.memory, batch.networkIn, batch.networkOut],
    {
      name: "compute_ingest",
    },
  );
  if (unknown.length) throw unknownResources(unknown);
  return batch.count;
}

export async function recordHeartbeats(prisma: Prisma, tenant: TenantRef, body: HeartbeatsRequest): Promise<number> {
  const at = body.timestamp ?? new Date().toISOString();
  assertNotFuture([at], "timestamp");
  const ids = [...new Set(body.resource_ids)];
  await prisma.$transaction(async (tx) => {
    await assertKnown(tx, tenant.id, ids);
    await tx.$executeRawUnsafe(
      BUMP_HEARTBEATS,
      tenant.id,
      ids,
      ids.map(() => at),
    );
  });
  return ids.length;
}
