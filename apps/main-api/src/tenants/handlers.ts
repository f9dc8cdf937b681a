import type { mainApiTenantRoutes } from "@cloudcost/contracts";
import type { AppDeps } from "../deps";
import { created, success } from "../http/envelope";
import type { Handlers } from "../operations";
import { createTenant, getTenant, listTenants, updateTenant } from "./service";

/** `/api/v1/organizations/{org_id}/tenants` (authorize checks the table's roles and the organization; the services, what depends on data). */
export function tenantHandlers(deps: Pick<AppDeps, "prisma">): Handlers<keyof typeof mainApiTenantRoutes> {
  const { prisma } = deps;
  return {
    listTenants: async ({ query }, ctx) => success("Tenants of the organization.", await listTenants(prisma, ctx, query)),
    createTenant: async ({ body }, ctx) => created("Tenant created.", await createTenant(prisma, ctx, body)),
    getTenant: async ({ params }, ctx) => success("Tenant found.", await getTenant(prisma, ctx, params.tenant_id)),
    updateTenant: async ({ params, body }, ctx) => success("Tenant updated.", await updateTenant(prisma, ctx, params.tenant_id, body)),
  };
}
