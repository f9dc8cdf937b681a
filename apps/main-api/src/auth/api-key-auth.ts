import type { ApiKeyRole } from "@cloudcost/contracts";
import { hashApiKey, isWellFormedApiKey } from "@cloudcost/credentials";
import { unauthenticated } from "@cloudcost/http";
import type { SqlClient } from "@cloudcost/db";
import { effectiveKeyRole, keyTenantReach } from "../api-keys/effective-role";
import type { KeyUseRecorder } from "./key-use";
import type { Principal, Role, TenantProbe } from "./principal";

interface KeyRow {
  organization_id: string;
  id: string;
  role: ApiKeyRole;
  tenant_ids: string[];
  revoked: boolean;
  /** Null when the creator's row is missing (keys are only created by users: treated as deactivated). */
  creator_role: Role | null;
  creator_active: boolean;
  creator_tenant_ids: string[];
  tenant_open: boolean | null;
}

/**
 * The principal of a `bl_` key (with the probe of `tenantId`, as for tokens: principal.ts), or a
 * 401 for a malformed, unknown or revoked one, or one whose creator is deactivated. A key acts
 * with at most its creator's current role and tenants (api-keys/effective-role.ts).
 */
export async function authenticateApiKey(
  sql: SqlClient,
  keyUse: KeyUseRecorder,
  key: string,
  tenantId: string | null = null,
): Promise<{ principal: Principal; tenant?: TenantProbe }> {
  // Format and checksum first: a mistyped or made-up key costs no database read.
  if (!isWellFormedApiKey(key)) throw unauthenticated("Malformed API key: expected bl_ followed by 42 letters and digits.");
  // Through the driver, prepared by name, as the token caller's lookup (principal.ts): the key, its
  // creator and the creator's tenants in one round trip.
  const [row] = await sql.query<KeyRow>(
    `SELECT k.organization_id, k.id, k.role::text AS role, k.tenant_ids, k.revoked_at IS NOT NULL AS revoked,
       u.role::text AS creator_role, u.active IS TRUE AS creator_active,
       COALESCE((SELECT array_agg(ut.tenant_id ORDER BY ut.tenant_id COLLATE "C") FROM user_tenants ut
                  WHERE ut.organization_id = k.organization_id AND ut.user_id = k.created_by_user_id), '{}') AS creator_tenant_ids,
       (SELECT t.archived_at IS NULL FROM tenants t WHERE t.organization_id = k.organization_id AND t.id = $2::text) AS tenant_open
     FROM api_keys k
     LEFT JOIN users u ON u.organization_id = k.organization_id AND u.id = k.created_by_user_id
     WHERE k.key_hash = $1`,
    [hashApiKey(key), tenantId],
    { name: "auth_api_key" },
  );
  if (!row || row.revoked) throw unauthenticated("Unknown or revoked API key.");
  if (!row.creator_role || !row.creator_active) throw unauthenticated("This API key is suspended: the user who created it is deactivated.");
  keyUse.touch(row.organization_id, row.id);
  return {
    principal: {
      kind: "api_key",
      organizationId: row.organization_id,
      userId: null,
      role: effectiveKeyRole(row.role, row.creator_role),
      tenantIds: keyTenantReach(row.role, row.tenant_ids, row.creator_role, row.creator_tenant_ids),
      apiKeyId: row.id,
    },
    ...(tenantId === null ? {} : { tenant: { id: tenantId, open: row.tenant_open } }),
  };
}
