import type { ApiKeyRole, Role } from "@cloudcost/contracts";
import type { SqlClient } from "@cloudcost/db";
import type { CheckedStatement, RowOf } from "@cloudcost/db";

// Both lookups run on every request: sent through the driver and prepared by name, so they are not
// parsed and planned anew each time (docs/performance.md, "Identity lookup").

const KEY_COLUMNS = {
  organization_id: "text",
  id: "text",
  role: "text",
  tenant_ids: "text[]",
  revoked: "bool",
  creator_role: "text null",
  creator_active: "bool",
  creator_tenant_ids: "text[]",
  tenant_open: "bool null",
} as const;

/** An API key with its creator; `creator_role` is null when the creator's row is missing (keys are only created by users: treated as deactivated). */
export type CallerKeyRow = Omit<RowOf<typeof KEY_COLUMNS>, "role" | "creator_role"> & { role: ApiKeyRole; creator_role: Role | null };

const KEY_SQL = `SELECT k.organization_id, k.id, k.role::text AS role, COALESCE(k.tenant_ids, '{}') AS tenant_ids, k.revoked_at IS NOT NULL AS revoked,
       u.role::text AS creator_role, u.active IS TRUE AS creator_active,
       COALESCE((SELECT array_agg(ut.tenant_id ORDER BY ut.tenant_id COLLATE "C") FROM user_tenants ut
                  WHERE ut.organization_id = k.organization_id AND ut.user_id = k.created_by_user_id), '{}') AS creator_tenant_ids,
       (SELECT t.archived_at IS NULL FROM tenants t WHERE t.organization_id = k.organization_id AND t.id = $2::text) AS tenant_open
     FROM api_keys k
     LEFT JOIN users u ON u.organization_id = k.organization_id AND u.id = k.created_by_user_id
     WHERE k.key_hash = $1`;

/** The key with this hash, its creator and the creator's tenants, and the probe of `tenantId` (`tenant_open`), in one round trip. */
export async function findCallerKey(sql: SqlClient, keyHash: string, tenantId: string | null): Promise<CallerKeyRow | undefined> {
  const [row] = await sql.query<CallerKeyRow>(KEY_SQL, [keyHash, tenantId], { name: "auth_api_key" });
  return row;
}

const LINKED_USER_COLUMNS = {
  organization_id: "text",
  id: "text",
  role: "text",
  active: "bool",
  tenant_ids: "text[]",
  tenant_open: "bool null",
} as const;
export type LinkedUserRow = Omit<RowOf<typeof LINKED_USER_COLUMNS>, "role"> & { role: Role };

const LINKED_USER_SQL = `SELECT u.organization_id, u.id, u.role::text AS role, u.active,
       COALESCE(array_agg(ut.tenant_id ORDER BY ut.tenant_id COLLATE "C") FILTER (WHERE ut.tenant_id IS NOT NULL), '{}') AS tenant_ids,
       (SELECT t.archived_at IS NULL FROM tenants t WHERE t.organization_id = u.organization_id AND t.id = $3::text) AS tenant_open
     FROM identities i
     JOIN users u ON u.organization_id = i.organization_id AND u.id = i.user_id
     LEFT JOIN user_tenants ut ON ut.organization_id = u.organization_id AND ut.user_id = u.id
     WHERE i.issuer = $1 AND i.subject = $2
     GROUP BY u.organization_id, u.id`;

/** The user linked to (issuer, subject) with its tenant ids and the probe of `tenantId`, in one statement. */
export async function findLinkedUser(sql: SqlClient, issuer: string, subject: string, tenantId: string | null): Promise<LinkedUserRow | undefined> {
  const [row] = await sql.query<LinkedUserRow>(LINKED_USER_SQL, [issuer, subject, tenantId], { name: "auth_linked_user" });
  return row;
}

/** The raw statements of this module, for test/repository-row-types.test.ts. */
export function checkedStatements(): CheckedStatement[] {
  return [
    { name: "auth: caller's API key", sql: KEY_SQL, columns: KEY_COLUMNS },
    { name: "auth: linked user", sql: LINKED_USER_SQL, columns: LINKED_USER_COLUMNS },
  ];
}
