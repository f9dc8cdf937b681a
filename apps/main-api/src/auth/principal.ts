import type { Role } from "@cloudcost/contracts";
import type { SqlClient } from "@cloudcost/db";
import { findLinkedUser } from "./repository";
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

/**
 * The user an identity acts as, if it is linked to one. Nothing links an identity implicitly: only
 * sign-up and accepting an invitation do (docs/api.md, "Invitations and membership").
 */
export async function resolveIdentity(sql: SqlClient, identity: VerifiedIdentity, tenantId: string | null = null): Promise<IdentityResolution> {
  const user = await findLinkedUser(sql, identity.issuer, identity.subject, tenantId);
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
