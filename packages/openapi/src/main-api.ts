import { mainApiRoutes } from "@cloudcost/contracts";
import { createDocument, type ZodOpenApiPathsObject } from "zod-openapi";
import type { OpenApiDocument } from "./operation";
import { tagsOf } from "./pricing-api";
import { routePaths } from "./route-operations";

/** Every operation of the main API, generated from its route table (packages/contracts/src/main/routes.ts). */
export const mainApiPaths: ZodOpenApiPathsObject = routePaths(mainApiRoutes);

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
