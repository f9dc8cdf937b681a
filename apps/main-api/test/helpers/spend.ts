import { signServiceToken } from "@cloudcost/credentials";
import { TEST_SERVICE_TOKEN_SECRET } from "./context";
import type { RunningPricingApi } from "./pricing-api";

const LABEL = "costs.example.com/pricing-id.model";

/** Registers model token prices for an account (an organization's pricing account) through the pricing API itself; returns the entries' ids by bucket. */
export async function registerModelPrices(
  pricing: RunningPricingApi,
  accountId: string,
  model: string,
  prices: { bucket: string; perMtok: number; from?: string; currency?: string }[],
  options: { modelId?: string } = {},
): Promise<Record<string, string>> {
  const path = `/internal/accounts/${accountId}/api-keys`;
  const token = await signServiceToken(new TextEncoder().encode(TEST_SERVICE_TOKEN_SECRET), { method: "POST", path });
  const created = await fetch(`${pricing.url}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: "{}",
  });
  if (created.status !== 201) throw new Error(`account key: ${created.status} ${await created.text()}`);
  const { key } = (await created.json()) as { key: string };
  const entries = prices.map((price) => ({
    provider: "openai",
    model,
    ...(options.modelId ? { model_id: options.modelId } : {}),
    token_bucket: price.bucket,
    unit_price_per_mtok: price.perMtok,
    currency: price.currency ?? "USD",
    effective_from: price.from ?? "2026-01-01T00:00:00.000Z",
  }));
  const res = await fetch(`${pricing.url}/marketplace/providers/models`, {
    method: "POST",
    headers: { "x-api-key": key, "content-type": "application/json" },
    body: JSON.stringify({ entries }),
  });
  if (res.status !== 201) throw new Error(`register models: ${res.status} ${await res.text()}`);
  const body = (await res.json()) as { entries: { id: string; token_bucket: string }[] };
  return Object.fromEntries(body.entries.map((entry) => [entry.token_bucket, entry.id]));
}

/** A model usage line naming a price entry (or none). */
export const modelUsage = (pricingId: string | null, quantities: Record<string, number>, extra: Record<string, unknown> = {}) => ({
  resource_id: "gpt-4o",
  kind: "model",
  timestamp: "2026-10-05T10:30:00.000Z",
  labels: pricingId ? { [LABEL]: pricingId } : {},
  quantities,
  ...extra,
});
