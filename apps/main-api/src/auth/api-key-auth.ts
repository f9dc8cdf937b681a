import { hashApiKey, isWellFormedApiKey } from "@cloudcost/credentials";
import { unauthenticated } from "@cloudcost/http";
import type { SqlClient } from "@cloudcost/db";
import { effectiveKeyRole, keyTenantReach } from "../api-keys/effective-role";
import type { KeyUseRecorder } from "./key-use";
import type { Principal, TenantProbe } from "./principal";
import { findCallerKey } from "./repository";

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
  // The key, its creator and the creator's tenants in one round trip.
  const row = await findCallerKey(sql, hashApiKey(key), tenantId);
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
