import { z } from "zod";
import * as c from "@cloudcost/contracts";
import { createDocument, type ZodOpenApiPathsObject } from "zod-openapi";
import { operation, type OpenApiDocument, type OperationSpec } from "./operation";

const envelopeError = (description: string) => ({ description, schema: c.ErrorEnvelope });
const ok = (description: string, data: z.ZodType) => ({ description, schema: c.SuccessEnvelope(data) });
const TenantHeader = z.object({
  "X-Service-Tenant-ID": z.string().meta({ description: "The tenant the request acts on" }),
});

const OrgPath = c.OrganizationPathParams;
const manage = (summary: string) => `${summary} (owner/admin)`;
const INVITE_RULES =
  "Creates a pending invitation the invitee lists (GET /api/v1/invitations) and accepts or declines; nothing is linked before. " +
  "Only owners invite owners; an API key cannot invite admins or owners (403).";

type Spec = Omit<OperationSpec, "tags" | "security">;
const authed = (tags: string[], spec: Spec) =>
  operation({
    ...spec,
    tags,
    security: ["bearer"],
    responses: {
      ...spec.responses,
      401: envelopeError("Missing, malformed, expired or unknown credentials, or an API key whose creator is deactivated"),
      403: envelopeError("Authenticated but not allowed"),
    },
  });
const tenantScoped = (spec: Spec) =>
  authed(["Compute"], {
    ...spec,
    headers: TenantHeader,
    responses: { ...spec.responses, 400: envelopeError("Invalid request or missing X-Service-Tenant-ID") },
  });

