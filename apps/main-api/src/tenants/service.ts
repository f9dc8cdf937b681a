import type { CreateTenantRequest, ListTenantsQuery, Tenant as TenantBody, UpdateTenantRequest } from "@cloudcost/contracts";
import { newId } from "@cloudcost/db";
import { forbidden } from "@cloudcost/http";
import { isManager } from "../auth/principal";
import type { OrganizationContext } from "../context";
import type { Prisma } from "../db";
import { decodeCursor, toPage } from "../http/pagination";
import { toTenant } from "../organizations/serialize";
import type { TenantRepository } from "./repository";

const unavailable = (id: string) => forbidden(`Tenant ${id} is not available to the caller.`);

export type TenantService = ReturnType<typeof createTenantService>;

/** The tenants of the organization named by `{org_id}`: owners and admins reach every one, members and viewers theirs. */
export function createTenantService({ db, tenants }: { db: Prisma; tenants: TenantRepository }) {
  return {
    /** Owners and admins see every tenant; members and viewers only theirs. */
    async listTenants({ principal: caller, organization: { id: organizationId } }: OrganizationContext, query: ListTenantsQuery) {
      const after = decodeCursor(query.cursor);
      const rows = await tenants.findTenants(db, organizationId, {
        includeArchived: query.include_archived === true,
        onlyIds: isManager(caller.role) ? null : caller.tenantIds,
        after,
        limit: query.limit + 1,
      });
      return toPage(rows, query.limit, toTenant);
    },

    async getTenant({ principal: caller, organization: { id: organizationId } }: OrganizationContext, id: string): Promise<TenantBody> {
      if (!isManager(caller.role) && !caller.tenantIds.includes(id)) throw unavailable(id);
      const row = await tenants.findTenant(db, organizationId, id);
      if (!row) throw unavailable(id);
      return toTenant(row);
    },

    async createTenant({ organization: { id: organizationId } }: OrganizationContext, body: CreateTenantRequest): Promise<TenantBody> {
      return toTenant(await tenants.insertTenant(db, organizationId, newId("ten"), body.name));
    },

    /** Renames, archives (`archived: true`, keeps the first archive time) or restores a tenant. */
    async updateTenant({ organization: { id: organizationId } }: OrganizationContext, id: string, body: UpdateTenantRequest): Promise<TenantBody> {
      const current = await tenants.findTenant(db, organizationId, id);
      if (!current) throw unavailable(id);
      const archivedAt = body.archived === undefined ? undefined : body.archived ? (current.archivedAt ?? new Date()) : null;
      return toTenant(await tenants.updateTenantRow(db, organizationId, id, { name: body.name, archivedAt }));
    },
  };
}
