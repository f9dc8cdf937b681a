import { PaginationQuery } from "../../common.js";
import { defineRoute, failure, ofCaller, MANAGERS, ok, peopleOnly } from "../declare.js";
import * as i from "./schemas.js";

const KEYS_CANNOT_MANAGE_KEYS = peopleOnly("API keys cannot manage API keys: sign in as an owner or admin.");

/** `/api/v1/settings/api-keys`: the API keys of the caller's organization (people only). */
export const mainApiApiKeyRoutes = {
  listApiKeys: defineRoute(
    ofCaller({
      operationId: "listApiKeys",
      ...KEYS_CANNOT_MANAGE_KEYS,
      method: "get",
      path: "/api/v1/settings/api-keys",
      tags: ["API keys"],
      summary: "API keys of the caller's organization (paginated) (owner/admin signed in as a user)",
      roles: MANAGERS,
      query: PaginationQuery,
      responses: { 200: ok("A page of keys", i.ApiKeysPage) },
    }),
  ),
  createApiKey: defineRoute(
    ofCaller({
      operationId: "createApiKey",
      ...KEYS_CANNOT_MANAGE_KEYS,
      method: "post",
      path: "/api/v1/settings/api-keys",
      tags: ["API keys"],
      summary: "Create an API key acting with a role; the key is shown once and also works on the pricing API (owner/admin signed in as a user)",
      roles: MANAGERS,
      idempotent: "secret",
      body: i.CreateApiKeyRequest,
      responses: {
        201: ok("The key, with its secret", i.CreateApiKeyResponse),
        409: failure(
          "A repeat with the same Idempotency-Key: the key was created and is shown only once, never replayed (code `idempotency_secret_not_replayed`)",
        ),
      },
    }),
  ),
  revokeApiKey: defineRoute(
    ofCaller({
      operationId: "revokeApiKey",
      ...KEYS_CANNOT_MANAGE_KEYS,
      method: "delete",
      path: "/api/v1/settings/api-keys/{id}",
      tags: ["API keys"],
      summary: "Revoke an API key of the organization, whoever created it (here and on the pricing API) (owner/admin signed in as a user)",
      roles: MANAGERS,
      params: i.ApiKeyPathParams,
      responses: { 200: ok("The revoked key", i.ApiKey), 404: failure("No such key") },
    }),
  ),
} as const;
