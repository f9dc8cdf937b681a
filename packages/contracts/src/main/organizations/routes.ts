import { defineRoute, failure, inOrganization, MANAGERS, ok } from "../declare.js";
import * as i from "./schemas.js";

/** `/api/v1/organizations/{org_id}`: the organization itself. */
export const mainApiOrganizationRoutes = {
  getOrganization: defineRoute(
    inOrganization({
      operationId: "getOrganization",
      method: "get",
      path: "/api/v1/organizations/{org_id}",
      tags: ["Organizations"],
      summary: "The organization",
      params: i.OrganizationPathParams,
      responses: { 200: ok("The organization", i.Organization) },
    }),
  ),
  updateOrganization: defineRoute(
    inOrganization({
      operationId: "updateOrganization",
      method: "patch",
      path: "/api/v1/organizations/{org_id}",
      tags: ["Organizations"],
      summary: "Rename the organization or change its slug (owner/admin)",
      roles: MANAGERS,
      params: i.OrganizationPathParams,
      body: i.UpdateOrganizationRequest,
      responses: { 200: ok("The organization", i.Organization), 409: failure("Slug taken") },
    }),
  ),
} as const;
