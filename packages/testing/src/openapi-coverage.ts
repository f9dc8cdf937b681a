import type { Express } from "express";
import { listRoutes } from "@cloudcost/http";

// Served for operators and tooling, not part of the API a document describes; the development
// issuer's routes (its JWKS, the console's dev sign-in) exist only locally, documented in docs/api.md.
const UNDOCUMENTED = [/^\/docs/, /^\/openapi\.json$/, /^\/metrics$/, /^\/internal\//, /^\/\.well-known\//, /^\/api\/v1\/dev\//];

/** `METHOD /path` of every route the app registers that its OpenAPI document does not describe. */
export function undocumentedRoutes(app: Express, document: { paths?: Record<string, Record<string, unknown>> }): string[] {
  const documented = document.paths ?? {};
  return listRoutes(app)
    .filter((route) => !UNDOCUMENTED.some((pattern) => pattern.test(route.path)))
    .filter((route) => !documented[route.path]?.[route.method])
    .map((route) => `${route.method.toUpperCase()} ${route.path}`);
}
