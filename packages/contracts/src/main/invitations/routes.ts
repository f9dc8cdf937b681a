import { PaginationQuery } from "../../common.js";
import { defineRoute, failure, inOrganization, MANAGERS, ofCaller, ok, peopleOnly } from "../declare.js";
import { OrganizationPathParams } from "../organizations/schemas.js";
import { User } from "../users/schemas.js";
import * as i from "./schemas.js";

const KEYS_CANNOT_ANSWER = peopleOnly("API keys cannot list or answer invitations: use the invitee's identity-provider token.");
/** What an invitation does, documented on both operations that create one. */
export const INVITE_RULES =
  "Creates a pending invitation the invitee lists (GET /api/v1/invitations) and accepts or declines; nothing is linked before. " +
  "Only owners invite owners; an API key cannot invite admins or owners (403).";
export const INVITE_CONFLICT = "The e-mail is already an active member, or already has a pending invitation";

/** Invitations: the organization's (`/api/v1/organizations/{org_id}/invitations`, owners and admins) and the caller's own (`/api/v1/invitations`, identity-provider tokens). */
export const mainApiInvitationRoutes = {
  listInvitations: defineRoute(
    inOrganization({
      operationId: "listInvitations",
      method: "get",
      path: "/api/v1/organizations/{org_id}/invitations",
      tags: ["Invitations"],
      summary: "Invitations of the organization, any status (paginated) (owner/admin)",
      roles: MANAGERS,
      params: OrganizationPathParams,
      query: PaginationQuery,
      responses: { 200: ok("A page of invitations", i.InvitationsPage) },
    }),
  ),
  createInvitation: defineRoute(
    inOrganization({
      operationId: "createInvitation",
      method: "post",
      path: "/api/v1/organizations/{org_id}/invitations",
      tags: ["Invitations"],
      summary: "Invite an e-mail address with a role and tenants; the invitation expires after 7 days (owner/admin)",
      description: INVITE_RULES,
      roles: MANAGERS,
      idempotent: true,
      params: OrganizationPathParams,
      body: i.InviteUserRequest,
      responses: { 201: ok("The pending invitation", i.Invitation), 409: failure(INVITE_CONFLICT) },
    }),
  ),
  revokeInvitation: defineRoute(
    inOrganization({
      operationId: "revokeInvitation",
      method: "delete",
      path: "/api/v1/organizations/{org_id}/invitations/{id}",
      tags: ["Invitations"],
      summary: "Revoke an invitation (owner/admin)",
      roles: MANAGERS,
      params: i.InvitationPathParams,
      responses: {
        204: { description: "Revoked", schema: null },
        404: failure("No such invitation in the organization"),
        409: failure("The invitation was already accepted, declined or revoked"),
      },
    }),
  ),
  listReceivedInvitations: defineRoute(
    ofCaller({
      operationId: "listReceivedInvitations",
      ...KEYS_CANNOT_ANSWER,
      method: "get",
      path: "/api/v1/invitations",
      tags: ["Invitations"],
      summary: "Pending invitations for the caller's verified e-mail address (identity-provider tokens, also without an organization)",
      auth: "identity",
      query: PaginationQuery,
      responses: { 200: ok("A page of pending invitations", i.ReceivedInvitationsPage) },
    }),
  ),
  acceptInvitation: defineRoute(
    ofCaller({
      operationId: "acceptInvitation",
      ...KEYS_CANNOT_ANSWER,
      method: "post",
      path: "/api/v1/invitations/{id}/accept",
      tags: ["Invitations"],
      summary: "Accept an invitation: creates (or reactivates) the caller's user in the organization and links the identity",
      description: "403 for an API key or an unverified e-mail address; 409 while the identity is an active user of an organization (leave it first).",
      auth: "identity",
      idempotent: true,
      params: i.ReceivedInvitationPathParams,
      responses: {
        200: ok("The caller's user in the organization", User),
        404: failure("No pending invitation with this id for the caller's e-mail (expired, revoked, answered or someone else's)"),
        409: failure("The identity already belongs to an organization"),
      },
    }),
  ),
  declineInvitation: defineRoute(
    ofCaller({
      operationId: "declineInvitation",
      ...KEYS_CANNOT_ANSWER,
      method: "post",
      path: "/api/v1/invitations/{id}/decline",
      tags: ["Invitations"],
      summary: "Decline an invitation",
      auth: "identity",
      idempotent: true,
      params: i.ReceivedInvitationPathParams,
      responses: {
        204: { description: "Declined", schema: null },
        404: failure("No pending invitation with this id for the caller's e-mail"),
      },
    }),
  ),
} as const;
