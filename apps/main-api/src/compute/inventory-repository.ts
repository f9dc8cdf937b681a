import type { ComputeResourceData } from "@cloudcost/contracts";
import type { CheckedStatement, RowOf } from "@cloudcost/db";
import type { TenantRef } from "../context";
import type { Prisma } from "../db";
import type { Tx } from "../transactions";

// The compute inventory: resources, their resizes and heartbeats, through Prisma's raw queries (the
// samples: sample-repository.ts; analysis results: analysis-repository.ts; the summary and the
// list: recommendation-repository.ts; retirement, states and changes: lifecycle-repository.ts).

type Db = Prisma | Tx;

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

/**
 * PUT semantics: every attribute is replaced (absent ones become null); analysis results are kept;
 * resizes are recorded. Two statements: run it in a transaction (`tx`), as the inventory service does.
 */
export async function upsertResourceRows(tx: Tx, tenant: TenantRef, resources: ComputeResourceData[], now: Date): Promise<number> {
  const col = <T>(pick: (r: ComputeResourceData) => T) => resources.map(pick);
  const observedAt = col((r) => r.observed_at ?? now.toISOString());
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
}

export const UNKNOWN_COLUMNS = { id: "text" } as const;
export type UnknownResource = RowOf<typeof UNKNOWN_COLUMNS>;

const UNKNOWN_RESOURCES_SQL = `SELECT id FROM unnest($2::text[]) AS id
     WHERE NOT EXISTS (SELECT 1 FROM compute_resources r WHERE r.tenant_id = $1 AND r.resource_id = id)
     ORDER BY id COLLATE "C" LIMIT 5`;

/** Up to five of `ids` the tenant has no resource for. */
export function findUnknownResources(db: Db, tenantId: string, ids: string[]): Promise<UnknownResource[]> {
  return db.$queryRawUnsafe<UnknownResource[]>(UNKNOWN_RESOURCES_SQL, tenantId, ids);
}

/**
 * Heartbeat = the latest of the stored one and `ts` per resource (a late sample never moves it back).
 * Heartbeats live in compute_resource_heartbeats, a narrow table of their own (migration
 * 20261203100000_compute_resource_heartbeats): moving one rewrites a row of three columns, never
 * the wide resource row the summary reads. Rows are written in resource_id order, as in INGEST_SQL
 * (sample-repository.ts),
 * so concurrent bumps cannot deadlock. The caller checked that every id is a known resource.
 */
const BUMP_HEARTBEATS = `
  INSERT INTO compute_resource_heartbeats AS h (tenant_id, resource_id, last_heartbeat_at)
  SELECT $1, id, max(t) FROM unnest($2::text[], $3::timestamptz[]) AS u(id, t) GROUP BY id ORDER BY id COLLATE "C"
  ON CONFLICT (tenant_id, resource_id) DO UPDATE SET last_heartbeat_at = excluded.last_heartbeat_at
  WHERE h.last_heartbeat_at < excluded.last_heartbeat_at`;

export async function bumpHeartbeats(db: Db, tenantId: string, ids: string[], at: string): Promise<void> {
  await db.$executeRawUnsafe(
    BUMP_HEARTBEATS,
    tenantId,
    ids,
    ids.map(() => at),
  );
}

const INVENTORY_TENANTS_COLUMNS = { tenant_id: "text", organization_id: "text" } as const;
const INVENTORY_TENANTS_SQL = "SELECT DISTINCT tenant_id, organization_id FROM compute_resources";

/** Every tenant with an inventory. */
export async function findTenantsWithInventory(db: Db): Promise<TenantRef[]> {
  const rows = await db.$queryRawUnsafe<RowOf<typeof INVENTORY_TENANTS_COLUMNS>[]>(INVENTORY_TENANTS_SQL);
  return rows.map((row) => ({ id: row.tenant_id, organizationId: row.organization_id }));
}

export const inventoryRepository = { upsertResourceRows, findUnknownResources, bumpHeartbeats, findTenantsWithInventory };
export type InventoryRepository = typeof inventoryRepository;

/** The raw statements of this module, for test/repository-row-types.test.ts. */
export function checkedStatements(): CheckedStatement[] {
  return [
    { name: "compute resources upsert", sql: UPSERT_RESOURCES_SQL, columns: null },
    { name: "compute resizes record", sql: RECORD_RESIZES_SQL, columns: null },
    { name: "compute unknown resources", sql: UNKNOWN_RESOURCES_SQL, columns: UNKNOWN_COLUMNS },
    { name: "compute heartbeats", sql: BUMP_HEARTBEATS, columns: null },
    { name: "compute tenants with inventory", sql: INVENTORY_TENANTS_SQL, columns: INVENTORY_TENANTS_COLUMNS },
  ];
}
