import type { Logger } from "pino";
import { fillPath, isApiError } from "@cloudcost/client";
import type {
  ComputeBatchResponse,
  InstanceTypesQueryInput,
  InstanceTypesResponse,
  InternalUsageResponse,
  ListCommitmentRatesResponse,
  RouteDefinition,
  UsageLineInput,
} from "@cloudcost/contracts";
import { retry, type Backoff } from "@cloudcost/http";
import { internalPricingRoutes } from "./internal-routes";

/** The pricing API could not be used (unreachable, slow, 5xx, refused us, or answered garbage). */
export class PricingUnavailableError extends Error {}

/** A failure worth another attempt: unreachable, timed out, a 5xx or a 429. */
class TransientFailure extends Error {}

/** The waits between attempts: about 100 ms, then 200 ms (+-50 %, so that callers spread out). */
const RETRY_BACKOFF: Backoff = { baseMs: 100, maxMs: 2000, jitter: 0.5 };

/**
 * The pricing API's internal operations on behalf of an organization's pricing account (its id),
 * so its own negotiated, model and database prices apply. Never a customer's key: each attempt is
 * authenticated by a service token signed for exactly that request.
 */
export interface InternalPricingApi {
  priceComputeBatch(accountId: string, items: Record<string, unknown>[]): Promise<ComputeBatchResponse>;
  instanceTypes(accountId: string, query: InstanceTypesQueryInput): Promise<InstanceTypesResponse>;
  priceUsage(accountId: string, usage: UsageLineInput[]): Promise<InternalUsageResponse>;
  /** The account's open commitment rates, newest first. */
  commitmentRates(accountId: string): Promise<ListCommitmentRatesResponse>;
}

export interface InternalPricingOptions {
  baseUrl: string;
  serviceSecret: Uint8Array;
  logger: Logger;
  timeoutMs?: number;
  attempts?: number;
}

export function createInternalPricingApi(options: InternalPricingOptions): InternalPricingApi {
  const timeoutMs = options.timeoutMs ?? 5000;
  const attempts = options.attempts ?? 3;
  const routes = internalPricingRoutes(options.baseUrl, options.serviceSecret);

  /**
   * One operation of the internal route table, retried on transient failures; `send` makes one
   * attempt (a fresh service token and time limit each time, see internalPricingRoutes).
   */
  async function call<T>(route: RouteDefinition, params: Record<string, string>, send: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const method = route.method.toUpperCase();
    const path = fillPath(route, params);
    const attempt = async (): Promise<T> => {
      try {
        return await send(AbortSignal.timeout(timeoutMs));
      } catch (err) {
        throw failure(err, method, path, timeoutMs);
      }
    };
    try {
      return await retry(attempt, { attempts, retryable: (err) => err instanceof TransientFailure, backoff: RETRY_BACKOFF });
    } catch (err) {
      if (!(err instanceof TransientFailure)) throw err;
      options.logger.warn({ path, error: err.message }, "pricing API unavailable");
      throw new PricingUnavailableError(`pricing API ${method} ${path} ${err.message} (${attempts} attempts)`);
    }
  }

  return {
    priceComputeBatch: (accountId, items) =>
      call(routes.priceComputeBatchForAccount.route, { accountId }, (signal) =>
        routes.priceComputeBatchForAccount({ params: { accountId }, body: { items }, signal }),
      ),
    instanceTypes: (accountId, query) =>
      call(routes.listInstanceTypesForAccount.route, { accountId }, (signal) => routes.listInstanceTypesForAccount({ params: { accountId }, query, signal })),
    priceUsage: (accountId, usage) =>
      call(routes.priceUsageForAccount.route, { accountId }, (signal) => routes.priceUsageForAccount({ params: { accountId }, body: { usage }, signal })),
    commitmentRates: (accountId) =>
      call(routes.listCommitmentRatesForAccount.route, { accountId }, (signal) => routes.listCommitmentRatesForAccount({ params: { accountId }, signal })),
  };
}

/**
 * What a failed attempt means: unreachable, timed out, a 5xx or a 429 are worth another attempt;
 * any other refusal, or an answer that breaks the route's declared schema, is not.
 */
function failure(err: unknown, method: string, path: string, timeoutMs: number): Error {
  const timedOut = (e: unknown) => e instanceof Error && e.name === "TimeoutError";
  if (!isApiError(err)) return timedOut(err) ? new TransientFailure(`timed out after ${timeoutMs} ms`) : (err as Error);
  if (err.status === 0) return new TransientFailure(timedOut(err.cause) ? `timed out after ${timeoutMs} ms` : `unreachable (${describe(err.cause)})`);
  if (err.status >= 500 || err.status === 429) return new TransientFailure(`answered ${err.status}`);
  if (err.code === "invalid_response") return new PricingUnavailableError(`pricing API answered ${method} ${path} with a body that breaks the contract`);
  return new PricingUnavailableError(`pricing API answered ${err.status} to ${method} ${path}: ${bodyText(err.body).slice(0, 200)}`);
}

/** The refusal's body as it came (JSON written back as text). */
function bodyText(body: unknown): string {
  if (body === undefined) return "";
  return typeof body === "string" ? body : JSON.stringify(body);
}

function describe(err: unknown): string {
  const cause = err instanceof Error && err.cause instanceof Error ? err.cause : err;
  return cause instanceof Error ? ((cause as NodeJS.ErrnoException).code ?? cause.message) : String(cause);
}
