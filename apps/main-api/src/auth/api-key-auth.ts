import type { ApiKeyRole } from "@cloudcost/contracts";
import { hashApiKey, isWellFormedApiKey } from "@cloudcost/credentials";
import { unauthenticated } from "@cloudcost/http";
import type { SqlClient } from "@cloudcost/db";
import type { Logger } from "pino";
import type { Prisma } from "../db";
import { effectiveKeyRole, keyTenantReach } from "../api-keys/effective-role";
import type { Principal, Role, TenantProbe } from "./principal";

const TOUCH_INTERVAL_MS = 60_000;
// Per process: when each key's last_used_at was last written, so a busy key costs one write a minute.
const lastTouched = new Map<string, number>();

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
  prisma: Prisma,
  sql: SqlClient,
  logger: Logger,
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
  touch(prisma, logger, row.organization_id, row.id);
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

/** Records use in the background (never awaited on the request path), at most once a minute per key. */
function touch(prisma: Prisma, logger: Logger, organizationId: string, id: string): void {
  const now = Date.now();
  if (now - (lastTouched.get(id) ?? 0) < TOUCH_INTERVAL_MS) return;
  lastTouched.set(id, now);
  const cutoff = new Date(now - TOUCH_INTERVAL_MS);
  prisma.apiKey
    .updateMany({
      // The condition keeps replicas to one write a minute as well.
      where: { organizationId, id, OR: [{ lastUsedAt: null }, { lastUsedAt: { lt: cutoff } }] },
      data: { lastUsedAt: new Date(now) },
    })
    .catch((err: unknown) => logger.warn({ err }, "could not record API key use"));
}
