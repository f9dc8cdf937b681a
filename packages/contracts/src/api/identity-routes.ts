import type { z } from "zod";
import { PaginationQuery } from "../common.js";
import { ErrorEnvelope, SuccessEnvelope } from "../main/envelope.js";
import * as i from "../main/identity.js";
import { defineRoute, type RouteDefinition } from "./route.js";

type Base<C> = { errors: "envelope"; auth: "bearer"; scope: C };
type Spec = Omit<RouteDefinition, "errors" | "auth" | "scope"> & Partial<Pick<RouteDefinition, "auth" | "scope">>;
type Declared<C, S> = Omit<Base<C>, keyof S> & S;

const bearer = <const C extends "organization" | "caller", const S extends Spec>(scope: C, spec: S): Declared<C, S> =>
  ({ errors: "envelope", auth: "bearer", scope, ...spec }) as Declared<C, S>;
/** Acts within the organization named by `{org_id}`: authorize answers 403 to a caller of any other (or none). */
const inOrganization = <const S extends Spec>(spec: S) => bearer("organization", spec);
/** Acts on the caller itself (its identity, its own organization): no organization in the path. */
const ofCaller = <const S extends Spec>(spec: S) => bearer("caller", spec);

const ok = <T extends z.ZodType>(description: string, data: T) => ({ description, schema: SuccessEnvelope(data) });
const failure = (description: string) => ({ description, schema: ErrorEnvelope });
const MANAGERS = ["owner", "admin"] as const;
/** People only: an API key gets a 403 saying so. */
const peopleOnly = <const W extends string>(keysRefused: W) => ({ keys: false, keysRefused }) as const;
const KEYS_CANNOT_MANAGE_KEYS = peopleOnly("API keys cannot manage API keys: sign in as an owner or admin.");
const KEYS_CANNOT_ANSWER = peopleOnly("API keys cannot list or answer invitations: use the invitee's identity-provider token.");
const INVITE_RULES =
  "Creates a pending invitation the invitee lists (GET /api/v1/invitations) and accepts or declines; nothing is linked before. " +
  "Only owners invite owners; an API key cannot invite admins or owners (403).";
const INVITE_CONFLICT = "The e-mail is already an active member, or already has a pending invitation";

