/** Operations tooling served by shared routers (metrics, the API reference, the dev issuer's keys): the only routes outside the route table. */
export const TOOLING_ROUTES = [
  "GET /metrics",
  "GET /openapi.json",
  "GET /docs",
  "GET /docs/assets/docs-init.js",
  "GET /.well-known/jwks.json",
  "POST /api/v1/dev/token",
];
