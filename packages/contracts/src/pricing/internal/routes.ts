import { z } from "zod";
import { ServiceId } from "../../common.js";
import { ListCommitmentRatesResponse } from "../commitment-rates/schemas.js";
import { ComputeBatchRequest, ComputeBatchResponse, InstanceTypesQuery, InstanceTypesResponse } from "../compute/schemas.js";
import { MarketplaceError } from "../errors.js";
import { CreateAccountKeyRequest, CreatedPricingApiKey, KeyHash, PricingApiKey, ProvisionApiKeyRequest } from "./schemas.js";
import { InternalUsageResponse, UsageRequest } from "../references/schemas.js";
import { defineRoute } from "../../api/route.js";

const error = (description: string) => ({ description, schema: MarketplaceError });
const KeyHashParams = z.object({ keyHash: KeyHash });
const AccountParams = z.object({ accountId: ServiceId });

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
    params: AccountParams,
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
  // Pricing on behalf of an account (the main API for an organization's pricing account): the same
  // bodies and answers as the public operations, priced with that account's own entries. An
  // unknown account is priced like an account without entries.
  priceComputeBatchForAccount: defineRoute({
    operationId: "priceComputeBatchForAccount",
    method: "post",
    path: "/internal/accounts/{accountId}/pricing/compute/batch",
    tags: ["Internal"],
    summary: "Price up to 1000 compute queries for an account (its negotiated prices apply)",
    errors: "marketplace",
    auth: "service",
    scope: "none",
    internal: true,
    params: AccountParams,
    body: ComputeBatchRequest,
    responses: { 200: { description: "One price or problem per item", schema: ComputeBatchResponse } },
  }),
  listInstanceTypesForAccount: defineRoute({
    operationId: "listInstanceTypesForAccount",
    method: "get",
    path: "/internal/accounts/{accountId}/pricing/compute/instance-types",
    tags: ["Internal"],
    summary: "The catalog's instance types with an account's effective prices",
    errors: "marketplace",
    auth: "service",
    scope: "none",
    internal: true,
    params: AccountParams,
    query: InstanceTypesQuery,
    responses: { 200: { description: "Instance types", schema: InstanceTypesResponse } },
  }),
  priceUsageForAccount: defineRoute({
    operationId: "priceUsageForAccount",
    method: "post",
    path: "/internal/accounts/{accountId}/pricing/usage",
    tags: ["Internal"],
    summary: "Price usage lines with an account's model and database prices, without storing them",
    errors: "marketplace",
    auth: "service",
    scope: "none",
    internal: true,
    params: AccountParams,
    bodyLimit: "8 MiB",
    body: UsageRequest,
    responses: { 200: { description: "Priced lines (with the entry's model) and totals", schema: InternalUsageResponse } },
  }),
  listCommitmentRatesForAccount: defineRoute({
    operationId: "listCommitmentRatesForAccount",
    method: "get",
    path: "/internal/accounts/{accountId}/commitment-rates",
    tags: ["Internal"],
    summary: "An account's open commitment rates (the main API's purchase recommendations)",
    errors: "marketplace",
    auth: "service",
    scope: "none",
    internal: true,
    params: AccountParams,
    responses: { 200: { description: "Open rates, newest first", schema: ListCommitmentRatesResponse } },
  }),
} as const;
