import type { CreateTenantRequest, ListTenantsQuery, Tenant as TenantBody, UpdateTenantRequest } from "@cloudcost/contracts";
import { newId } from "@cloudcost/db";
import { forbidden } from "@cloudcost/http";
import { isManager, type Principal } from "../auth/principal";
import type { Prisma } from "../db";
import { decodeCursor, toPage } from "../http/pagination";
import { assertMember } from "../organizations/access";
import { toTenant } from "../organizations/serialize";

const unavailable = (id: string) => forbidden(`Tenant ${id} is not available to the caller.`);

/** Owners and admins see every tenant; members and viewers only theirs. */
export async function listTenants(prisma: Prisma, caller: Principal, organizationId: string, query: ListTenantsQuery) {
  assertMember(caller, organizationId);
  const after = decodeCursor(query.cursor);
  const rows = await prisma.tenant.findMany({
    where: {
      organizationId,
      ...(query.include_archived ? {} : { archivedAt: null }),
      ...(isManager(caller.role) ? {} : { id: { in: caller.tenantIds } }),
      ...(after ? { AND: [{ id: { gt: after } }] } : {}),
    },
    orderBy: { id: "asc" },
    take: query.limit + 1,
  });
  return toPage(rows, query.limit, toTenant);
}

export async function getTenant(prisma: Prisma, caller: Principal, organizationId: string, id: string): Promise<TenantBody> {
  assertMember(caller, organizationId);
  if (!isManager(caller.role) && !caller.tenantIds.includes(id)) throw unavailable(id);
  const row = await prisma.tenant.findUnique({ where: { organizationId_id: { organizationId, id } } });
  if (!row) throw unavailable(id);
  return toTenant(row);
}

export async function createTenant(prisma: Prisma, caller: Principal, organizationId: string, body: CreateTenantRequest): Promise<TenantBody> {
  assertMember(caller, organizationId);
  return toTenant(await prisma.tenant.create({ data: { organizationId, id: newId("ten"), name: body.name } }));
}

/** Renames, archives (`archived: true`, keeps the first archive time) or restores a tenant. */
export async function updateTenant(prisma: Prisma, caller: Principal, organizationId: string, id: string, body: UpdateTenantRequest): Promise<TenantBody> {
  assertMember(caller, organizationId);
  const where = { organizationId_id: { organizationId, id } };
  const current = await prisma.tenant.findUnique({ where });
  if (!current) throw unavailable(id);
  const archivedAt = body.archived === undefined ? undefined : body.archived ? (current.archivedAt ?? new Date()) : null;
  return toTenant(await prisma.tenant.update({ where, data: { name: body.name, archivedAt } }));
}
