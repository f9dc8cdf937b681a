import { type ApiClient, bindRoutes } from "@cloudcost/client";
import { pricingInternalRoutes } from "@cloudcost/contracts";
import { signServiceToken } from "@cloudcost/credentials";

/** The pricing API's `/internal` operations as typed calls (`@cloudcost/client` over their route table). */
export type InternalPricingRoutes = ApiClient<typeof pricingInternalRoutes>;

/**
 * A client of the pricing API's internal route table: paths filled from each route's template, the
 * query written from its params, every answer parsed with the schema the route declares for its
 * status (a mismatch is an ApiError `invalid_response`), a refusal thrown as an ApiError. Every
 * request (so every attempt of a retried call) carries a service token signed for exactly its
 * method and path; the pricing API accepts each token once.
 */
export function internalPricingRoutes(baseUrl: string, serviceSecret: Uint8Array): InternalPricingRoutes {
  const base = baseUrl.replace(/\/+$/, "");
  const signing: typeof fetch = async (input, init = {}) => {
    const url = String(input);
    const path = url.slice(base.length).split("?")[0];
    const method = (init.method ?? "GET").toUpperCase();
    const headers = new Headers(init.headers);
    headers.set("authorization", `Bearer ${await signServiceToken(serviceSecret, { method, path })}`);
    return globalThis.fetch(url, { ...init, headers });
  };
  return bindRoutes(pricingInternalRoutes, { baseUrl: base, fetch: signing });
}
