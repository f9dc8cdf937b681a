import type { Logger } from "pino";
import type { z } from "zod";
import {
  ComputeBatchResponse,
  InstanceTypesResponse,
  InternalUsageResponse,
  ListCommitmentRatesResponse,
  type InstanceTypesQueryInput,
  type UsageLineInput,
} from "@cloudcost/contracts";
import { signServiceToken } from "@cloudcost/credentials";
import { retry, type Backoff } from "@cloudcost/http";

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
  const base = options.baseUrl.replace(/\/$/, "");

  async function call<S extends z.ZodType>(method: "GET" | "POST", path: string, query: string, body: unknown, schema: S): Promise<z.output<S>> {
    const attempt = async (): Promise<z.output<S>> => {
      let response: Response;
      try {
        response = await fetch(`${base}${path}${query}`, {
          method,
          headers: {
            "content-type": "application/json",
            accept: "application/json",
            authorization: `Bearer ${await signServiceToken(options.serviceSecret, { method, path })}`,
          },
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (err) {
        throw new TransientFailure(err instanceof Error && err.name === "TimeoutError" ? `timed out after ${timeoutMs} ms` : `unreachable (${describe(err)})`);
      }
      const text = await response.text().catch(() => "");
      if (response.status >= 500 || response.status === 429) throw new TransientFailure(`answered ${response.status}`);
      if (!response.ok) throw new PricingUnavailableError(`pricing API answered ${response.status} to ${method} ${path}: ${text.slice(0, 200)}`);
      const parsed = schema.safeParse(safeJson(text));
      if (!parsed.success) throw new PricingUnavailableError(`pricing API answered ${method} ${path} with a body that breaks the contract`);
      return parsed.data;
    };
    try {
      return await retry(attempt, { attempts, retryable: (err) => err instanceof TransientFailure, backoff: RETRY_BACKOFF });
    } catch (err) {
      if (!(err instanceof TransientFailure)) throw err;
      options.logger.warn({ path, error: err.message }, "pricing API unavailable");
      throw new PricingUnavailableError(`pricing API ${method} ${path} ${err.message} (${attempts} attempts)`);
    }
  }

  const accountPath = (accountId: string, rest: string) => `/internal/accounts/${encodeURIComponent(accountId)}/pricing/${rest}`;

  return {
    priceComputeBatch: (accountId, items) => call("POST", accountPath(accountId, "compute/batch"), "", { items }, ComputeBatchResponse),
    instanceTypes(accountId, query) {
      const params = new URLSearchParams();
      for (const [key, value] of Object.entries(query)) if (value !== undefined) params.set(key, String(value));
      return call("GET", accountPath(accountId, "compute/instance-types"), `?${params}`, undefined, InstanceTypesResponse);
    },
    priceUsage: (accountId, usage) => call("POST", accountPath(accountId, "usage"), "", { usage }, InternalUsageResponse),
    commitmentRates: (accountId) =>
      call("GET", `/internal/accounts/${encodeURIComponent(accountId)}/commitment-rates`, "", undefined, ListCommitmentRatesResponse),
  };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function describe(err: unknown): string {
  const cause = err instanceof Error && err.cause instanceof Error ? err.cause : err;
  return cause instanceof Error ? ((cause as NodeJS.ErrnoException).code ?? cause.message) : String(cause);
}
