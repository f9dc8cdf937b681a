import { badRequest } from "@cloudcost/http";
import type { Tx } from "../transactions";
import { liveTenantIds } from "./repository";

/** 400 naming every id in `tenantIds` that is not a live (unarchived) tenant of the organization. */
export async function assertLiveTenants(tx: Tx, organizationId: string, tenantIds: string[], field = "tenant_ids"): Promise<string[]> {
  const unique = [...new Set(tenantIds)];
  if (unique.length === 0) return unique;
  const known = new Set(await liveTenantIds(tx, organizationId, unique));
  const unknown = unique.filter((id) => !known.has(id));
  if (unknown.length) {
    throw badRequest(
      `Invalid ${field}: ${unknown.join(", ")} ${unknown.length === 1 ? "is not a tenant" : "are not tenants"} of this organization (or archived).`,
      [{ path: field, message: `unknown or archived tenant: ${unknown.join(", ")}` }],
    );
  }
  return unique.sort();
}
