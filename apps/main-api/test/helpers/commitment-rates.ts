import { signServiceToken } from "@cloudcost/credentials";
import { TEST_SERVICE_TOKEN_SECRET } from "./context";
import type { RunningPricingApi } from "./pricing-api";

/** A new admin key of an account (an organization's pricing account), made by the pricing API's operator route. */
export async function pricingAccountKey(pricing: RunningPricingApi, accountId: string): Promise<string> {
  const path = `/internal/accounts/${accountId}/api-keys`;
  const token = await signServiceToken(new TextEncoder().encode(TEST_SERVICE_TOKEN_SECRET), { method: "POST", path });
  const created = await fetch(`${pricing.url}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: "{}",
  });
  if (created.status !== 201) throw new Error(`account key: ${created.status} ${await created.text()}`);
  return ((await created.json()) as { key: string }).key;
}

/** Registers commitment rates for an account through the pricing API itself; returns the stored rates. */
export async function registerCommitmentRates(pricing: RunningPricingApi, accountId: string, entries: Record<string, unknown>[]): Promise<{ id: string }[]> {
  const key = await pricingAccountKey(pricing, accountId);
  const res = await fetch(`${pricing.url}/marketplace/providers/commitment-rates`, {
    method: "POST",
    headers: { "x-api-key": key, "content-type": "application/json" },
    body: JSON.stringify({ entries }),
  });
  if (res.status !== 201) throw new Error(`commitment rates: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { entries: { id: string }[] }).entries;
}
