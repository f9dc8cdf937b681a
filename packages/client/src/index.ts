import { mainApiRoutes, pricingPublicRoutes, type RouteDefinition, type RouteTable } from "@cloudcost/contracts";
import { type AnyInput, resultOf, send, type Provider, type Transport } from "./request.js";
import type { ApiClient, ArrayFormat, Operation } from "./types.js";

export { ApiError, type ApiErrorInit, type ClientErrorCode, codeOfStatus, type FieldError, isApiError, messageOf } from "./errors.js";
export { type AnyInput, fillPath, type Provider, queryString, type RawReply, resultOf, send, type Transport } from "./request.js";
export type * from "./types.js";

/** A typed method for every operation of `routes`, sent through `transport`. */
export function bindRoutes<const T extends RouteTable>(routes: T, transport: Transport): ApiClient<T> {
  const client: Record<string, unknown> = {};
  for (const [name, route] of Object.entries(routes)) client[name] = operation(route, transport);
  return client as ApiClient<T>;
}

function operation<R extends RouteDefinition>(route: R, transport: Transport): Operation<R> {
  const call = async (input?: AnyInput) => resultOf(route, await send(transport, route, input));
  return Object.assign(call, { reply: (input?: AnyInput) => send(transport, route, input), route }) as unknown as Operation<R>;
}

/** The main API's operations (every entry of `mainApiRoutes`). */
export type MainApiClient = ApiClient<typeof mainApiRoutes>;
/** The pricing API's public operations (`pricingPublicRoutes`; the `/internal` ones need a service token). */
export type PricingApiClient = ApiClient<typeof pricingPublicRoutes>;

export interface ClientOptions {
  /** The main API's root URL (its paths start with `/api/v1`): `https://costs.example.com`, `http://127.0.0.1:3000`, or "" for the page's origin. */
  mainUrl?: string;
  /** The pricing API's root URL (its paths start with `/v1` and `/marketplace`): `http://127.0.0.1:3001`, or `/pricing` behind the gateway. */
  pricingUrl?: string;
  /** The main API's bearer token: an identity-provider token or a `bl_` API key (a function is asked before each request). */
  token?: Provider;
  /** The pricing API's `bl_` API key, sent as `X-API-Key`. */
  apiKey?: Provider;
  /** `fetch` to use (default the global one: browsers and Node.js 20+). */
  fetch?: typeof fetch;
  /** How arrays are written in query strings: `repeat` (`a=x&a=y`, default) or `comma` (`a=x,y`). */
  arrayFormat?: ArrayFormat;
  /** Parse every answer with its declared schema (default true). */
  validateResponses?: boolean;
  headers?: Record<string, string>;
  onError?: Transport["onError"];
}

export interface CloudCostClient {
  main: MainApiClient;
  pricing: PricingApiClient;
}

/**
 * A client of both APIs: `client.main.getBudget({ params: { id }, tenant })` resolves with the
 * budget; failures throw an ApiError with the answer's status and stable code.
 */
export function createClient(options: ClientOptions = {}): CloudCostClient {
  const shared = {
    fetch: options.fetch,
    arrayFormat: options.arrayFormat,
    validateResponses: options.validateResponses,
    headers: options.headers,
    onError: options.onError,
  };
  return {
    main: bindRoutes(mainApiRoutes, { ...shared, baseUrl: options.mainUrl ?? "", credential: options.token }),
    pricing: bindRoutes(pricingPublicRoutes, { ...shared, baseUrl: options.pricingUrl ?? "", credential: options.apiKey }),
  };
}
