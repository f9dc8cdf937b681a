import type { OrganizationContext } from "../context";
import type { CreateTenantRequest, ListTenantsQuery, Tenant as TenantBody, UpdateTenantRequest } from "@cloudcost/contracts";
import { newId } from "@cloudcost/db";
import { forbidden } from "@cloudcost/http";
import { isManager } from "../auth/principal";
import type { Prisma } from "../db";
import { decodeCursor, toPage } from "../http/pagination";
import { toTenant } from "../organizations/serialize";
import { findTenant, findTenants, insertTenant, updateTenantRow } from "./repository";

const unavailable = (id: string) => forbidden(`Tenant ${id} is not available to the caller.`);

/** Owners and admins see every tenant; members and viewers only theirs. */
export async function listTenants(prisma: Prisma, { principal: caller, organization: { id: organizationId } }: OrganizationContext, query: ListTenantsQuery) {
  const after = decodeCursor(query.cursor);
  const rows = await findTenants(prisma, organizationId, {
    includeArchived: query.include_archived === true,
    onlyIds: isManager(caller.role) ? null : caller.tenantIds,
    after,
    limit: query.limit + 1,
  });
  return toPage(rows, query.limit, toTenant);
}

export async function getTenant(
  prisma: Prisma,
  { principal: caller, organization: { id: organizationId } }: OrganizationContext,
  id: string,
): Promise<TenantBody> {
  if (!isManager(caller.role) && !caller.tenantIds.includes(id)) throw unavailable(id);
  const row = await findTenant(prisma, organizationId, id);
  if (!row) throw unavailable(id);
  return toTenant(row);
}

export async function createTenant(
  prisma: Prisma,
  { organization: { id: organizationId } }: OrganizationContext,
  body: CreateTenantRequest,
): Promise<TenantBody> {
  return toTenant(await insertTenant(prisma, organizationId, newId("ten"), body.name));
}

/** Renames, archives (`archived: true`, keeps the first archive time) or restores a tenant. */
export async function updateTenant(
  prisma: Prisma,
  { organization: { id: organizationId } }: OrganizationContext,
  id: string,
  body: UpdateTenantRequest,
): Promise<TenantBody> {
  const current = await findTenant(prisma, organizationId, id);
  if (!current) throw unavailable(id);
  const archivedAt = body.archived === undefined ? undefined : body.archived ? (current.archivedAt ?? new Date()) : null;
  return toTenant(await updateTenantRow(prisma, organizationId, id, { name: body.name, archivedAt }));
}
