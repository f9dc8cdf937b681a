import { pricingApiRoutes } from "@cloudcost/contracts";
import { createDocument, type ZodOpenApiPathsObject } from "zod-openapi";
import type { OpenApiDocument } from "./operation";
import { routePaths } from "./route-operations";

export const pricingApiPaths: ZodOpenApiPathsObject = routePaths(pricingApiRoutes);

export function pricingApiDocument(): OpenApiDocument {
  const document = createDocument({
    openapi: "3.1.0",
    info: {
      title: "Cloud cost pricing API",
      version: "1.0.0",
      description:
        "Custom model and database prices, pins, reports, usage pricing and the compute price catalog. " +
        "Marketplace paths answer errors as `{error}`; `/v1` paths as RFC 9457 problem documents. " +
        "Every error carries its stable code in the `X-Error-Code` header (and in a problem document's `code`).",
      license: { name: "MIT", identifier: "MIT" },
    },
    servers: [{ url: "http://127.0.0.1:3001", description: "Local development (PRICING_API_PORT)" }],
    components: {
      securitySchemes: {
        apiKey: { type: "apiKey", in: "header", name: "X-API-Key", description: "`bl_…` key" },
        bearerKey: { type: "http", scheme: "bearer", description: "`Authorization: Bearer bl_…`" },
      },
    },
    tags: tagsOf(pricingApiPaths),
    paths: pricingApiPaths,
  });
  return document as unknown as OpenApiDocument;
}

const TAG_DESCRIPTIONS: Record<string, string> = {
  "Compute prices": "Hourly and monthly prices of instance types and vm shapes, from the in-process catalog.",
  Account: "The account and key a request authenticates as.",
  "Model prices": "Custom token prices per model, versioned.",
  "Database prices": "Custom managed-database rates.",
  Pins: "Which resources carry which pricing id.",
  Usage: "Usage lines priced without storing them.",
  Reports: "Stored, priced usage.",
  Operations: "Liveness and readiness.",
  "Sign-up": "Creating an organization for a verified identity.",
  Organizations: "The organization, its settings and the caller.",
  Users: "Users of an organization and their roles.",
  Invitations: "Invitations an organization sends, and those the caller received.",
  Tenants: "Tenants of an organization.",
  "API keys": "Keys acting with a role, here and on the pricing API.",
  Compute: "Compute inventory, utilization and right-sizing recommendations of one tenant.",
};

/** Every tag the operations use, declared once at the top (OpenAPI linters ask for it). */
export function tagsOf(paths: ZodOpenApiPathsObject): Array<{ name: string; description?: string }> {
  const names = new Set<string>();
  for (const item of Object.values(paths)) {
    for (const operation of Object.values(item ?? {})) {
      for (const tag of (operation as { tags?: string[] }).tags ?? []) names.add(tag);
    }
  }
  return [...names].map((name) => (TAG_DESCRIPTIONS[name] ? { name, description: TAG_DESCRIPTIONS[name] } : { name }));
}
