import { type CloudCostClient, createClient } from "@cloudcost/client";
import type { Stack } from "./stack";

/**
 * The typed client (@cloudcost/client) through the stack's gateway, as a customer reaches the APIs:
 * `token` for the main API, `apiKey` for the pricing API.
 */
export function stackClient(stack: Pick<Stack, "api" | "pricingUrl">, auth: { token?: string; apiKey?: string }): CloudCostClient {
  return createClient({ mainUrl: stack.api.replace(/\/api$/, ""), pricingUrl: stack.pricingUrl, token: auth.token, apiKey: auth.apiKey });
}
