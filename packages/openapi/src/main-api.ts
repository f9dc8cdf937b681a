import { z } from "zod";
import * as c from "@cloudcost/contracts";
import { mainApiRoutes } from "@cloudcost/contracts";
import { createDocument, type ZodOpenApiPathsObject } from "zod-openapi";
import { operation, type OpenApiDocument, type OperationSpec } from "./operation";
import { tagsOf } from "./pricing-api";
import { routePaths } from "./route-operations";

const envelopeError = (description: string) => ({ description, schema: c.ErrorEnvelope });
const ok = (description: string, data: z.ZodType) => ({ description, schema: c.SuccessEnvelope(data) });
const OrgPath = c.OrganizationPathParams;
const manage = (summary: string) => `${summary} (owner/admin)`;
const INVITE_RULES =
  "Creates a pending invitation the invitee lists (GET /api/v1/invitations) and accepts or declines; nothing is linked before. " +
  "Only owners invite owners; an API key cannot invite admins or owners (403).";

type Spec = Omit<OperationSpec, "tags" | "security">;
const tooLarge = (spec: Spec): OperationSpec["responses"] =>
  spec.body ? { 413: envelopeError("The body is larger than 1 MiB (code `payload_too_large`)") } : {};
const authed = (tags: string[], spec: Spec) =>
  operation({
    ...spec,
    tags,
    security: ["bearer"],
    responses: {
      // Every operation: a body that is not JSON is a 400 even where nothing else is parsed.
      400: envelopeError("Invalid request: malformed JSON body or path (codes `malformed_json`, `malformed_path`)"),
      ...spec.responses,
      401: envelopeError("Missing, malformed, expired or unknown credentials, or an API key whose creator is deactivated (code `unauthenticated`)"),
      403: envelopeError("Authenticated but not allowed (code `forbidden`)"),
      429: envelopeError("Too many requests; see Retry-After (code `rate_limited`)"),
      500: envelopeError("Unexpected server error (code `internal_error`)"),
      503: envelopeError("Temporarily unavailable, retry after Retry-After (code `service_unavailable`)"),
      ...tooLarge(spec),
    },
  });
/**
 * Hand-written entries of the identity operations (sign-up, organizations, users, API keys, me),
 * until they move into the route table (packages/contracts/src/api/main-routes.ts); the compute and
 * health operations are generated from the table.
 */
