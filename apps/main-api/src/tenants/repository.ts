import type { Prisma } from "../db";
import type { Tenant } from "../generated/prisma/client";
import type { Tx } from "../transactions";

type Db = Prisma | Tx;

/** A page of the organization's tenants by id: `limit` rows after `after`, archived ones only when asked, narrowed to `onlyIds` when given. */
export function findTenants(
  db: Db,
  organizationId: string,
  options: { includeArchived: boolean; onlyIds: string[] | null; after: string | undefined; limit: number },
): Promise<Tenant[]> {
  return db.tenant.findMany({
    where: {
      organizationId,
      ...(options.includeArchived ? {} : { archivedAt: null }),
      ...(options.onlyIds === null ? {} : { id: { in: options.onlyIds } }),
      ...(options.after ? { AND: [{ id: { gt: options.after } }] } : {}),
    },
    orderBy: { id: "asc" },
    take: options.limit,
  });
}

export function findTenant(db: Db, organizationId: string, id: string): Promise<Tenant | null> {
  return db.tenant.findUnique({ where: { organizationId_id: { organizationId, id } } });
}

export function insertTenant(db: Db, organizationId: string, id: string, name: string): Promise<Tenant> {
  return db.tenant.create({ data: { organizationId, id, name } });
}

/** `archivedAt`: undefined leaves it, null restores. */
export function updateTenantRow(db: Db, organizationId: string, id: string, data: { name?: string; archivedAt?: Date | null }): Promise<Tenant> {
  return db.tenant.update({ where: { organizationId_id: { organizationId, id } }, data });
}

/** Which of `ids` are live (unarchived) tenants of the organization, by id. */
export async function liveTenantIds(tx: Tx, organizationId: string, ids: string[]): Promise<string[]> {
  const rows = await tx.tenant.findMany({ where: { organizationId, id: { in: ids }, archivedAt: null }, select: { id: true }, orderBy: { id: "asc" } });
  return rows.map((row) => row.id);
}

/** What the tenant service reads and writes; each function takes the client or the transaction it runs in. */
export const tenantRepository = { findTenants, findTenant, insertTenant, updateTenantRow, liveTenantIds };
export type TenantRepository = typeof tenantRepository;
