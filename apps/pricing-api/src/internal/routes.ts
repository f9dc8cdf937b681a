import type { PricingApiKey } from "@cloudcost/contracts";
import { conflict, notFound } from "@cloudcost/http";
import type { ApiKeyStore } from "../auth/api-key-store";
import type { ApiKey } from "../generated/prisma/client";
import type { Handlers } from "../operations";

const toBody = (row: ApiKey): PricingApiKey => ({
  id: row.id,
  account_id: row.accountId,
  name: row.name,
  prefix: row.prefix,
  role: row.role,
  suspended: row.suspended,
  created_at: row.createdAt.toISOString(),
  revoked_at: row.revokedAt?.toISOString() ?? null,
});

/** `/internal`: for the main API and operator commands only (the router's `service` authentication checks the token). */
export function internalHandlers(store: ApiKeyStore): Handlers<"createAccountKey" | "provisionApiKey" | "revokeApiKeyByHash"> {
  return {
    createAccountKey: async ({ params, body }) => {
      const { key, record } = await store.create(params.accountId, body.name);
      return { status: 201, body: { ...toBody(record), key } };
    },
    provisionApiKey: async ({ params, body }) => {
      const result = await store.provision({
        accountId: body.account_id,
        id: body.id,
        keyHash: params.keyHash,
        prefix: body.prefix,
        name: body.name,
        role: body.role,
        suspended: body.suspended,
      });
      if (result.conflict) throw conflict("This key is already registered to another account.");
      const key = toBody(result.record);
      return result.created ? { status: 201, body: key } : { status: 200, body: key };
    },
    revokeApiKeyByHash: async ({ params }) => {
      const row = await store.revokeByHash(params.keyHash);
      if (!row) throw notFound("No API key has this hash.");
      return { status: 200, body: toBody(row) };
    },
  };
}
