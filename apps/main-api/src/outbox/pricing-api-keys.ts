import { z } from "zod";
import { PricingApiKey, PricingKeyRole } from "@cloudcost/contracts";
import { signServiceToken } from "@cloudcost/credentials";
import type { OutboxHandler } from "./worker";

export const PROVISION_TOPIC = "pricing.api_key.provision";
export const REVOKE_TOPIC = "pricing.api_key.revoke";

/**
 * What the outbox carries for a key: never the plaintext, only what the pricing API stores. `role`
 * (the key's effective role) and `suspended` are absent from messages written before keys carried
 * them; the pricing API then keeps what it has (admin for a key it never saw with a role), and the
 * resync the migration `creator_bound_api_keys` enqueued follows them.
 */
export const ApiKeySyncPayload = z.object({
  key_hash: z.string(),
  id: z.string(),
  prefix: z.string(),
  name: z.string().nullable(),
  role: PricingKeyRole.optional(),
  suspended: z.boolean().optional(),
});
export type ApiKeySyncPayload = z.infer<typeof ApiKeySyncPayload>;

const TIMEOUT_MS = 10_000;

/**
 * Handlers that mirror main-API keys into the pricing API's internal endpoints (account = the
 * organization). Provisioning (also a later change of a key's role or suspension) is confirmed by
 * 200/201 with the stored role and suspension echoed, revocation by 200/404.
 */
export function pricingApiKeyHandlers(pricingApiUrl: string, serviceSecret: Uint8Array): Record<string, OutboxHandler> {
  const call = async (method: "PUT" | "DELETE", keyHash: string, body: unknown, accepted: number[]) => {
    // A token per attempt, signed for exactly this request (the pricing API accepts each once).
    const path = `/internal/api-keys/${keyHash}`;
    const res = await fetch(`${pricingApiUrl.replace(/\/$/, "")}${path}`, {
      method,
      headers: { "content-type": "application/json", authorization: `Bearer ${await signServiceToken(serviceSecret, { method, path })}` },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    const text = await res.text().catch(() => "");
    if (!accepted.includes(res.status)) throw new Error(`pricing API answered ${res.status} to ${method}: ${text.slice(0, 200)}`);
    return text;
  };
  return {
    [PROVISION_TOPIC]: async (payload, organizationId) => {
      const key = ApiKeySyncPayload.parse(payload);
      const state = { account_id: organizationId, id: key.id, prefix: key.prefix, name: key.name, role: key.role, suspended: key.suspended };
      const stored = PricingApiKey.safeParse(JSON.parse((await call("PUT", key.key_hash, state, [200, 201])) || "null"));
      // A pricing API that predates key roles answers without them and ignores them: retry until it
      // is upgraded rather than leave the key with more rights than it has here.
      const held =
        stored.success && (key.role === undefined || stored.data.role === key.role) && (key.suspended === undefined || stored.data.suspended === key.suspended);
      if (!held) throw new Error(`pricing API did not store the key's role and suspension (an older version?)`);
    },
    [REVOKE_TOPIC]: async (payload) => {
      const key = ApiKeySyncPayload.parse(payload);
      await call("DELETE", key.key_hash, undefined, [200, 404]);
    },
  };
}
