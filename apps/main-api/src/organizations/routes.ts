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

/** `/api/v1/organizations/{org_id}`: the organization, its settings and tenants (authorize checks the table's roles; the services, the organization and what depends on data). */
export function organizationHandlers(deps: Pick<AppDeps, "prisma">): Handlers<OrganizationOperations> {
  const { prisma } = deps;
  return {
    getOrganization: async ({ params }, { principal }) => success("Organization found.", await getOrganization(prisma, principal, params.org_id)),
    updateOrganization: async ({ params, body }, { principal }) =>
      success("Organization updated.", await updateOrganization(prisma, principal, params.org_id, body)),
    getSettings: async ({ params }, { principal }) => success("Organization settings.", await getSettings(prisma, principal, params.org_id)),
    updateSettings: async ({ params, body }, { principal }) =>
      success("Organization settings updated.", await updateSettings(prisma, principal, params.org_id, body)),
    listTenants: async ({ params, query }, { principal }) =>
      success("Tenants of the organization.", await listTenants(prisma, principal, params.org_id, query)),
    createTenant: async ({ params, body }, { principal }) => created("Tenant created.", await createTenant(prisma, principal, params.org_id, body)),
    getTenant: async ({ params }, { principal }) => success("Tenant found.", await getTenant(prisma, principal, params.org_id, params.tenant_id)),
    updateTenant: async ({ params, body }, { principal }) =>
      success("Tenant updated.", await updateTenant(prisma, principal, params.org_id, params.tenant_id, body)),
  };
}
