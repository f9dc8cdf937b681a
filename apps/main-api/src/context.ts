import type { RouteDefinition } from "@cloudcost/contracts";
import type { Principal } from "./auth/principal";
import type { VerifiedIdentity } from "./auth/token-verifier";

/** One tenant of one organization: what every tenant-scoped service works on. */
export interface TenantRef {
  id: string;
  organizationId: string;
}

/** A caller-scoped operation: the authenticated caller, with its role and kind already checked against the table. */
export interface CallerContext {
  principal: Principal;
}

/** The organization an organization-scoped operation acts in: the path's `{org_id}`, which authorize verified the caller belongs to. */
export interface OrganizationRef {
  id: string;
}

/** An organization-scoped operation: the caller, and the organization of `{org_id}` it belongs to (services act in it without checking again). */
export interface OrganizationContext extends CallerContext {
  organization: OrganizationRef;
}

/** A tenant-scoped operation: the caller and the tenant of X-Service-Tenant-ID, which the caller may reach. */
export interface TenantContext extends CallerContext {
  tenant: TenantRef;
}

/** An operation for identity-provider identities (sign-up, received invitations): null when the caller used an API key. */
export interface IdentityContext {
  identity: VerifiedIdentity | null;
}

/** An identity operation the table closes to API keys (`keys: false`): the caller's identity-provider identity. */
export interface PersonIdentityContext {
  identity: VerifiedIdentity;
}

/** The context the main API's authorize builds for an operation, from its declared auth mode and scope. */
export type ContextOf<R extends RouteDefinition> = R["auth"] extends "none"
  ? unknown
  : R["auth"] extends "identity"
    ? R extends { keys: false }
      ? PersonIdentityContext
      : IdentityContext
    : R["scope"] extends "tenant"
      ? TenantContext
      : R["scope"] extends "organization"
        ? OrganizationContext
        : CallerContext;
