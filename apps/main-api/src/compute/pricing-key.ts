import { apiKeyDisplayPrefix, deriveApiKey, hashApiKey, loadServiceSecret, signServiceToken } from "@cloudcost/credentials";
import type { Config } from "../config";

/** The pricing API account the main API's own analysis key belongs to. */
export const SYSTEM_PRICING_ACCOUNT = "main-api";

export interface PricingKey {
  key: string;
  /** Registers a derived key with the pricing API (idempotent); a configured key needs nothing. */
  provision(): Promise<void>;
}

/**
 * PRICING_API_KEY when configured; otherwise a key derived from SERVICE_TOKEN_SECRET, registered
 * with the pricing API through its internal endpoint on first need, so the analysis works with no
 * set-up step and nothing secret is stored.
 */
export function resolvePricingKey(config: Config): PricingKey {
  if (config.pricingApiKey) return { key: config.pricingApiKey, provision: async () => undefined };
  const secret = loadServiceSecret(config.serviceTokenSecret, config.dataRoot);
  const key = deriveApiKey(secret, "cloudcost:main-api:pricing-key");
  return {
    key,
    async provision() {
      const path = `/internal/api-keys/${hashApiKey(key)}`;
      const res = await fetch(`${config.pricingApiUrl.replace(/\/$/, "")}${path}`, {
        method: "PUT",
        headers: { "content-type": "application/json", authorization: `Bearer ${await signServiceToken(secret, { method: "PUT", path })}` },
        // It only reads compute prices: a viewer key is enough.
        body: JSON.stringify({ account_id: SYSTEM_PRICING_ACCOUNT, prefix: apiKeyDisplayPrefix(key), name: "main API analysis", role: "viewer" }),
        signal: AbortSignal.timeout(config.pricingApiTimeoutMs),
      });
      if (res.status !== 200 && res.status !== 201) throw new Error(`pricing API refused the main API's key: ${res.status}`);
    },
  };
}
