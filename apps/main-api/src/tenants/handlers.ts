import type { mainApiTenantRoutes } from "@cloudcost/contracts";
import type { AppDeps } from "../deps";
import { created, success } from "../http/envelope";
import type { Handlers } from "../operations";
import { tenantRepository } from "./repository";
import { createTenantService } from "./service";

/** `/api/v1/organizations/{org_id}/tenants` (authorize checks the table's roles and the organization; the service, what depends on data). */
export function tenantHandlers(deps: Pick<AppDeps, "prisma">): Handlers<keyof typeof mainApiTenantRoutes> {
  const tenants = createTenantService({ db: deps.prisma, tenants: tenantRepository });
  return {
    listTenants: async ({ query }, ctx) => success("Tenants of the organization.", await tenants.listTenants(ctx, query)),
    createTenant: async ({ body }, ctx) => created("Tenant created.", await tenants.createTenant(ctx, body)),
    getTenant: async ({ params }, ctx) => success("Tenant found.", await tenants.getTenant(ctx, params.tenant_id)),
    updateTenant: async ({ params, body }, ctx) => success("Tenant updated.", await tenants.updateTenant(ctx, params.tenant_id, body)),
  };
}
