import { hashApiKey, isWellFormedApiKey } from "@cloudcost/credentials";
import { unauthenticated } from "@cloudcost/http";
import type { SqlClient } from "@cloudcost/db";
import type { KeyUseRecorder } from "./key-use";
import type { Principal, TenantProbe } from "./principal";

interface KeyRow {
  organization_id: string;
  id: string;
  role: Principal["role"];
  tenant_ids: string[];
  revoked: boolean;
  tenant_open: boolean | null;
}

/**
 * The principal of a `bl_` key (with the probe of `tenantId`, as for tokens: principal.ts), or a
 * 401 for a malformed, unknown or revoked one.
 */
export async function authenticateApiKey(
  sql: SqlClient,
  keyUse: KeyUseRecorder,
  key: string,
  tenantId: string | null = null,
): Promise<{ principal: Principal; tenant?: TenantProbe }> {
  // Format and checksum first: a mistyped or made-up key costs no database read.
  if (!isWellFormedApiKey(key)) throw unauthenticated("Malformed API key: expected bl_ followed by 42 letters and digits.");
  // Through the driver, prepared by name, as the token caller's lookup (principal.ts).
  const [row] = await sql.query<KeyRow>(
    `SELECT k.organization_id, k.id, k.role::text AS role, k.tenant_ids, k.revoked_at IS NOT NULL AS revoked,
       (SELECT t.archived_at IS NULL FROM tenants t WHERE t.organization_id = k.organization_id AND t.id = $2::text) AS tenant_open
     FROM api_keys k WHERE k.key_hash = $1`,
    [hashApiKey(key), tenantId],
    { name: "auth_api_key" },
  );
  if (!row || row.revoked) throw unauthenticated("Unknown or revoked API key.");
  keyUse.touch(row.organization_id, row.id);
  return {
    principal: { kind: "api_key", organizationId: row.organization_id, userId: null, role: row.role, tenantIds: row.tenant_ids, apiKeyId: row.id },
    ...(tenantId === null ? {} : { tenant: { id: tenantId, open: row.tenant_open } }),
  };
}
