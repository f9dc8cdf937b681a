import { principalOf } from "../auth/middleware";
import type { AppDeps } from "../deps";
import { created, success } from "../http/envelope";
import type { Handlers } from "../operations";
import { createTenant, getTenant, listTenants, updateTenant } from "../tenants/service";
import { getOrganization, getSettings, updateOrganization, updateSettings } from "./service";

type OrganizationOperations =
  | "getOrganization"
  | "updateOrganization"
  | "getSettings"
  | "updateSettings"
  | "listTenants"
  | "createTenant"
  | "getTenant"
  | "updateTenant";

/** `/api/v1/organizations/{org_id}`: the organization, its settings and tenants (the services check the caller's membership and role). */
export function organizationHandlers(deps: Pick<AppDeps, "prisma">): Handlers<OrganizationOperations> {
  const { prisma } = deps;
  return {
    getOrganization: async ({ params }, req) => success("Organization found.", await getOrganization(prisma, principalOf(req), params.org_id)),
    updateOrganization: async ({ params, body }, req) =>
      success("Organization updated.", await updateOrganization(prisma, principalOf(req), params.org_id, body)),
    getSettings: async ({ params }, req) => success("Organization settings.", await getSettings(prisma, principalOf(req), params.org_id)),
    updateSettings: async ({ params, body }, req) =>
      success("Organization settings updated.", await updateSettings(prisma, principalOf(req), params.org_id, body)),
    listTenants: async ({ params, query }, req) => success("Tenants of the organization.", await listTenants(prisma, principalOf(req), params.org_id, query)),
    createTenant: async ({ params, body }, req) => created("Tenant created.", await createTenant(prisma, principalOf(req), params.org_id, body)),
    getTenant: async ({ params }, req) => success("Tenant found.", await getTenant(prisma, principalOf(req), params.org_id, params.tenant_id)),
    updateTenant: async ({ params, body }, req) =>
      success("Tenant updated.", await updateTenant(prisma, principalOf(req), params.org_id, params.tenant_id, body)),
  };
}
