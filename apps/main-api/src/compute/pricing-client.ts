import type { Logger } from "pino";
import type { z } from "zod";
import {
  ComputeBatchResponse,
  InstanceTypesResponse,
  type Architecture,
  type ComputePrice,
  type InstanceTypeRow,
  type OperatingSystem,
} from "@cloudcost/contracts";

import { PricingUnavailableError } from "../pricing/internal-client";

export { PricingUnavailableError };

export interface CatalogKey {
  provider: string;
  region: string;
  operatingSystem: OperatingSystem;
  /** Omitted when the resource does not say: the whole catalog of that provider/region/OS. */
  architecture?: Architecture;
}

export interface PriceKey {
  provider: string;
  region: string;
  operatingSystem: OperatingSystem;
  instanceType: string;
}

export interface PricingClient {
  /** On-demand catalog rows of one provider/region/OS(/architecture); cached. */
  instanceTypes(key: CatalogKey): Promise<InstanceTypeRow[]>;
  /** On-demand prices of instance types, in order; `null` where the pricing API has no price. Cached. */
  prices(keys: PriceKey[]): Promise<(ComputePrice | null)[]>;
}

export interface PricingClientOptions {
  baseUrl: string;
  apiKey: string | undefined;
  /** Called once when the pricing API answers 401 (e.g. registers a derived key); the call is then retried. */
  onUnauthorized?: () => Promise<void>;
  logger: Logger;
  timeoutMs?: number;
  attempts?: number;
  cacheTtlMs?: number;
}

const BATCH_LIMIT = 1000;

export function createPricingClient(options: PricingClientOptions): PricingClient {
  const { baseUrl, apiKey, logger } = options;
  const timeoutMs = options.timeoutMs ?? 5000;
  const attempts = options.attempts ?? 3;
  const ttlMs = options.cacheTtlMs ?? 10 * 60_000;
  const catalogCache = new Map<string, { expires: number; rows: InstanceTypeRow[] }>();
  const priceCache = new Map<string, { expires: number; price: ComputePrice | null }>();

  async function request<S extends z.ZodType>(path: string, init: RequestInit, schema: S): Promise<z.output<S>> {
    if (!apiKey) throw new PricingUnavailableError("PRICING_API_KEY is not set, so no prices can be fetched");
    let lastError = "no attempt made";
    let reauthorized = false;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      if (attempt > 1) await sleep(100 + Math.random() * 300);
      let response: Response;
      try {
        response = await fetch(new URL(path, baseUrl), {
          ...init,
          headers: { "content-type": "application/json", accept: "application/json", "x-api-key": apiKey },
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (err) {
        lastError = err instanceof Error && err.name === "TimeoutError" ? `timed out after ${timeoutMs} ms` : `unreachable (${describe(err)})`;
        continue;
      }
      const text = await response.text().catch(() => "");
      if (response.status >= 500 || response.status === 429) {
        lastError = `answered ${response.status}`;
        continue;
      }
      if (response.status === 401 && options.onUnauthorized && !reauthorized) {
        reauthorized = true;
        await options.onUnauthorized().catch((err) => logger.warn({ err: describe(err) }, "could not register the pricing API key"));
        attempt--;
        continue;
      }
      if (!response.ok) throw new PricingUnavailableError(`pricing API answered ${response.status} to ${path}`);
      const parsed = schema.safeParse(safeJson(text));
      if (!parsed.success) throw new PricingUnavailableError(`pricing API answered ${path} with a body that breaks the contract`);
      return parsed.data;
    }
    throw new PricingUnavailableError(`pricing API ${path} ${lastError} (${attempts} attempts)`);
  }

  return {
    async instanceTypes(key) {
      const cacheKey = [key.provider, key.region, key.operatingSystem, key.architecture ?? "*"].join("\u0000");
      const hit = catalogCache.get(cacheKey);
      if (hit && hit.expires > Date.now()) return hit.rows;
      const params = new URLSearchParams({
        provider: key.provider,
        region: key.region,
        operating_system: key.operatingSystem,
        usage_type: "on_demand",
      });
      if (key.architecture) params.set("architecture", key.architecture);
      const body = await request(`/v1/pricing/compute/instance-types?${params}`, { method: "GET" }, InstanceTypesResponse);
      const rows = body.instance_types.filter((row) => row.usage_type === "on_demand" && row.currency === "USD");
      catalogCache.set(cacheKey, { expires: Date.now() + ttlMs, rows });
      return rows;
    },

    async prices(keys) {
      const now = Date.now();
      const cacheKeys = keys.map((k) => [k.provider, k.region, k.operatingSystem, k.instanceType].join("\u0000"));
      const missing = [...new Set(cacheKeys.filter((k) => !((priceCache.get(k)?.expires ?? 0) > now)))];
      for (let start = 0; start < missing.length; start += BATCH_LIMIT) {
        const chunk = missing.slice(start, start + BATCH_LIMIT);
        const items = chunk.map((k) => {
          const [provider, region, operating_system, instance_type] = k.split("\u0000");
          return { provider, region, operating_system, instance_type, usage_type: "on_demand", service: "compute" };
        });
        const body = await request("/v1/pricing/compute/batch", { method: "POST", body: JSON.stringify({ items }) }, ComputeBatchResponse);
        const byIndex = new Map(body.results.map((r) => [r.index, r]));
        chunk.forEach((k, i) => {
          const result = byIndex.get(i);
          const price = result && "price" in result && result.price.currency === "USD" ? result.price : null;
          if (result && "problem" in result && result.problem.status >= 500) {
            logger.warn({ instance: k.replaceAll("\u0000", "/"), code: result.problem.code }, "pricing API could not price an item");
            return; // not cached: retried next cycle
          }
          priceCache.set(k, { expires: Date.now() + ttlMs, price });
        });
      }
      return cacheKeys.map((k) => priceCache.get(k)?.price ?? null);
    },
  };
}

function sleep(ms: number) {
  return new Promise((resolve) => setTimeout(resolve, ms));
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
