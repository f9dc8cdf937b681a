import { defineRoute, failure, ofCaller, ok, peopleOnly } from "../declare.js";
import * as i from "./schemas.js";

/** `/api/v1/me`: the caller, and leaving its organization. */
export const mainApiMeRoutes = {
  getMe: defineRoute(
    ofCaller({
      operationId: "getMe",
      method: "get",
      path: "/api/v1/me",
      tags: ["Organizations"],
      summary: "The caller: organization, user (null for an API key), role and tenants",
      responses: { 200: ok("The caller", i.Me) },
    }),
  ),
  leaveOrganization: defineRoute(
    ofCaller({
      operationId: "leaveOrganization",
      ...peopleOnly("An API key cannot leave an organization: revoke it instead."),
      method: "post",
      path: "/api/v1/me/leave",
      tags: ["Organizations"],
      summary: "Leave the caller's organization: deactivates its user and unlinks the identity (identity-provider tokens only)",
      responses: {
        200: ok("The organization left", i.LeaveResponse),
        409: failure("The caller is the organization's last active owner"),
      },
    }),
  ),
} as const;
