import { z } from "zod";
import * as c from "@cloudcost/contracts";
import { createDocument, type ZodOpenApiPathsObject } from "zod-openapi";
import { operation, type OpenApiDocument } from "./operation";

const security = ["apiKey", "bearerKey"];
const error = (description: string) => ({ description, schema: c.MarketplaceError });
const problem = (description: string) => ({ description, schema: c.ProblemDocument, contentType: "application/problem+json" });
const market = (tags: string[], spec: Omit<Parameters<typeof operation>[0], "tags" | "security">) =>
  operation({ ...spec, tags, security, responses: { ...spec.responses, 401: error("Missing, malformed, unknown, revoked or suspended API key") } });
const v1 = (tags: string[], spec: Omit<Parameters<typeof operation>[0], "tags" | "security">) =>
  operation({
    ...spec,
    tags,
    security,
    responses: { ...spec.responses, 401: problem("Missing, malformed, unknown, revoked or suspended API key (code `unauthenticated`)") },
  });

const IdQuery = z.object({ id: c.ServiceId });
// Keys carry a role (viewer: read and price; member: also register and pin; admin: also delete).
const marketNeeds = (role: "member" | "admin") => error(`The key's role is below ${role}`);
const v1Needs = (role: "member" | "admin") => problem(`The key's role is below ${role} (code \`forbidden\`)`);

