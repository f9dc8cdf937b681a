import { badRequest } from "@cloudcost/http";
import type { Tx } from "../transactions";

/** 400 naming every id in `tenantIds` that is not a live (unarchived) tenant of the organization. */
export async function assertLiveTenants(tx: Tx, organizationId: string, tenantIds: string[], field = "tenant_ids"): Promise<string[]> {
  const unique = [...new Set(tenantIds)];
  if (unique.length === 0) return unique;
  const found = await tx.tenant.findMany({
    where: { organizationId, id: { in: unique }, archivedAt: null },
    select: { id: true },
  });
  const known = new Set(found.map((t) => t.id));
  const unknown = unique.filter((id) => !known.has(id));
  if (unknown.length) {
    throw badRequest(
      `Invalid ${field}: ${unknown.join(", ")} ${unknown.length === 1 ? "is not a tenant" : "are not tenants"} of this organization (or archived).`,
      [{ path: field, message: `unknown or archived tenant: ${unknown.join(", ")}` }],
    );
  }
  return unique.sort();
}
