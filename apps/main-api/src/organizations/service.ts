import type { Organization as OrganizationBody, UpdateOrganizationRequest } from "@cloudcost/contracts";
import { isUniqueViolation } from "@cloudcost/db";
import { conflict, forbidden } from "@cloudcost/http";
import type { OrganizationContext } from "../context";
import type { Prisma } from "../db";
import type { OrganizationRepository } from "./repository";
import { toOrganization } from "./serialize";

export type OrganizationService = ReturnType<typeof createOrganizationService>;

/** The organization named by `{org_id}`, which authorize verified the caller belongs to. */
export function createOrganizationService({ db, organizations }: { db: Prisma; organizations: OrganizationRepository }) {
  return {
    async getOrganization({ organization: { id: organizationId } }: OrganizationContext): Promise<OrganizationBody> {
      const row = await organizations.findOrganization(db, organizationId);
      if (!row) throw forbidden(`The caller is not a member of organization ${organizationId}.`);
      return toOrganization(row);
    },

    async updateOrganization({ organization: { id: organizationId } }: OrganizationContext, body: UpdateOrganizationRequest): Promise<OrganizationBody> {
      try {
        return toOrganization(await organizations.updateOrganizationRow(db, organizationId, { name: body.name, slug: body.slug }));
      } catch (err) {
        if (isUniqueViolation(err)) throw conflict(`The slug '${body.slug}' is already taken.`);
        throw err;
      }
    },
  };
}