export const pricingApiPaths: ZodOpenApiPathsObject = {
  "/marketplace/providers/models": {
    post: market(["Model prices"], {
      idempotent: true,
      summary: "Register custom model token prices (versioned rows; member key or higher)",
      body: c.RegisterModelsRequest,
      responses: { 201: { description: "Stored entries", schema: c.RegisterModelsResponse }, 400: error("Invalid body"), 403: marketNeeds("member"), 500: error("Server error") },
    }),
    get: market(["Model prices"], {
      summary: "List model prices (open rows; include_closed=true for history)",
      query: c.ModelListQuery,
      responses: { 200: { description: "Entries, newest first", schema: c.ListModelsResponse }, 400: error("Invalid query") },
    }),
    delete: market(["Model prices"], {
      summary: "Close a model price row (admin key)",
      query: IdQuery,
      responses: {
        200: { description: "The closed row", schema: c.DeleteModelsResponse },
        400: error("Missing or malformed id"),
        403: marketNeeds("admin"),
        404: error("Unknown id, another account's id, or already closed"),
      },
    }),
  },
  "/marketplace/providers/databases": {
    post: market(["Database prices"], {
      idempotent: true,
      summary: "Register custom managed-database rates (upsert on the natural key; member key or higher)",
      body: c.RegisterDatabasesRequest,
      responses: { 201: { description: "Stored entries", schema: c.RegisterDatabasesResponse }, 400: error("Invalid body"), 403: marketNeeds("member"), 500: error("Server error") },
    }),
    get: market(["Database prices"], {
      summary: "List database prices",
      query: c.DatabaseListQuery,
      responses: { 200: { description: "Entries", schema: c.ListDatabasesResponse }, 400: error("Invalid query") },
    }),
    delete: market(["Database prices"], {
      summary: "Remove a database price (admin key)",
      query: IdQuery,
      responses: {
        200: { description: "The removed row", schema: c.DeleteDatabasesResponse },
        400: error("Missing or malformed id"),
        403: marketNeeds("admin"),
        404: error("Unknown or another account's id"),
        409: error("A pin or a report still references the entry"),
      },
    }),
  },
  "/v1/pricing/pins/{kind}/{resource_id}": {
    put: v1(["Pins"], {
      summary: "Pin a resource to a pricing entry (member key or higher)",
      path: c.PinPathParams,
      body: c.PinRequest,
      responses: { 200: { description: "The pin", schema: c.Pin }, 400: problem("Invalid request"), 403: v1Needs("member"), 404: problem("Unknown, closed or another account's pricing id") },
    }),
    delete: v1(["Pins"], {
      summary: "Unpin a resource (member key or higher)",
      path: c.PinPathParams,
      responses: { 204: { description: "Unpinned" }, 400: problem("Invalid request"), 403: v1Needs("member"), 404: problem("No such pin") },
    }),
  },
  "/v1/pricing/pins": {
    get: v1(["Pins"], {
      summary: "List pins (of one pricing entry with pricing_id)",
      query: c.PinListQuery,
      responses: { 200: { description: "Pins", schema: c.PinList }, 400: problem("Invalid query") },
    }),
  },
  "/v1/pricing/usage": {
    post: v1(["Usage"], {
      idempotent: true,
      summary: "Price usage lines without storing them",
      body: c.UsageRequest,
      responses: { 200: { description: "Priced lines and totals", schema: c.UsageResponse }, 400: problem("Invalid request") },
    }),
  },
  "/v1/pricing/reports": {
    post: v1(["Reports"], {
      idempotent: true,
      summary: "Price and store a report (member key or higher)",
      body: c.CreateReportRequest,
      responses: { 201: { description: "The stored report", schema: c.Report }, 400: problem("Invalid request"), 403: v1Needs("member") },
    }),
  },
  "/v1/pricing/reports/{id}": {
    get: v1(["Reports"], {
      summary: "Read a report exactly as priced at creation",
      path: IdQuery,
      responses: { 200: { description: "The report", schema: c.Report }, 400: problem("Malformed id"), 404: problem("Unknown report") },
    }),
    delete: v1(["Reports"], {
      summary: "Delete a report and its references (admin key)",
      path: IdQuery,
      responses: { 204: { description: "Deleted" }, 400: problem("Malformed id"), 403: v1Needs("admin"), 404: problem("Unknown report") },
    }),
  },
  "/v1/pricing/compute": {
    post: v1(["Compute prices"], {
      idempotent: true,
      summary: "Price one instance type (catalog) or shape (estimate)",
      body: c.ComputePriceQuery,
      responses: {
        200: { description: "The price", schema: c.ComputePrice },
        400: problem("Invalid request (code `invalid_request`)"),
        404: problem("No price (code `price_not_found`)"),
      },
    }),
  },
  "/v1/pricing/compute/batch": {
    post: v1(["Compute prices"], {
      idempotent: true,
      summary: "Price up to 1000 queries, results in request order",
      body: c.ComputeBatchRequest,
      responses: { 200: { description: "One price or problem per item", schema: c.ComputeBatchResponse }, 400: problem("Not {items: [1..1000 objects]}") },
    }),
  },
  "/v1/pricing/compute/instance-types": {
    get: v1(["Compute prices"], {
      summary: "The catalog's instance types with prices, for choosing right-sizing candidates",
      query: c.InstanceTypesQuery,
      responses: { 200: { description: "Instance types", schema: c.InstanceTypesResponse }, 400: problem("Missing provider or region") },
    }),
  },
  "/v1/pricing/account": {
    get: v1(["Account"], {
      summary: "The account and key this request authenticates as",
      responses: { 200: { description: "Account and key ids", schema: c.AccountInfo } },
    }),
  },
  "/healthz": { get: operation({ summary: "Process up", tags: ["Operations"], security: [], responses: { 200: { description: "Up" } } }) },
  "/readyz": {
    get: operation({
      summary: "Database reachable, migrations applied, catalog loaded",
      tags: ["Operations"],
      security: [],
      responses: { 200: { description: "Ready" }, 503: { description: "Not ready" } },
    }),
  },
};

export function pricingApiDocument(): OpenApiDocument {
  const document = createDocument({
    openapi: "3.1.0",
    info: {
      title: "Cloud cost pricing API",
      version: "1.0.0",
      description:
        "Custom model and database prices, pins, reports, usage pricing and the compute price catalog. " +
        "Marketplace paths answer errors as `{error}`; `/v1` paths as RFC 9457 problem documents.",
    },
    components: {
      securitySchemes: {
        apiKey: { type: "apiKey", in: "header", name: "X-API-Key", description: "`bl_…` key" },
        bearerKey: { type: "http", scheme: "bearer", description: "`Authorization: Bearer bl_…`" },
      },
    },
    paths: pricingApiPaths,
  });
  return document as unknown as OpenApiDocument;
}