/** Sign-up, the caller, its organization, tenants, users, invitations and API keys. */
export const mainApiIdentityRoutes = {
  completeSignup: defineRoute(
    ofCaller({
      operationId: "completeSignup",
      method: "post",
      path: "/api/v1/signup/complete",
      tags: ["Sign-up"],
      summary: "Create an organization, its default tenant and its owner for a verified identity",
      description: "Needs an identity-provider token (an API key is a 401); the identity need not belong to an organization.",
      auth: "identity",
      idempotent: true,
      body: i.SignupCompleteRequest,
      responses: {
        201: ok("Created", i.SignupCompleteResponse),
        409: failure("The identity already belongs to an organization, or the slug is taken"),
      },
    }),
  ),
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
  getSettings: defineRoute(
    inOrganization({
      operationId: "getSettings",
      method: "get",
      path: "/api/v1/organizations/{org_id}/settings",
      tags: ["Organizations"],
      summary: "Organization settings: currency, right-sizing preferences, active window",
      params: i.OrganizationPathParams,
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
      params: i.OrganizationPathParams,
      body: i.UpdateSettingsRequest,
      responses: { 200: ok("The settings", i.OrganizationSettings) },
    }),
  ),
  listTenants: defineRoute(
    inOrganization({
      operationId: "listTenants",
      method: "get",
      path: "/api/v1/organizations/{org_id}/tenants",
      tags: ["Tenants"],
      summary: "Tenants of the organization the caller reaches (paginated)",
      params: i.OrganizationPathParams,
      query: i.ListTenantsQuery,
      responses: { 200: ok("A page of tenants", i.TenantsPage) },
    }),
  ),
  createTenant: defineRoute(
    inOrganization({
      operationId: "createTenant",
      method: "post",
      path: "/api/v1/organizations/{org_id}/tenants",
      tags: ["Tenants"],
      summary: "Create a tenant (owner/admin)",
      roles: MANAGERS,
      idempotent: true,
      params: i.OrganizationPathParams,
      body: i.CreateTenantRequest,
      responses: { 201: ok("The tenant", i.Tenant) },
    }),
  ),
  getTenant: defineRoute(
    inOrganization({
      operationId: "getTenant",
      method: "get",
      path: "/api/v1/organizations/{org_id}/tenants/{tenant_id}",
      tags: ["Tenants"],
      summary: "One tenant (a tenant the caller does not reach, or none, is a 403)",
      params: i.TenantPathParams,
      responses: { 200: ok("The tenant", i.Tenant) },
    }),
  ),
  updateTenant: defineRoute(
    inOrganization({
      operationId: "updateTenant",
      method: "patch",
      path: "/api/v1/organizations/{org_id}/tenants/{tenant_id}",
      tags: ["Tenants"],
      summary: "Rename or archive a tenant (owner/admin)",
      roles: MANAGERS,
      params: i.TenantPathParams,
      body: i.UpdateTenantRequest,
      responses: { 200: ok("The tenant", i.Tenant) },
    }),
  ),
  listUsers: defineRoute(
    inOrganization({
      operationId: "listUsers",
      method: "get",
      path: "/api/v1/organizations/{org_id}/users",
      tags: ["Users"],
      summary: "Users of an organization (paginated)",
      params: i.OrganizationPathParams,
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
      params: i.OrganizationPathParams,
      body: i.InviteUserRequest,
      responses: { 201: ok("The pending invitation", i.Invitation), 409: failure(INVITE_CONFLICT) },
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
  listInvitations: defineRoute(
    inOrganization({
      operationId: "listInvitations",
      method: "get",
      path: "/api/v1/organizations/{org_id}/invitations",
      tags: ["Invitations"],
      summary: "Invitations of the organization, any status (paginated) (owner/admin)",
      roles: MANAGERS,
      params: i.OrganizationPathParams,
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
      params: i.OrganizationPathParams,
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
        200: ok("The caller's user in the organization", i.User),
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
  listApiKeys: defineRoute(
    ofCaller({
      operationId: "listApiKeys",
      ...KEYS_CANNOT_MANAGE_KEYS,
      method: "get",
      path: "/api/v1/settings/api-keys",
      tags: ["API keys"],
      summary: "API keys of the caller's organization (paginated) (owner/admin signed in as a user)",
      roles: MANAGERS,
      query: PaginationQuery,
      responses: { 200: ok("A page of keys", i.ApiKeysPage) },
    }),
  ),
  createApiKey: defineRoute(
    ofCaller({
      operationId: "createApiKey",
      ...KEYS_CANNOT_MANAGE_KEYS,
      method: "post",
      path: "/api/v1/settings/api-keys",
      tags: ["API keys"],
      summary: "Create an API key acting with a role; the key is shown once and also works on the pricing API (owner/admin signed in as a user)",
      roles: MANAGERS,
      idempotent: "secret",
      body: i.CreateApiKeyRequest,
      responses: {
        201: ok("The key, with its secret", i.CreateApiKeyResponse),
        409: failure(
          "A repeat with the same Idempotency-Key: the key was created and is shown only once, never replayed (code `idempotency_secret_not_replayed`)",
        ),
      },
    }),
  ),
  revokeApiKey: defineRoute(
    ofCaller({
      operationId: "revokeApiKey",
      ...KEYS_CANNOT_MANAGE_KEYS,
      method: "delete",
      path: "/api/v1/settings/api-keys/{id}",
      tags: ["API keys"],
      summary: "Revoke an API key of the organization, whoever created it (here and on the pricing API) (owner/admin signed in as a user)",
      roles: MANAGERS,
      params: i.ApiKeyPathParams,
      responses: { 200: ok("The revoked key", i.ApiKey), 404: failure("No such key") },
    }),
  ),
} as const;
