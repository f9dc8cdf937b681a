import type { CheckedStatement } from "@cloudcost/db";
import type { Tx } from "../transactions";

// The node-hours a compute heartbeat bills, written through Prisma in the heartbeat's transaction
// (compute/inventory-service.ts); the pod samples' writes are in repository.ts, through the driver.

/** A heartbeat of a Kubernetes node makes it billed for that hour (no-op for other resources). */
export const NODE_HEARTBEAT_HOURS_SQL = `
  WITH hours AS (
    INSERT INTO kubernetes_node_hours (tenant_id, node, hour)
    SELECT $1, r.resource_id, date_trunc('hour', $3::timestamptz AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'
    FROM compute_resources r WHERE r.tenant_id = $1 AND r.resource_id = ANY($2::text[]) AND r.resource_type = 'kubernetes_node'
    ORDER BY r.resource_id COLLATE "C"
    ON CONFLICT (tenant_id, node, hour) DO NOTHING
    RETURNING node, hour)
  INSERT INTO kubernetes_node_days AS d (tenant_id, day, node, hours)
  SELECT $1, (hour AT TIME ZONE 'UTC')::date, node, count(*)::int FROM hours GROUP BY 2, node ORDER BY 2, node COLLATE "C"
  ON CONFLICT (tenant_id, day, node) DO UPDATE SET hours = d.hours + excluded.hours`;

export async function recordNodeHeartbeatHours(tx: Tx, tenantId: string, ids: string[], at: string): Promise<void> {
  await tx.$executeRawUnsafe(NODE_HEARTBEAT_HOURS_SQL, tenantId, ids, at);
}

/** The raw statements of this module, for test/repository-row-types.test.ts. */
export function checkedStatements(): CheckedStatement[] {
  return [{ name: "kubernetes heartbeat hours", sql: NODE_HEARTBEAT_HOURS_SQL, columns: null }];
}

/** What a compute heartbeat writes of Kubernetes' (compute/services.ts hands it to the inventory service). */
export const nodeHourRepository = { recordNodeHeartbeatHours };
export type NodeHourRepository = typeof nodeHourRepository;
