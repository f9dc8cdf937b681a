import type { mainApiApiKeyRoutes } from "@cloudcost/contracts";
import type { AppDeps } from "../deps";
import { created, success } from "../http/envelope";
import type { Handlers } from "../operations";
import { revokeSentWithKey } from "../invitations/repository";
import { enqueue } from "../outbox/repository";
import { assertLiveTenants } from "../tenants/validate";
import { apiKeyRepository } from "./repository";
import { createApiKeyService } from "./service";

/** A repeated creation (same Idempotency-Key) answers this 409: the plaintext is never stored to be replayed. */
export const keyCreationReplay = (): string =>
  "This API key was already created with this Idempotency-Key; a key is shown only once: revoke it if its secret was lost and create a new one.";

/** `/api/v1/settings/api-keys` of the caller's organization (authorize checks the table's roles and that the caller is a person, not a key). */
export function apiKeyHandlers(deps: Pick<AppDeps, "prisma" | "outbox">): Handlers<keyof typeof mainApiApiKeyRoutes> {
  const { outbox } = deps;
  const apiKeys = createApiKeyService({
    prisma: deps.prisma,
    apiKeys: apiKeyRepository,
    outbox: { enqueue },
    invitations: { revokeSentWithKey },
    tenants: { assertLiveTenants },
  });
  return {
    listApiKeys: async ({ query }, { principal }) => success("API keys of the organization.", await apiKeys.listApiKeys(principal, query)),
    createApiKey: async ({ body }, { principal }) => {
      const key = await apiKeys.createApiKey(principal, body);
      outbox.kick(); // deliver to the pricing API now; the poller retries if it is down
      return created("API key created: store `key` now, it is not shown again.", key);
    },
    revokeApiKey: async ({ params }, { principal }) => {
      const revoked = await apiKeys.revokeApiKey(principal, params.id);
      outbox.kick();
      return success("API key revoked.", revoked);
    },
  };
}
