import { z } from "zod";
import { ServiceId, TimestampOutput } from "../../common.js";

export const KeyHash = z
  .string()
  .regex(/^[0-9a-f]{64}$/, "must be the lower-case hex SHA-256 of the key")
  .meta({ id: "KeyHash", description: "SHA-256 (hex) of an API key; the plaintext never leaves the service that issued it." });

export const PricingKeyRole = z.enum(["viewer", "member", "admin"]).meta({
  id: "PricingKeyRole",
  description: "What a key may do: viewer keys read and price usage, member keys also register prices, pins and reports, admin keys also delete.",
});
export type PricingKeyRole = z.infer<typeof PricingKeyRole>;

export const ProvisionApiKeyRequest = z
  .object({
    account_id: ServiceId,
    id: ServiceId.optional(),
    prefix: z.string().regex(/^bl_[0-9A-Za-z]{1,16}$/),
    name: z.string().trim().min(1).max(200).nullish(),
    role: PricingKeyRole.optional(),
    suspended: z.boolean().optional(),
  })
  .meta({
    id: "ProvisionApiKeyRequest",
    description:
      "Internal: register a key issued by the main API (by hash), or update its state: `role` (its effective role) and " +
      "`suspended` (its creator is deactivated) replace the stored values when given; a new key without a role is admin.",
  });
export type ProvisionApiKeyRequest = z.infer<typeof ProvisionApiKeyRequest>;

export const CreateAccountKeyRequest = z
  .object({ name: z.string().trim().min(1).max(200).nullish() })
  .meta({ id: "CreateAccountKeyRequest", description: "Internal: create a new key for an account (operator command)." });
export type CreateAccountKeyRequest = z.infer<typeof CreateAccountKeyRequest>;

export const PricingApiKey = z
  .object({
    id: ServiceId,
    account_id: ServiceId,
    name: z.string().nullable(),
    prefix: z.string(),
    role: PricingKeyRole,
    suspended: z.boolean(),
    created_at: TimestampOutput,
    revoked_at: TimestampOutput.nullable(),
  })
  .meta({ id: "PricingApiKey", description: "An API key of the pricing API, without its secret." });
export type PricingApiKey = z.infer<typeof PricingApiKey>;

export const CreatedPricingApiKey = PricingApiKey.extend({ key: z.string().startsWith("bl_") }).meta({
  id: "CreatedPricingApiKey",
  description: "A new key: `key` is the plaintext, shown this once.",
});
export type CreatedPricingApiKey = z.infer<typeof CreatedPricingApiKey>;

export const AccountInfo = z
  .object({ account_id: ServiceId, key_id: ServiceId })
  .meta({ id: "AccountInfo", description: "The account and key a request authenticates as." });
export type AccountInfo = z.infer<typeof AccountInfo>;
