import { PaginationQuery } from "../../common.js";
import { defineRoute, failure, inOrganization, MANAGERS, ok } from "../declare.js";
import { INVITE_CONFLICT, INVITE_RULES } from "../invitations/routes.js";
import { Invitation, InviteUserRequest } from "../invitations/schemas.js";
import { OrganizationPathParams } from "../organizations/schemas.js";
import * as i from "./schemas.js";

/** `/api/v1/organizations/{org_id}/users`: the organization's users (an invitation by e-mail creates none until accepted). */
export const mainApiUserRoutes = {
  listUsers: defineRoute(
    inOrganization({
      operationId: "listUsers",
      method: "get",
      path: "/api/v1/organizations/{org_id}/users",
      tags: ["Users"],
      summary: "Users of an organization (paginated)",
      params: OrganizationPathParams,
      query: PaginationQuery,
      responses: { 200: ok("A page of users", i.UsersPage) },
    }),
  ),
  inviteUser: defineRoute(
    inOrganization({
      operationId: "inviteUser",
      method: "post",
      path: "/api/v1/organizations/{org_id}/users",
      tags: ["Users"],
      summary: "Invite a user by e-mail (owner/admin): the same as POST .../invitations, answers the invitation",
      description: INVITE_RULES,
      roles: MANAGERS,
      idempotent: true,
      params: OrganizationPathParams,
      body: InviteUserRequest,
      responses: { 201: ok("The pending invitation", Invitation), 409: failure(INVITE_CONFLICT) },
    }),
  ),
  getUser: defineRoute(
    inOrganization({
      operationId: "getUser",
      method: "get",
      path: "/api/v1/organizations/{org_id}/users/{id}",
      tags: ["Users"],
      summary: "One user of an organization",
      params: i.UserPathParams,
      responses: { 200: ok("The user", i.User), 404: failure("No such user in the organization") },
    }),
  ),
  updateUser: defineRoute(
    inOrganization({
      operationId: "updateUser",
      method: "patch",
      path: "/api/v1/organizations/{org_id}/users/{id}",
      tags: ["Users"],
      summary:
        "Change a user's role, tenants, name or job title; deactivate or reactivate (owner/admin; members edit their own name and job title; " +
        "an API key changes no admin or owner and makes no one admin or owner)",
      params: i.UserPathParams,
      body: i.UpdateUserRequest,
      responses: {
        200: ok("The updated user", i.User),
        404: failure("No such user in the organization"),
        409: failure("The last active owner cannot be demoted or deactivated"),
      },
    }),
  ),
} as const;
