import type { Me } from "@cloudcost/contracts";
import type { Principal } from "../auth/principal";
import type { Prisma } from "../db";
import type { OrganizationRepository } from "../organizations/repository";
import { toOrganization, toUser } from "../organizations/serialize";
import type { findUserWithTenantsOrThrow } from "../users/repository";

export type MeService = ReturnType<typeof createMeService>;

/** The caller itself: what `GET /api/v1/me` reads. */
export function createMeService({
  db,
  organizations,
  users,
}: {
  db: Prisma;
  organizations: Pick<OrganizationRepository, "findOrganizationOrThrow">;
  users: { findUserWithTenantsOrThrow: typeof findUserWithTenantsOrThrow };
}) {
  return {
    /** Who the caller is: its organization, its user (none for an API key), role and tenants. */
    async describeCaller(caller: Principal): Promise<Me> {
      const { organizationId } = caller;
      const [organization, user] = await Promise.all([
        organizations.findOrganizationOrThrow(db, organizationId),
        caller.userId ? users.findUserWithTenantsOrThrow(db, organizationId, caller.userId) : null,
      ]);
      return {
        organization: toOrganization(organization),
        user: user ? toUser(user) : null,
        role: caller.role,
        tenant_ids: caller.tenantIds,
        api_key_id: caller.apiKeyId,
      };
    },
  };
}
