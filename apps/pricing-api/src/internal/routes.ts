import { Router } from "express";
import {
  CreateAccountKeyRequest,
  KeyHash,
  ProvisionApiKeyRequest,
  ServiceId,
  type CreatedPricingApiKey,
  type PricingApiKey,
} from "@cloudcost/contracts";
import { conflict, notFound, parseOr400 } from "@cloudcost/http";
import type { ApiKeyStore } from "../auth/api-key-store";
import type { ApiKey } from "../generated/prisma/client";
import { requireServiceToken, type ServiceTokenCheck } from "./service-token";

const toBody = (row: ApiKey): PricingApiKey => ({
  id: row.id,
  account_id: row.accountId,
  name: row.name,
  prefix: row.prefix,
  role: row.role,
  suspended: row.suspended,
  created_at: row.createdAt.toISOString(),
  revoked_at: row.revokedAt?.toISOString() ?? null,
});

/** Endpoints for the main API and operator commands only, authenticated with a service token. */
export function internalRoutes(store: ApiKeyStore, serviceTokens: ServiceTokenCheck): Router {
  const router = Router();
  router.use(requireServiceToken(serviceTokens));

  router.post("/accounts/:accountId/api-keys", async (req, res) => {
    const accountId = parseOr400(ServiceId, req.params.accountId, "account id");
    const body = parseOr400(CreateAccountKeyRequest, req.body ?? {}, "request body");
    const { key, record } = await store.create(accountId, body.name);
    const created: CreatedPricingApiKey = { ...toBody(record), key };
    res.status(201).json(created);
  });

  router.put("/api-keys/:keyHash", async (req, res) => {
    const keyHash = parseOr400(KeyHash, req.params.keyHash, "key hash");
    const body = parseOr400(ProvisionApiKeyRequest, req.body, "request body");
    const result = await store.provision({
      accountId: body.account_id,
      id: body.id,
      keyHash,
      prefix: body.prefix,
      name: body.name,
      role: body.role,
      suspended: body.suspended,
    });
    if (result.conflict) throw conflict("This key is already registered to another account.");
    res.status(result.created ? 201 : 200).json(toBody(result.record));
  });

  router.delete("/api-keys/:keyHash", async (req, res) => {
    const keyHash = parseOr400(KeyHash, req.params.keyHash, "key hash");
    const row = await store.revokeByHash(keyHash);
    if (!row) throw notFound("No API key has this hash.");
    res.status(200).json(toBody(row));
  });

  return router;
}
