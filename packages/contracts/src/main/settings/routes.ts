import { defineRoute, inOrganization, MANAGERS, ok } from "../declare.js";
import { OrganizationPathParams } from "../organizations/schemas.js";
import * as i from "./schemas.js";

/** `/api/v1/organizations/{org_id}/settings`: currency, right-sizing preferences, active window, anomaly thresholds. */
export const mainApiSettingsRoutes = {
  getSettings: defineRoute(
    inOrganization({
      operationId: "getSettings",
      method: "get",
      path: "/api/v1/organizations/{org_id}/settings",
      tags: ["Organizations"],
      summary: "Organization settings: currency, right-sizing preferences, active window",
      params: OrganizationPathParams,
      responses: { 200: ok("The settings", i.OrganizationSettings) },
    }),
  ),
  updateSettings: defineRoute(
    inOrganization({
      operationId: "updateSettings",
      method: "patch",
      path: "/api/v1/organizations/{org_id}/settings",
      tags: ["Organizations"],
      summary: "Change organization settings (owner/admin)",
      roles: MANAGERS,
      params: OrganizationPathParams,
      body: i.UpdateSettingsRequest,
      responses: { 200: ok("The settings", i.OrganizationSettings) },
    }),
  ),
} as const;
