import { z } from "zod";
import { ServiceId } from "../common.js";
import { MarketplaceError } from "../pricing/errors.js";
import { CreateAccountKeyRequest, CreatedPricingApiKey, KeyHash, PricingApiKey, ProvisionApiKeyRequest } from "../pricing/internal.js";
import { defineRoute } from "./route.js";

const error = (description: string) => ({ description, schema: MarketplaceError });
const KeyHashParams = z.object({ keyHash: KeyHash });

/**
 * The pricing API's `/internal` operations: called by the main API (key sync) and operator
 * commands with a service token signed for the one request. Not part of the public document.
 */
export const pricingInternalRoutes = {
  createAccountKey: defineRoute({
    operationId: "createAccountKey",
    method: "post",
    path: "/internal/accounts/{accountId}/api-keys",
    tags: ["Internal"],
    summary: "Create a new key for an account (operator command)",
    errors: "marketplace",
    auth: "service",
    scope: "none",
    internal: true,
    params: z.object({ accountId: ServiceId }),
    // The body is optional: no body at all is an unnamed key.
    body: z.preprocess((body) => body ?? {}, CreateAccountKeyRequest),
    responses: { 201: { description: "The key, with its secret", schema: CreatedPricingApiKey } },
  }),
  provisionApiKey: defineRoute({
    operationId: "provisionApiKey",
    method: "put",
    path: "/internal/api-keys/{keyHash}",
    tags: ["Internal"],
    summary: "Register a key issued by the main API (by hash), or update its role and suspension",
    errors: "marketplace",
    auth: "service",
    scope: "none",
    internal: true,
    params: KeyHashParams,
    body: ProvisionApiKeyRequest,
    responses: {
      200: { description: "Updated", schema: PricingApiKey },
      201: { description: "Registered", schema: PricingApiKey },
      409: error("This key is already registered to another account"),
    },
  }),
  revokeApiKeyByHash: defineRoute({
    operationId: "revokeApiKeyByHash",
    method: "delete",
    path: "/internal/api-keys/{keyHash}",
    tags: ["Internal"],
    summary: "Revoke a key by hash",
    errors: "marketplace",
    auth: "service",
    scope: "none",
    internal: true,
    params: KeyHashParams,
    responses: { 200: { description: "Revoked", schema: PricingApiKey }, 404: error("No API key has this hash") },
  }),
} as const;
