import { ServiceId, type RouteDefinition } from "@cloudcost/contracts";
import { badRequest, forbidden, unauthenticated } from "@cloudcost/http";
import type { CallerContext, IdentityContext, OrganizationContext, TenantContext } from "../context";
import type { Authenticated } from "./authenticate";
import { isManager, type Principal, type Role } from "./principal";

/** The caller of an operation behind authentication: 403 for an identity without an active user. */
function principalOf(caller: Authenticated): Principal {
  if (caller.principal) return caller.principal;
  if (caller.refusal === "deactivated") throw forbidden("Your user has been deactivated in its organization.");
  if (caller.refusal === "no_organization") {
    throw forbidden(
      "This identity does not belong to any organization yet: complete sign-up (POST /api/v1/signup/complete) or accept an invitation (GET /api/v1/invitations).",
    );
  }
  throw unauthenticated("Authentication is required.");
}

const rolesNeeded = (roles: readonly Role[]) =>
  roles.length === 2 && roles.includes("owner") && roles.includes("admin")
    ? "Only owners and admins can do this (role owner or admin)"
    : `This operation needs the role ${roles.join(" or ")}`;

/** The table's `roles` and `write` of an operation, whatever its scope. */
function checkRole(route: RouteDefinition, { role }: Principal): void {
  if (route.roles && !route.roles.includes(role)) throw forbidden(`${rolesNeeded(route.roles)}; the caller is ${role}.`);
  if (route.write && role === "viewer") throw forbidden("Viewers cannot change anything.");
}

/** The table's caller kinds: `keys: false` refuses API keys (people only). */
function refuseKeys(route: RouteDefinition): never {
  throw forbidden(route.keysRefused ?? "API keys cannot do this: sign in as a user.");
}

/**
 * The organization of an organization-scoped operation: the path's `{org_id}`, which the caller
 * must belong to. Another organization's and an unknown one answer alike, so ids cannot be probed.
 */
function selectOrganization(route: RouteDefinition, principal: Principal, params: Record<string, unknown>): OrganizationContext["organization"] {
  const id = params.org_id;
  if (typeof id !== "string") throw new Error(`${route.operationId}: scope "organization" without an {org_id} path parameter`);
  if (principal.organizationId !== id) throw forbidden(`The caller is not a member of organization ${id}.`);
  return { id };
}

/**
 * Refuses at start-up an operation whose declared scope authorize could not check: an
 * organization-scoped one must name the organization in its path (`{org_id}`).
 */
export function checkDeclaredScope(route: RouteDefinition): void {
  if (route.scope === "organization" && !(route.path.includes("{org_id}") && route.params?.shape.org_id))
    throw new Error(`${route.operationId}: scope "organization" needs an {org_id} path parameter`);
}

/** 400 unless X-Service-Tenant-ID (`header`, trimmed) is present and well-formed. */
function checkTenantHeader(header: string): void {
  if (!header) throw badRequest("Missing X-Service-Tenant-ID header: send the id of the tenant to act on.");
  if (!ServiceId.safeParse(header).success)
    throw badRequest("Malformed X-Service-Tenant-ID header: expected a tenant id (1-64 characters of A-Z a-z 0-9 _ -).");
}

/** The named tenant: 403 when it does not exist, is archived, belongs to another organization or is out of the caller's reach. */
function selectTenant(caller: Authenticated, principal: Principal, id: string): TenantContext["tenant"] {
  // Looked up by authenticate with the caller, in the same statement.
  if (caller.tenant?.id !== id) throw new Error("authenticate did not look up the tenant before authorize");
  const inReach = isManager(principal.role) || principal.tenantIds.includes(id);
  // Unknown, other organization's, archived and out-of-reach tenants answer alike: ids cannot be probed.
  if (!caller.tenant.open || !inReach) throw forbidden(`Tenant ${id} is not available to the caller.`);
  return { id, organizationId: principal.organizationId };
}

/**
 * The main API's one authorization of a declared operation, after authentication and validation:
 * the table's roles, write flag and caller kinds for every scope, then the scope itself: the
 * organization of `{org_id}` the caller must belong to, or the tenant of X-Service-Tenant-ID it
 * must reach. It returns the handler's context, which carries what it verified. What depends on
 * data (a member's own profile, who may change an owner) stays with the services.
 */
export function authorize(
  route: RouteDefinition,
  caller: Authenticated | undefined,
  tenantHeader: string,
  params: Record<string, unknown> = {},
): IdentityContext | CallerContext | OrganizationContext | TenantContext | Record<string, never> {
  if (route.auth === "none") return {};
  if (!caller) throw new Error(`${route.operationId}: authenticate did not run before authorize`);
  if (route.auth === "identity") {
    if (route.keys === false && !caller.identity) refuseKeys(route);
    return { identity: caller.identity };
  }
  // The header's 400s come before any decision about the caller, as any invalid request's.
  if (route.scope === "tenant") checkTenantHeader(tenantHeader);
  const principal = principalOf(caller);
  checkRole(route, principal);
  if (route.keys === false && principal.kind !== "user") refuseKeys(route);
  if (route.scope === "organization") return { principal, organization: selectOrganization(route, principal, params) };
  if (route.scope === "tenant") return { principal, tenant: selectTenant(caller, principal, tenantHeader) };
  return { principal };
}
