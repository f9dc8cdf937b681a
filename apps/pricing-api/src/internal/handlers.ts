import type { PricingApiKey, pricingInternalRoutes } from "@cloudcost/contracts";
import { conflict, notFound } from "@cloudcost/http";
import type { ApiKeyStore } from "../auth/api-key-store";
import type { CommitmentRateService } from "../commitment-rates/service";
import type { ComputeCatalogStore } from "../compute/catalog";
import { instanceTypesFor, priceBatchFor } from "../compute/handlers";
import type { NegotiatedPriceCache } from "../compute-prices/negotiated";
import type { Prisma } from "../db";
import type { ApiKey } from "../generated/prisma/client";
import type { Handlers } from "../operations";
import { priceUsage } from "../usage/pricer";

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

export interface InternalDeps {
  apiKeys: ApiKeyStore;
  computeCatalog: ComputeCatalogStore;
  negotiated: NegotiatedPriceCache;
  prisma: Prisma;
  /** The commitment-rate service the public operations use too (built once by app.ts). */
  commitmentRates: CommitmentRateService;
  labelPrefix: string;
}

/**
 * `/internal`: for the main API and operator commands only (the router's `service` authentication
 * checks the token). The key operations keep the pricing API's copy of the main API's keys; the
 * pricing ones (`/internal/accounts/{accountId}/...`) are the public operations on behalf of the
 * account in the path (the main API pricing for an organization): an account that does not exist
 * has no entries, so it is priced at list prices like any account without its own.
 */
export function internalHandlers(deps: InternalDeps): Handlers<keyof typeof pricingInternalRoutes> {
  const store = deps.apiKeys;
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
    priceComputeBatchForAccount: async ({ params, body }, { request }) => ({
      status: 200,
      body: await priceBatchFor(request, deps.computeCatalog, deps.negotiated, params.accountId, body.items),
    }),
    listInstanceTypesForAccount: async ({ params, query }) => ({
      status: 200,
      body: await instanceTypesFor(deps.computeCatalog, deps.negotiated, params.accountId, query),
    }),
    priceUsageForAccount: async ({ params, body }) => {
      const { lines, totals, modelIds } = await priceUsage(deps.prisma, params.accountId, body.usage, { labelPrefix: deps.labelPrefix });
      return { status: 200, body: { lines: lines.map((line, i) => ({ ...line, model_id: modelIds[i] })), totals } };
    },
    listCommitmentRatesForAccount: async ({ params }) => ({
      status: 200,
      body: { entries: await deps.commitmentRates.listCommitmentRates(params.accountId, {}), status: "OK" },
    }),
  };
}
