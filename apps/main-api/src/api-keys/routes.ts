import { Router } from "express";
import { ApiKeyPathParams, CreateApiKeyRequest, PaginationQuery } from "@cloudcost/contracts";
import { parseOr400 } from "@cloudcost/http";
import { principalOf } from "../auth/middleware";
import type { AppDeps } from "../deps";
import { sendData } from "../http/envelope";
import { createApiKey, listApiKeys, revokeApiKey } from "./service";

/** A repeated creation (same Idempotency-Key) answers this 409: the plaintext is never stored to be replayed. */
export const keyCreationReplay = (): string =>
  "This API key was already created with this Idempotency-Key; a key is shown only once: revoke it if its secret was lost and create a new one.";

/** `/api/v1/settings/api-keys` of the caller's organization (behind authenticate). */
export function apiKeyRoutes(deps: AppDeps): Router {
  const router = Router();
  const { prisma, outbox } = deps;

  router.get("/", async (req, res) => {
    const query = parseOr400(PaginationQuery, req.query, "query");
    sendData(res, await listApiKeys(prisma, principalOf(req), query), "API keys of the organization.");
  });

  router.post("/", async (req, res) => {
    const body = parseOr400(CreateApiKeyRequest, req.body, "request body");
    const created = await createApiKey(prisma, principalOf(req), body);
    outbox.kick(); // deliver to the pricing API now; the poller retries if it is down
    sendData(res, created, "API key created: store `key` now, it is not shown again.", 201);
  });

  router.delete("/:id", async (req, res) => {
    const { id } = parseOr400(ApiKeyPathParams, req.params, "path");
    const revoked = await revokeApiKey(prisma, principalOf(req), id);
    outbox.kick();
    sendData(res, revoked, "API key revoked.");
  });

  return router;
}
