import type { ApiKeyRole, Role } from "@cloudcost/contracts";

const RANK: Record<Role, number> = { viewer: 0, member: 1, admin: 2, owner: 3 };

/** The role a key acts with: the lower of its own role and its creator's current role. */
export function effectiveKeyRole(keyRole: ApiKeyRole, creatorRole: Role): ApiKeyRole {
  return RANK[creatorRole] < RANK[keyRole] ? (creatorRole as ApiKeyRole) : keyRole;
}

/**
 * The tenants a key reaches (an empty list for an effective admin, who reaches every tenant).
 * While its creator is an owner or admin, a key keeps the tenants it was created with. Once the
 * creator is a member or viewer, the key reaches only tenants that are both in its own list (an
 * admin key's empty list meaning all) and in the creator's current tenants: a key never reaches
 * further than the person accountable for it.
 */
export function keyTenantReach(keyRole: ApiKeyRole, keyTenantIds: string[], creatorRole: Role, creatorTenantIds: string[]): string[] {
  if (RANK[creatorRole] >= RANK.admin) return keyRole === "admin" ? [] : keyTenantIds;
  if (keyRole === "admin") return creatorTenantIds;
  const creators = new Set(creatorTenantIds);
  return keyTenantIds.filter((id) => creators.has(id));
}
