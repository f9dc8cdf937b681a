import { Router, type Request } from "express";
import { ApiKeyPathParams, CreateApiKeyRequest, PaginationQuery } from "@cloudcost/contracts";
import { forbidden, parseOr400 } from "@cloudcost/http";
import type { AppDeps } from "../app";
import { principalOf } from "../auth/middleware";
import { isManager } from "../auth/principal";
import { sendData } from "../http/envelope";
import type { OutboxWorker } from "../outbox";
import { createApiKey, listApiKeys, revokeApiKey } from "./service";

/** Keys are managed by owners and admins signed in as users: a key cannot mint or revoke keys. */
function keyManager(req: Request) {
  const principal = principalOf(req);
  if (principal.kind !== "user") throw forbidden("API keys cannot manage API keys: sign in as an owner or admin.");
  if (!isManager(principal.role)) throw forbidden(`Only owners and admins manage API keys; the caller is ${principal.role}.`);
  return principal;
}

/** A repeated creation (same Idempotency-Key) answers this 409: the plaintext is never stored to be replayed. */
export const keyCreationReplay = (): string =>
  "This API key was already created with this Idempotency-Key; a key is shown only once: revoke it if its secret was lost and create a new one.";

/** `/api/v1/settings/api-keys` of the caller's organization (behind authenticate). */
export function apiKeyRoutes(deps: AppDeps, outbox: OutboxWorker): Router {
  const router = Router();

  router.get("/", async (req, res) => {
    const query = parseOr400(PaginationQuery, req.query, "query");
    const caller = keyManager(req);
    sendData(res, await listApiKeys(deps.prisma, caller.organizationId, query), "API keys of the organization.");
  });

  router.post("/", async (req, res) => {
    const body = parseOr400(CreateApiKeyRequest, req.body, "request body");
    const caller = keyManager(req);
    const created = await createApiKey(deps.prisma, caller, body);
    outbox.kick(); // deliver to the pricing API now; the poller retries if it is down
    sendData(res, created, "API key created: store `key` now, it is not shown again.", 201);
  });

  router.delete("/:id", async (req, res) => {
    const { id } = parseOr400(ApiKeyPathParams, req.params, "path");
    const caller = keyManager(req);
    const revoked = await revokeApiKey(deps.prisma, caller.organizationId, id);
    outbox.kick();
    sendData(res, revoked, "API key revoked.");
  });

  return router;
}
