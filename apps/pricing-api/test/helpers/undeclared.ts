/** Routes outside the route table: operations tooling (served by shared routers) and the service-token endpoints. */
export const UNDECLARED_ROUTES = [
  "GET /metrics",
  "GET /openapi.json",
  "GET /docs",
  "GET /docs/assets/docs-init.js",
  "POST /internal/accounts/{accountId}/api-keys",
  "PUT /internal/api-keys/{keyHash}",
  "DELETE /internal/api-keys/{keyHash}",
];
