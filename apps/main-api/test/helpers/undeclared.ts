/** Operations tooling served by shared routers (metrics, the API reference, the dev issuer's keys). */
export const TOOLING_ROUTES = ["GET /metrics", "GET /openapi.json", "GET /docs", "GET /docs/assets/docs-init.js", "GET /.well-known/jwks.json"];

/** The identity operations, still registered by their own routers until they move into the route table. */
export const IDENTITY_ROUTES = [
  "POST /api/v1/signup/complete",
  "GET /api/v1/organizations/{org_id}",
  "PATCH /api/v1/organizations/{org_id}",
  "GET /api/v1/organizations/{org_id}/settings",
  "PATCH /api/v1/organizations/{org_id}/settings",
  "GET /api/v1/organizations/{org_id}/tenants",
  "POST /api/v1/organizations/{org_id}/tenants",
  "GET /api/v1/organizations/{org_id}/tenants/{tenant_id}",
  "PATCH /api/v1/organizations/{org_id}/tenants/{tenant_id}",
  "GET /api/v1/organizations/{org_id}/users",
  "POST /api/v1/organizations/{org_id}/users",
  "GET /api/v1/organizations/{org_id}/users/{id}",
  "PATCH /api/v1/organizations/{org_id}/users/{id}",
  "GET /api/v1/organizations/{org_id}/invitations",
  "POST /api/v1/organizations/{org_id}/invitations",
  "DELETE /api/v1/organizations/{org_id}/invitations/{id}",
  "GET /api/v1/invitations",
  "POST /api/v1/invitations/{id}/accept",
  "POST /api/v1/invitations/{id}/decline",
  "GET /api/v1/me",
  "POST /api/v1/me/leave",
  "GET /api/v1/settings/api-keys",
  "POST /api/v1/settings/api-keys",
  "DELETE /api/v1/settings/api-keys/{id}",
];
