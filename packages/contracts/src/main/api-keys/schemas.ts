import { z } from "zod";
import { ServiceId, TimestampOutput } from "../../common.js";
import { Page, Text200 } from "../fields.js";
import { Role } from "../users/schemas.js";

export const ApiKeyPathParams = z.object({ id: ServiceId }).meta({ id: "ApiKeyPathParams", description: "Path parameters of /settings/api-keys/{id}." });
export type ApiKeyPathParams = z.infer<typeof ApiKeyPathParams>;

/** Roles an API key may act with: never `owner` (keys cannot manage owners or other keys). */
export const ApiKeyRole = z.enum(["admin", "member", "viewer"]).meta({ id: "ApiKeyRole", description: "Role an API key acts with; `owner` is not allowed." });
export type ApiKeyRole = z.infer<typeof ApiKeyRole>;

export const ApiKeyCreator = z.object({ user_id: ServiceId, name: z.string() }).meta({
  id: "ApiKeyCreator",
  description: "The user who created a key: the key acts with at most this user's current role, and stops working while the user is deactivated.",
});
export type ApiKeyCreator = z.infer<typeof ApiKeyCreator>;

export const ApiKey = z
  .object({
    id: ServiceId,
    name: z.string(),
    role: Role,
    tenant_ids: z.array(ServiceId).optional(),
    prefix: z.string(),
    created_by: ApiKeyCreator.nullable(),
    created_at: TimestampOutput,
    last_used_at: TimestampOutput.nullable(),
    revoked_at: TimestampOutput.nullable(),
  })
  .meta({
    id: "ApiKey",
    description: "An API key; only its display prefix is ever returned after creation. It acts with at most the current role of its creator (`created_by`).",
  });
export type ApiKey = z.infer<typeof ApiKey>;

export const CreateApiKeyRequest = z.object({ name: Text200, role: ApiKeyRole, tenant_ids: z.array(ServiceId).max(1000).optional() }).meta({
  id: "CreateApiKeyRequest",
  description: "Creates an API key acting with `role`; member and viewer keys reach only `tenant_ids`, admin keys every tenant.",
});
export type CreateApiKeyRequest = z.output<typeof CreateApiKeyRequest>;

export const CreateApiKeyResponse = ApiKey.extend({ key: z.string().startsWith("bl_") }).meta({
  id: "CreateApiKeyResponse",
  description: "The new key; `key` is shown only in this response.",
});
export type CreateApiKeyResponse = z.infer<typeof CreateApiKeyResponse>;

export const ApiKeysPage = Page(ApiKey).meta({ id: "ApiKeysPage", description: "A page of API keys; `next_cursor` is null on the last page." });
export type ApiKeysPage = z.infer<typeof ApiKeysPage>;
