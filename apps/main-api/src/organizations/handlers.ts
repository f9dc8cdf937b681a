import type { mainApiOrganizationRoutes } from "@cloudcost/contracts";
import type { AppDeps } from "../deps";
import { success } from "../http/envelope";
import type { Handlers } from "../operations";
import { organizationRepository } from "./repository";
import { createOrganizationService } from "./service";

/** `/api/v1/organizations/{org_id}`: the organization (authorize checks the table's roles and that the caller belongs to it). */
export function organizationHandlers(deps: Pick<AppDeps, "prisma">): Handlers<keyof typeof mainApiOrganizationRoutes> {
  const organizations = createOrganizationService({ db: deps.prisma, organizations: organizationRepository });
  return {
    getOrganization: async (_input, ctx) => success("Organization found.", await organizations.getOrganization(ctx)),
    updateOrganization: async ({ body }, ctx) => success("Organization updated.", await organizations.updateOrganization(ctx, body)),
  };
}
