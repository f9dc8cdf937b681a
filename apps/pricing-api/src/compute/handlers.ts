import type { pricingComputeRoutes } from "@cloudcost/contracts";
import {
  ComputePriceQuery,
  type ComputeBatchResponse,
  type ComputeBatchResult,
  type InstanceTypesQuery,
  type InstanceTypesResponse,
} from "@cloudcost/contracts";
import { HttpError, parseOr400, type RequestMeta, type TextReply } from "@cloudcost/http";
import { problemDocument } from "../errors";
import type { AccountComputePrices, NegotiatedPriceCache } from "../compute-prices/negotiated";
import type { Handlers } from "../operations";
import type { ComputeCatalogStore } from "./catalog";
import { listInstanceTypes, priceCompute, priceComputeJson } from "./service";

/** Each batch item is validated on its own: an invalid one gets its problem, the others their price. */
function priceItem(request: RequestMeta, store: ComputeCatalogStore, prices: AccountComputePrices, index: number, item: unknown): ComputeBatchResult {
  try {
    return { index, price: priceCompute(store.current, parseOr400(ComputePriceQuery, item, `item ${index}`), prices) };
  } catch (err) {
    if (err instanceof HttpError) return { index, problem: problemDocument(request, err) };
    throw err;
  }
}

/** The batch answer for `accountId` (the caller's account, or the one an internal call names). */
export async function priceBatchFor(
  request: RequestMeta,
  store: ComputeCatalogStore,
  negotiated: NegotiatedPriceCache,
  accountId: string,
  items: unknown[],
): Promise<ComputeBatchResponse> {
  const prices = await negotiated.get(accountId);
  return { results: items.map((item, index) => priceItem(request, store, prices, index, item)) };
}

/** The instance-types listing with `accountId`'s effective prices. */
export async function instanceTypesFor(
  store: ComputeCatalogStore,
  negotiated: NegotiatedPriceCache,
  accountId: string,
  query: InstanceTypesQuery,
): Promise<InstanceTypesResponse> {
  return { instance_types: listInstanceTypes(store.current, query, await negotiated.get(accountId)) };
}

// Written as text rather than through res.send: a POST answer is never conditional, so Express's
// ETag (a SHA-1 of the body) would be work for nothing here (docs/performance.md, "Request handling
// on the hot path").
const json = (text: string): TextReply<200> => ({ status: 200, headers: { "Content-Type": "application/json; charset=utf-8" }, text });

/**
 * `/v1/pricing/compute`: answered from the in-process catalog and the calling account's cached
 * negotiated entries; the only database work is loading an account's entries when not cached.
 */
export function computeHandlers(store: ComputeCatalogStore, negotiated: NegotiatedPriceCache): Handlers<keyof typeof pricingComputeRoutes> {
  return {
    priceCompute: ({ body }, { account }) => {
      const prices = negotiated.peek(account.accountId);
      if (prices) return json(priceComputeJson(store.current, body, prices));
      return negotiated.get(account.accountId).then((loaded) => json(priceComputeJson(store.current, body, loaded)));
    },
    priceComputeBatch: async ({ body }, { account, request }) => ({
      status: 200,
      body: await priceBatchFor(request, store, negotiated, account.accountId, body.items),
    }),
    listInstanceTypes: async ({ query }, { account }) => ({ status: 200, body: await instanceTypesFor(store, negotiated, account.accountId, query) }),
  };
}
