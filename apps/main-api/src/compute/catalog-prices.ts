import type { Logger } from "pino";
import type { InstanceTypeRow, OperatingSystem } from "@cloudcost/contracts";
import { type InternalPricingApi, PricingUnavailableError } from "../pricing/internal-client";

export { PricingUnavailableError };

export type CatalogUsage = "on_demand" | "spot";

export interface CatalogKey {
  /** The organization's pricing account (its id): its negotiated prices apply. */
  accountId: string;
  provider: string;
  region: string;
  operatingSystem: OperatingSystem;
  usageType: CatalogUsage;
}

/**
 * The USD catalog of one provider, region, operating system and usage type, priced for an
 * organization: `price_per_hour` is its effective price, `list_price_per_hour` the catalog's.
 */
export interface ComputeCatalogs {
  catalog(key: CatalogKey): Promise<InstanceTypeRow[]>;
}

const BATCH_LIMIT = 1000;

/**
 * Over the pricing API's internal operations (pricing/internal-client.ts: timeouts, retries, a
 * service token per attempt), with a cache per account and catalog. A provider whose catalog has no
 * Windows rows (AWS, Azure) gets its Linux rows priced as Windows through the batch operation,
 * which adds the documented per-vCPU licence and applies the account's Windows entries.
 */
export function createComputeCatalogs(api: InternalPricingApi, logger: Logger, cacheTtlMs = 10 * 60_000): ComputeCatalogs {
  const cache = new Map<string, { expires: number; rows: Promise<InstanceTypeRow[]> }>();

  const list = async (key: CatalogKey, operatingSystem: OperatingSystem) => {
    const body = await api.instanceTypes(key.accountId, {
      provider: key.provider,
      region: key.region,
      operating_system: operatingSystem,
      usage_type: key.usageType,
    });
    return body.instance_types.filter((row) => row.currency === "USD" && row.usage_type === key.usageType);
  };

  async function windowsFromLinux(key: CatalogKey): Promise<InstanceTypeRow[]> {
    const linux = await list(key, "linux");
    const rows: InstanceTypeRow[] = [];
    for (let start = 0; start < linux.length; start += BATCH_LIMIT) {
      const chunk = linux.slice(start, start + BATCH_LIMIT);
      const items = chunk.map((row) => ({
        provider: key.provider,
        region: key.region,
        instance_type: row.instance_type,
        operating_system: "windows",
        usage_type: key.usageType,
      }));
      const { results } = await api.priceComputeBatch(key.accountId, items);
      for (const result of results) {
        const row = chunk[result.index];
        if (!row || !("price" in result) || result.price.currency !== "USD") continue;
        const { price } = result;
        rows.push({
          ...row,
          operating_system: "windows",
          price_per_hour: price.price_per_hour,
          list_price_per_hour: price.list_price_per_hour ?? price.price_per_hour,
          source: price.source,
          pricing_id: price.pricing_id ?? null,
          price_date: price.price_date ?? row.price_date ?? null,
        });
      }
    }
    return rows;
  }

  async function load(key: CatalogKey): Promise<InstanceTypeRow[]> {
    const rows = await list(key, key.operatingSystem);
    if (rows.length > 0 || key.operatingSystem !== "windows" || key.usageType !== "on_demand") return rows;
    return windowsFromLinux(key);
  }

  return {
    catalog(key) {
      const cacheKey = [key.accountId, key.provider, key.region, key.operatingSystem, key.usageType].join("\u0000");
      const hit = cache.get(cacheKey);
      if (hit && hit.expires > Date.now()) return hit.rows;
      const rows = load(key);
      cache.set(cacheKey, { expires: Date.now() + cacheTtlMs, rows });
      rows.catch((err) => {
        cache.delete(cacheKey);
        if (!(err instanceof PricingUnavailableError)) logger.warn({ err }, "compute catalog could not be loaded");
      });
      return rows;
    },
  };
}
