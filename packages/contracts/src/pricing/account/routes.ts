import { defineRoute, v1 } from "../declare.js";
import * as c from "../internal/schemas.js";

/** `/v1/pricing/account`: who the key is. */
export const pricingAccountRoutes = {
  getAccount: defineRoute(
    v1({
      operationId: "getAccount",
      method: "get",
      path: "/v1/pricing/account",
      tags: ["Account"],
      summary: "The account and key this request authenticates as",
      minKeyRole: "viewer",
      responses: { 200: { description: "Account and key ids", schema: c.AccountInfo } },
    }),
  ),
} as const;
