import { defineRoute, problem, v1 } from "../declare.js";
import * as c from "./schemas.js";

/** `/v1/pricing/compute`: catalog prices of instance types and shapes. */
export const pricingComputeRoutes = {
  priceCompute: defineRoute(
    v1({
      operationId: "priceCompute",
      method: "post",
      path: "/v1/pricing/compute",
      tags: ["Compute prices"],
      summary: "Price one instance type (catalog) or shape (estimate)",
      minKeyRole: "viewer",
      idempotent: true,
      body: c.ComputePriceQuery,
      responses: { 200: { description: "The price", schema: c.ComputePrice }, 404: problem("No price (code `price_not_found`)") },
    }),
  ),
  priceComputeBatch: defineRoute(
    v1({
      operationId: "priceComputeBatch",
      method: "post",
      path: "/v1/pricing/compute/batch",
      tags: ["Compute prices"],
      summary: "Price up to 1000 queries, results in request order",
      minKeyRole: "viewer",
      idempotent: true,
      body: c.ComputeBatchRequest,
      responses: { 200: { description: "One price or problem per item", schema: c.ComputeBatchResponse } },
    }),
  ),
  listInstanceTypes: defineRoute(
    v1({
      operationId: "listInstanceTypes",
      method: "get",
      path: "/v1/pricing/compute/instance-types",
      tags: ["Compute prices"],
      summary: "The catalog's instance types with prices, for choosing right-sizing candidates",
      minKeyRole: "viewer",
      query: c.InstanceTypesQuery,
      responses: { 200: { description: "Instance types", schema: c.InstanceTypesResponse } },
    }),
  ),
} as const;
