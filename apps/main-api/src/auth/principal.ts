import type { Role } from "@cloudcost/contracts";
import type { SqlClient } from "@cloudcost/db";
import type { VerifiedIdentity } from "./token-verifier";

export type { Role };

/** Who is calling, within which organization, with which role and tenants. */
export interface Principal {
  kind: "user" | "api_key";
  organizationId: string;
  userId: string | null;
  role: Role;
  /** Tenants the caller belongs to; owners and admins reach every tenant of the organization anyway. */
  tenantIds: string[];
  apiKeyId: string | null;
}

/**
 * The tenant a request names (X-Service-Tenant-ID), looked up within the caller's organization in
 * the statement that finds the caller: `open` is null when the organization has no such tenant,
 * false when it is archived. It saves tenant-scoped routes a round trip (auth/authorize.ts).
 */
export interface TenantProbe {
  id: string;
  open: boolean | null;
}

export type IdentityResolution = { principal: Principal; tenant?: TenantProbe } | { principal: null; reason: "no_organization" | "deactivated" };

interface LinkedUserRow {
  organization_id: string;
  id: string;
  role: Role;
  active: boolean;
  tenant_ids: string[];
  tenant_open: boolean | null;
}

/**
 * The user linked to (issuer, subject) with its tenant ids and the probe of `tenantId`, in one
 * statement: every request made with a token runs it, so it costs one round trip. Sent through the
 * driver and prepared by name, so it is not parsed and planned anew each time (docs/performance.md,
 * "Identity lookup").
 */
async function linkedUser(sql: SqlClient, identity: VerifiedIdentity, tenantId: string | null): Promise<LinkedUserRow | undefined> {
  const rows = await sql.query<LinkedUserRow>(
    `SELECT u.organization_id, u.id, u.role::text AS role, u.active,
       COALESCE(array_agg(ut.tenant_id ORDER BY ut.tenant_id COLLATE "C") FILTER (WHERE ut.tenant_id IS NOT NULL), '{}') AS tenant_ids,
       (SELECT t.archived_at IS NULL FROM tenants t WHERE t.organization_id = u.organization_id AND t.id = $3::text) AS tenant_open
     FROM identities i
     JOIN users u ON u.organization_id = i.organization_id AND u.id = i.user_id
     LEFT JOIN user_tenants ut ON ut.organization_id = u.organization_id AND ut.user_id = u.id
     WHERE i.issuer = $1 AND i.subject = $2
     GROUP BY u.organization_id, u.id`,
    [identity.issuer, identity.subject, tenantId],
    { name: "auth_linked_user" },
  );
  return rows[0];
}

/**
 * The user an identity acts as, if it is linked to one. Nothing links an identity implicitly: only
 * sign-up and accepting an invitation do (docs/api.md, "Invitations and membership").
 */
export async function resolveIdentity(sql: SqlClient, identity: VerifiedIdentity, tenantId: string | null = null): Promise<IdentityResolution> {
  const user = await linkedUser(sql, identity, tenantId);
  if (!user) return { principal: null, reason: "no_organization" };
  if (!user.active) return { principal: null, reason: "deactivated" };
  return {
    principal: {
      kind: "user",
      organizationId: user.organization_id,
      userId: user.id,
      role: user.role,
      tenantIds: user.tenant_ids,
      apiKeyId: null,
    },
    ...(tenantId === null ? {} : { tenant: { id: tenantId, open: user.tenant_open } }),
  };
}

export const isManager = (role: Role) => role === "owner" || role === "admin";