export const mainApiPaths: ZodOpenApiPathsObject = {
  "/api/v1/signup/complete": {
    post: authed(["Sign-up"], {
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
      summary: "One user of an organization",
      path: c.UserPathParams,
      responses: { 200: ok("The user", c.User), 400: envelopeError("Malformed id"), 404: envelopeError("No such user in the organization") },
    }),
    patch: authed(["Users"], {
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
      summary: "Users of an organization (paginated)",
      path: OrgPath,
      query: c.PaginationQuery,
      responses: { 200: ok("A page of users", c.UsersPage), 400: envelopeError("Invalid query") },
    }),
    post: authed(["Users"], {
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
      summary: manage("Invitations of the organization, any status (paginated)"),
      path: OrgPath,
      query: c.PaginationQuery,
      responses: { 200: ok("A page of invitations", c.InvitationsPage), 400: envelopeError("Invalid query") },
    }),
    post: authed(["Invitations"], {
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
      summary: "Pending invitations for the caller's verified e-mail address (identity-provider tokens, also without an organization)",
      query: c.PaginationQuery,
      responses: { 200: ok("A page of pending invitations", c.ReceivedInvitationsPage), 400: envelopeError("Invalid query") },
    }),
  },
  "/api/v1/invitations/{id}/accept": {
    post: authed(["Invitations"], {
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
      summary: "Leave the caller's organization: deactivates its user and unlinks the identity (identity-provider tokens only)",
      responses: {
        200: ok("The organization left", c.LeaveResponse),
        409: envelopeError("The caller is the organization's last active owner"),
      },
    }),
  },
  "/api/v1/me": {
    get: authed(["Organizations"], {
      summary: "The caller: organization, user (null for an API key), role and tenants",
      responses: { 200: ok("The caller", c.Me) },
    }),
  },
  "/api/v1/organizations/{org_id}": {
    get: authed(["Organizations"], {
      summary: "The organization",
      path: OrgPath,
      responses: { 200: ok("The organization", c.Organization), 400: envelopeError("Malformed id") },
    }),
    patch: authed(["Organizations"], {
      summary: manage("Rename the organization or change its slug"),
      path: OrgPath,
      body: c.UpdateOrganizationRequest,
      responses: { 200: ok("The organization", c.Organization), 400: envelopeError("Invalid request"), 409: envelopeError("Slug taken") },
    }),
  },
  "/api/v1/organizations/{org_id}/settings": {
    get: authed(["Organizations"], {
      summary: "Organization settings: currency, right-sizing preferences, active window",
      path: OrgPath,
      responses: { 200: ok("The settings", c.OrganizationSettings), 400: envelopeError("Malformed id") },
    }),
    patch: authed(["Organizations"], {
      summary: manage("Change organization settings"),
      path: OrgPath,
      body: c.UpdateSettingsRequest,
      responses: { 200: ok("The settings", c.OrganizationSettings), 400: envelopeError("Invalid request") },
    }),
  },
  "/api/v1/organizations/{org_id}/tenants": {
    get: authed(["Tenants"], {
      summary: "Tenants of the organization the caller reaches (paginated)",
      path: OrgPath,
      query: c.ListTenantsQuery,
      responses: { 200: ok("A page of tenants", c.TenantsPage), 400: envelopeError("Invalid query") },
    }),
    post: authed(["Tenants"], {
      idempotent: true,
      summary: manage("Create a tenant"),
      path: OrgPath,
      body: c.CreateTenantRequest,
      responses: { 201: ok("The tenant", c.Tenant), 400: envelopeError("Invalid request") },
    }),
  },
  "/api/v1/organizations/{org_id}/tenants/{tenant_id}": {
    get: authed(["Tenants"], {
      summary: "One tenant",
      path: c.TenantPathParams,
      responses: { 200: ok("The tenant", c.Tenant), 400: envelopeError("Malformed id"), 404: envelopeError("No such tenant") },
    }),
    patch: authed(["Tenants"], {
      summary: manage("Rename or archive a tenant"),
      path: c.TenantPathParams,
      body: c.UpdateTenantRequest,
      responses: { 200: ok("The tenant", c.Tenant), 400: envelopeError("Invalid request"), 404: envelopeError("No such tenant") },
    }),
  },
  "/api/v1/settings/api-keys": {
    get: authed(["API keys"], {
      summary: manage("API keys of the caller's organization (paginated)"),
      query: c.PaginationQuery,
      responses: { 200: ok("A page of keys", c.ApiKeysPage), 400: envelopeError("Invalid query") },
    }),
    post: authed(["API keys"], {
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
      summary: manage("Revoke an API key of the organization, whoever created it (here and on the pricing API)"),
      path: c.ApiKeyPathParams,
      responses: { 200: ok("The revoked key", c.ApiKey), 400: envelopeError("Malformed id"), 404: envelopeError("No such key") },
    }),
  },
  "/api/v1/tenant/compute/recommendations/summary": {
    get: tenantScoped({
      summary: "Compute right-sizing summary of one tenant",
      query: c.SummaryQuery,
      responses: { 200: ok("The summary", c.RecommendationSummary) },
    }),
  },
  "/api/v1/tenant/compute/recommendations": {
    get: tenantScoped({
      summary: "Per-resource recommendations (paginated)",
      query: c.RecommendationsQuery,
      responses: { 200: ok("A page of recommendations", c.RecommendationsPage) },
    }),
  },
  "/api/v1/tenant/compute/recommendations/analyze": {
    post: tenantScoped({
      idempotent: true,
      summary: "Run an analysis cycle for the tenant now (owner/admin)",
      responses: { 200: ok("Cycle finished", c.AnalyzeResponse) },
    }),
  },
  "/api/v1/tenant/compute/resources": {
    put: tenantScoped({
      summary: "Upsert compute resources (at most 1000)",
      body: c.UpsertResourcesRequest,
      responses: { 200: ok("Upserted", c.UpsertResourcesResponse) },
    }),
  },
  "/api/v1/tenant/compute/metrics": {
    post: tenantScoped({
      idempotent: true,
      summary: "Send utilization samples (at most 10000); each also counts as a heartbeat",
      body: c.IngestMetricsRequest,
      responses: { 200: ok("Accepted", c.IngestMetricsResponse) },
    }),
  },
  "/api/v1/tenant/compute/heartbeats": {
    post: tenantScoped({
      idempotent: true,
      summary: "Record heartbeats",
      body: c.HeartbeatsRequest,
      responses: { 200: ok("Recorded", c.HeartbeatsResponse) },
    }),
  },
  "/healthz": { get: operation({ summary: "Process up", tags: ["Operations"], security: [], responses: { 200: { description: "Up" } } }) },
  "/readyz": {
    get: operation({
      summary: "Database reachable and migrations applied",
      tags: ["Operations"],
      security: [],
      responses: { 200: { description: "Ready" }, 503: { description: "Not ready" } },
    }),
  },
};

export function mainApiDocument(extraPaths: ZodOpenApiPathsObject = {}): OpenApiDocument {
  const document = createDocument({
    openapi: "3.1.0",
    info: {
      title: "Cloud cost main API",
      version: "1.0.0",
      description:
        "Organizations, tenants, users, settings, API keys, compute inventory and right-sizing recommendations. " +
        "Every response is an envelope `{message, status, data?}`.",
    },
    components: {
      securitySchemes: {
        bearer: { type: "http", scheme: "bearer", description: "An identity-provider JWT, or a `bl_…` API key" },
      },
    },
    paths: { ...mainApiPaths, ...extraPaths },
  });
  return document as unknown as OpenApiDocument;
}
