import type { RouteDefinition } from "@cloudcost/contracts";
import type { Principal } from "./auth/principal";
import type { VerifiedIdentity } from "./auth/token-verifier";

/** One tenant of one organization: what every tenant-scoped service works on. */
export interface TenantRef {
  id: string;
  organizationId: string;
}

/** An organization- or caller-scoped operation: the authenticated caller, with its role already checked against the table. */
export interface CallerContext {
  principal: Principal;
}

/** A tenant-scoped operation: the caller and the tenant of X-Service-Tenant-ID, which the caller may reach. */
export interface TenantContext extends CallerContext {
  tenant: TenantRef;
}

/** An operation for identity-provider identities (sign-up, received invitations): null when the caller used an API key. */
export interface IdentityContext {
  identity: VerifiedIdentity | null;
}

/** The context the main API's authorize builds for an operation, from its declared auth mode and scope. */
export type ContextOf<R extends RouteDefinition> = R["auth"] extends "none"
  ? unknown
  : R["auth"] extends "identity"
    ? IdentityContext
    : R["scope"] extends "tenant"
      ? TenantContext
      : CallerContext;