const identityPaths: ZodOpenApiPathsObject = {
  "/api/v1/signup/complete": {
    post: authed(["Sign-up"], {
      operationId: "completeSignup",
      idempotent: true,
      summary: "Create an organization, its default tenant and its owner for a verified identity",
      body: c.SignupCompleteRequest,
      responses: {
        201: ok("Created", c.SignupCompleteResponse),
        400: envelopeError("Invalid body"),
        409: envelopeError("The identity already belongs to an organization, or the slug is taken"),
      },
    }),
  },
  "/api/v1/organizations/{org_id}/users/{id}": {
    get: authed(["Users"], {
      operationId: "getUser",
      summary: "One user of an organization",
      path: c.UserPathParams,
      responses: { 200: ok("The user", c.User), 400: envelopeError("Malformed id"), 404: envelopeError("No such user in the organization") },
    }),
    patch: authed(["Users"], {
      operationId: "updateUser",
      summary: "Change a user's role, tenants, name or job title; deactivate or reactivate (owner/admin; an API key changes no admin or owner and makes no one admin or owner)",
      path: c.UserPathParams,
      body: c.UpdateUserRequest,
      responses: {
        200: ok("The updated user", c.User),
        400: envelopeError("Invalid request"),
        404: envelopeError("No such user in the organization"),
        409: envelopeError("The last active owner cannot be demoted or deactivated"),
      },
    }),
  },
  "/api/v1/organizations/{org_id}/users": {
    get: authed(["Users"], {
      operationId: "listUsers",
      summary: "Users of an organization (paginated)",
      path: OrgPath,
      query: c.PaginationQuery,
      responses: { 200: ok("A page of users", c.UsersPage), 400: envelopeError("Invalid query") },
    }),
    post: authed(["Users"], {
      operationId: "inviteUser",
      idempotent: true,
      summary: "Invite a user by e-mail (owner/admin): the same as POST .../invitations, answers the invitation",
      description: INVITE_RULES,
      path: OrgPath,
      body: c.InviteUserRequest,
      responses: {
        201: ok("The pending invitation", c.Invitation),
        400: envelopeError("Invalid request"),
        409: envelopeError("The e-mail is already an active member, or already has a pending invitation"),
      },
    }),
  },
  "/api/v1/organizations/{org_id}/invitations": {
    get: authed(["Invitations"], {
      operationId: "listInvitations",
      summary: manage("Invitations of the organization, any status (paginated)"),
      path: OrgPath,
      query: c.PaginationQuery,
      responses: { 200: ok("A page of invitations", c.InvitationsPage), 400: envelopeError("Invalid query") },
    }),
    post: authed(["Invitations"], {
      operationId: "createInvitation",
      idempotent: true,
      summary: manage("Invite an e-mail address with a role and tenants; the invitation expires after 7 days"),
      description: INVITE_RULES,
      path: OrgPath,
      body: c.InviteUserRequest,
      responses: {
        201: ok("The pending invitation", c.Invitation),
        400: envelopeError("Invalid request"),
        409: envelopeError("The e-mail is already an active member, or already has a pending invitation"),
      },
    }),
  },
  "/api/v1/organizations/{org_id}/invitations/{id}": {
    delete: authed(["Invitations"], {
      operationId: "revokeInvitation",
      summary: manage("Revoke an invitation"),
      path: c.InvitationPathParams,
      responses: {
        204: { description: "Revoked" },
        400: envelopeError("Malformed id"),
        404: envelopeError("No such invitation in the organization"),
        409: envelopeError("The invitation was already accepted, declined or revoked"),
      },
    }),
  },
  "/api/v1/invitations": {
    get: authed(["Invitations"], {
      operationId: "listReceivedInvitations",
      summary: "Pending invitations for the caller's verified e-mail address (identity-provider tokens, also without an organization)",
      query: c.PaginationQuery,
      responses: { 200: ok("A page of pending invitations", c.ReceivedInvitationsPage), 400: envelopeError("Invalid query") },
    }),
  },
  "/api/v1/invitations/{id}/accept": {
    post: authed(["Invitations"], {
      operationId: "acceptInvitation",
      idempotent: true,
      summary: "Accept an invitation: creates (or reactivates) the caller's user in the organization and links the identity",
      description: "403 for an API key or an unverified e-mail address; 409 while the identity is an active user of an organization (leave it first).",
      path: c.ReceivedInvitationPathParams,
      responses: {
        200: ok("The caller's user in the organization", c.User),
        400: envelopeError("Malformed id"),
        404: envelopeError("No pending invitation with this id for the caller's e-mail (expired, revoked, answered or someone else's)"),
        409: envelopeError("The identity already belongs to an organization"),
      },
    }),
  },
  "/api/v1/invitations/{id}/decline": {
    post: authed(["Invitations"], {
      operationId: "declineInvitation",
      idempotent: true,
      summary: "Decline an invitation",
      path: c.ReceivedInvitationPathParams,
      responses: {
        204: { description: "Declined" },
        400: envelopeError("Malformed id"),
        404: envelopeError("No pending invitation with this id for the caller's e-mail"),
      },
    }),
  },
  "/api/v1/me/leave": {
    post: authed(["Organizations"], {
      operationId: "leaveOrganization",
      summary: "Leave the caller's organization: deactivates its user and unlinks the identity (identity-provider tokens only)",
      responses: {
        200: ok("The organization left", c.LeaveResponse),
        409: envelopeError("The caller is the organization's last active owner"),
      },
    }),
  },
  "/api/v1/me": {
    get: authed(["Organizations"], {
      operationId: "getMe",
      summary: "The caller: organization, user (null for an API key), role and tenants",
      responses: { 200: ok("The caller", c.Me) },
    }),
  },
  "/api/v1/organizations/{org_id}": {
    get: authed(["Organizations"], {
      operationId: "getOrganization",
      summary: "The organization",
      path: OrgPath,
      responses: { 200: ok("The organization", c.Organization), 400: envelopeError("Malformed id") },
    }),
    patch: authed(["Organizations"], {
      operationId: "updateOrganization",
      summary: manage("Rename the organization or change its slug"),
      path: OrgPath,
      body: c.UpdateOrganizationRequest,
      responses: { 200: ok("The organization", c.Organization), 400: envelopeError("Invalid request"), 409: envelopeError("Slug taken") },
    }),
  },
  "/api/v1/organizations/{org_id}/settings": {
    get: authed(["Organizations"], {
      operationId: "getSettings",
      summary: "Organization settings: currency, right-sizing preferences, active window",
      path: OrgPath,
      responses: { 200: ok("The settings", c.OrganizationSettings), 400: envelopeError("Malformed id") },
    }),
    patch: authed(["Organizations"], {
      operationId: "updateSettings",
      summary: manage("Change organization settings"),
      path: OrgPath,
      body: c.UpdateSettingsRequest,
      responses: { 200: ok("The settings", c.OrganizationSettings), 400: envelopeError("Invalid request") },
    }),
  },
  "/api/v1/organizations/{org_id}/tenants": {
    get: authed(["Tenants"], {
      operationId: "listTenants",
      summary: "Tenants of the organization the caller reaches (paginated)",
      path: OrgPath,
      query: c.ListTenantsQuery,
      responses: { 200: ok("A page of tenants", c.TenantsPage), 400: envelopeError("Invalid query") },
    }),
    post: authed(["Tenants"], {
      operationId: "createTenant",
      idempotent: true,
      summary: manage("Create a tenant"),
      path: OrgPath,
      body: c.CreateTenantRequest,
      responses: { 201: ok("The tenant", c.Tenant), 400: envelopeError("Invalid request") },
    }),
  },
  "/api/v1/organizations/{org_id}/tenants/{tenant_id}": {
    get: authed(["Tenants"], {
      operationId: "getTenant",
      summary: "One tenant",
      path: c.TenantPathParams,
      responses: { 200: ok("The tenant", c.Tenant), 400: envelopeError("Malformed id"), 404: envelopeError("No such tenant") },
    }),
    patch: authed(["Tenants"], {
      operationId: "updateTenant",
      summary: manage("Rename or archive a tenant"),
      path: c.TenantPathParams,
      body: c.UpdateTenantRequest,
      responses: { 200: ok("The tenant", c.Tenant), 400: envelopeError("Invalid request"), 404: envelopeError("No such tenant") },
    }),
  },
  "/api/v1/settings/api-keys": {
    get: authed(["API keys"], {
      operationId: "listApiKeys",
      summary: manage("API keys of the caller's organization (paginated)"),
      query: c.PaginationQuery,
      responses: { 200: ok("A page of keys", c.ApiKeysPage), 400: envelopeError("Invalid query") },
    }),
    post: authed(["API keys"], {
      operationId: "createApiKey",
      idempotent: true,
      summary: manage("Create an API key acting with a role; the key is shown once and also works on the pricing API"),
      body: c.CreateApiKeyRequest,
      responses: {
        201: ok("The key, with its secret", c.CreateApiKeyResponse),
        400: envelopeError("Invalid request"),
        409: envelopeError("A repeat with the same Idempotency-Key: the key was created and is shown only once, never replayed (code `idempotency_secret_not_replayed`)"),
      },
    }),
  },
  "/api/v1/settings/api-keys/{id}": {
    delete: authed(["API keys"], {
      operationId: "revokeApiKey",
      summary: manage("Revoke an API key of the organization, whoever created it (here and on the pricing API)"),
      path: c.ApiKeyPathParams,
      responses: { 200: ok("The revoked key", c.ApiKey), 400: envelopeError("Malformed id"), 404: envelopeError("No such key") },
    }),
  },
};

export const mainApiPaths: ZodOpenApiPathsObject = { ...identityPaths, ...routePaths(mainApiRoutes) };

export function mainApiDocument(extraPaths: ZodOpenApiPathsObject = {}): OpenApiDocument {
  const document = createDocument({
    openapi: "3.1.0",
    info: {
      title: "Cloud cost main API",
      version: "1.0.0",
      description:
        "Organizations, tenants, users, settings, API keys, compute inventory and right-sizing recommendations. " +
        "Every response is an envelope `{message, status, data?}`; every error carries its stable code in the `X-Error-Code` header.",
      license: { name: "MIT", identifier: "MIT" },
    },
    servers: [{ url: "http://127.0.0.1:3000", description: "Local development (MAIN_API_PORT)" }],
    components: {
      securitySchemes: {
        bearer: { type: "http", scheme: "bearer", description: "An identity-provider JWT, or a `bl_…` API key" },
      },
    },
    tags: tagsOf(mainApiPaths),
    paths: { ...mainApiPaths, ...extraPaths },
  });
  return document as unknown as OpenApiDocument;
}
