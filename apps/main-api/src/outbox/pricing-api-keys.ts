import { z } from "zod";
import { isApiError } from "@cloudcost/client";
import { PricingKeyRole } from "@cloudcost/contracts";
import { internalPricingRoutes } from "../pricing/internal-routes";
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
  // A token per attempt, signed for exactly this request (the pricing API accepts each once).
  const routes = internalPricingRoutes(pricingApiUrl, serviceSecret);
  /** The operation's answer; a refusal other than `accepted` fails the delivery (the outbox retries it). */
  const call = async <T>(method: string, send: (signal: AbortSignal) => Promise<T>, accepted: number[] = []): Promise<T | undefined> => {
    try {
      return await send(AbortSignal.timeout(TIMEOUT_MS));
    } catch (err) {
      if (!isApiError(err) || err.code === "invalid_response" || err.status === 0) throw err;
      if (accepted.includes(err.status)) return undefined;
      const text = typeof err.body === "string" ? err.body : JSON.stringify(err.body ?? "");
      throw new Error(`pricing API answered ${err.status} to ${method}: ${text.slice(0, 200)}`);
    }
  };
  return {
    [PROVISION_TOPIC]: async (payload, organizationId) => {
      const key = ApiKeySyncPayload.parse(payload);
      const body = { account_id: organizationId, id: key.id, prefix: key.prefix, name: key.name, role: key.role, suspended: key.suspended };
      // A pricing API that predates key roles answers without them (a body the contract refuses) and
      // ignores them: retry until it is upgraded rather than leave the key with more rights than it has here.
      const stored = await call("PUT", (signal) => routes.provisionApiKey({ params: { keyHash: key.key_hash }, body, signal })).catch((err) => {
        if (isApiError(err, "invalid_response")) return undefined;
        throw err;
      });
      const held = !!stored && (key.role === undefined || stored.role === key.role) && (key.suspended === undefined || stored.suspended === key.suspended);
      if (!held) throw new Error(`pricing API did not store the key's role and suspension (an older version?)`);
    },
    [REVOKE_TOPIC]: async (payload) => {
      const key = ApiKeySyncPayload.parse(payload);
      // Revoked now, or unknown there (never provisioned, or already gone): either way done.
      await call("DELETE", (signal) => routes.revokeApiKeyByHash({ params: { keyHash: key.key_hash }, signal }), [404]);
    },
  };
}
