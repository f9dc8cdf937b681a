import { ApiError, type CloudCostClient, createClient } from "@cloudcost/client";
import type { Stack } from "./stack";

/**
 * The typed client (@cloudcost/client) through the stack's gateway, as a customer reaches the APIs:
 * `token` for the main API, `apiKey` for the pricing API.
 */
export function stackClient(stack: Pick<Stack, "api" | "pricingUrl">, auth: { token?: string; apiKey?: string }): CloudCostClient {
  return createClient({ mainUrl: stack.api.replace(/\/api$/, ""), pricingUrl: stack.pricingUrl, token: auth.token, apiKey: auth.apiKey });
}

/** The ApiError `pending` fails with (the test fails when it succeeds or fails otherwise). */
export async function failure(pending: Promise<unknown>): Promise<ApiError> {
  try {
    await pending;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error("expected the call to fail with an API error");
}
