import { defineRoute, USAGE_BODY_LIMIT, v1 } from "../declare.js";
import * as c from "../references/schemas.js";

/** `/v1/pricing/usage`: usage lines priced without being stored. */
export const pricingUsageRoutes = {
  priceUsage: defineRoute(
    v1({
      operationId: "priceUsage",
      method: "post",
      path: "/v1/pricing/usage",
      tags: ["Usage"],
      summary: "Price usage lines without storing them",
      minKeyRole: "viewer",
      idempotent: true,
      bodyLimit: USAGE_BODY_LIMIT,
      body: c.UsageRequest,
      responses: { 200: { description: "Priced lines and totals", schema: c.UsageResponse } },
    }),
  ),
} as const;
