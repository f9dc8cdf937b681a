import type { ComputeCatalogStore } from "../compute/catalog";
import { instanceTypesFor, priceBatchFor } from "../compute/routes";
import type { Prisma } from "../db";
import type { NegotiatedPriceCache } from "../marketplace/compute-negotiated";
import type { Handlers } from "../operations";
import { priceUsage } from "../usage/pricer";

export interface InternalPricingDeps {
  computeCatalog: ComputeCatalogStore;
  negotiated: NegotiatedPriceCache;
  prisma: Prisma;
  labelPrefix: string;
}

/**
 * `/internal/accounts/{accountId}/pricing/...`: the public pricing operations on behalf of the
 * account in the path (the main API pricing for an organization). An account that does not exist
 * has no entries, so it is priced at list prices like any account without its own.
 */
export function internalPricingHandlers(
  deps: InternalPricingDeps,
): Handlers<"priceComputeBatchForAccount" | "listInstanceTypesForAccount" | "priceUsageForAccount"> {
  return {
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
  };
}
