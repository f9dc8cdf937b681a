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
    getOrganization: async (_input, ctx) => success("Organization found.", await getOrganization(prisma, ctx)),
    updateOrganization: async ({ body }, ctx) => success("Organization updated.", await updateOrganization(prisma, ctx, body)),
    getSettings: async (_input, ctx) => success("Organization settings.", await getSettings(prisma, ctx)),
    updateSettings: async ({ body }, ctx) => success("Organization settings updated.", await updateSettings(prisma, ctx, body)),
    listTenants: async ({ query }, ctx) => success("Tenants of the organization.", await listTenants(prisma, ctx, query)),
    createTenant: async ({ body }, ctx) => created("Tenant created.", await createTenant(prisma, ctx, body)),
    getTenant: async ({ params }, ctx) => success("Tenant found.", await getTenant(prisma, ctx, params.tenant_id)),
    updateTenant: async ({ params, body }, ctx) => success("Tenant updated.", await updateTenant(prisma, ctx, params.tenant_id, body)),
  };
}
