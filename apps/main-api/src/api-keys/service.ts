import type { ApiKey as ApiKeyBody, CreateApiKeyRequest, CreateApiKeyResponse, PaginationQuery } from "@cloudcost/contracts";
import { apiKeyDisplayPrefix, generateApiKey, hashApiKey } from "@cloudcost/credentials";
import { newId, TRANSACTION_OPTIONS } from "@cloudcost/db";
import { notFound } from "@cloudcost/http";
import type { Principal } from "../auth/principal";
import type { Prisma } from "../db";
import type { ApiKey } from "../generated/prisma/client";
import { decodeCursor, toPage } from "../http/pagination";
import { enqueue } from "../outbox/repository";
import { PROVISION_TOPIC, REVOKE_TOPIC, type ApiKeySyncPayload } from "../outbox/pricing-api-keys";
import { assertLiveTenants } from "../tenants/validate";
import { assertKeyManager } from "./access";

const toApiKey = (row: ApiKey): ApiKeyBody => ({
  id: row.id,
  name: row.name,
  role: row.role,
  tenant_ids: row.tenantIds,
  prefix: row.prefix,
  created_at: row.createdAt.toISOString(),
  last_used_at: row.lastUsedAt?.toISOString() ?? null,
  revoked_at: row.revokedAt?.toISOString() ?? null,
});

const syncPayload = (row: ApiKey): ApiKeySyncPayload => ({ key_hash: row.keyHash, id: row.id, prefix: row.prefix, name: row.name });

/**
 * Creates a key (plaintext returned once, only its hash stored) and, in the same transaction, the
 * outbox message that provisions it in the pricing API.
 */
export async function createApiKey(prisma: Prisma, caller: Principal, body: CreateApiKeyRequest): Promise<CreateApiKeyResponse> {
  assertKeyManager(caller);
  const organizationId = caller.organizationId;
  const key = generateApiKey();
  const row = await prisma.$transaction(async (tx) => {
    // Admin keys reach every tenant, like admins; member and viewer keys only the listed ones.
    const tenantIds = body.role === "admin" ? [] : await assertLiveTenants(tx, organizationId, body.tenant_ids ?? []);
    const created = await tx.apiKey.create({
      data: {
        organizationId,
        id: newId("key"),
        name: body.name,
        role: body.role,
        tenantIds,
        keyHash: hashApiKey(key),
        prefix: apiKeyDisplayPrefix(key),
        createdByUserId: caller.userId,
      },
    });
    await enqueue(tx, { organizationId, topic: PROVISION_TOPIC, aggregateId: created.id, payload: syncPayload(created) });
    return created;
  }, TRANSACTION_OPTIONS);
  return { ...toApiKey(row), key };
}

export async function listApiKeys(prisma: Prisma, caller: Principal, query: PaginationQuery) {
  assertKeyManager(caller);
  const { organizationId } = caller;
  const after = decodeCursor(query.cursor);
  const rows = await prisma.apiKey.findMany({
    where: { organizationId, ...(after ? { id: { gt: after } } : {}) },
    orderBy: { id: "asc" },
    take: query.limit + 1,
  });
  return toPage(rows, query.limit, toApiKey);
}

/** Revokes a key at once here and, through the outbox, in the pricing API. Revoking twice is harmless. */
export async function revokeApiKey(prisma: Prisma, caller: Principal, id: string): Promise<ApiKeyBody> {
  assertKeyManager(caller);
  const { organizationId } = caller;
  return prisma.$transaction(async (tx) => {
    const where = { organizationId_id: { organizationId, id } };
    const current = await tx.apiKey.findUnique({ where });
    if (!current) throw notFound(`API key ${id} does not exist in this organization.`);
    if (current.revokedAt) return toApiKey(current);
    const updated = await tx.apiKey.updateManyAndReturn({ where: { organizationId, id, revokedAt: null }, data: { revokedAt: new Date() } });
    if (updated.length === 0) return toApiKey(await tx.apiKey.findUniqueOrThrow({ where }));
    await enqueue(tx, { organizationId, topic: REVOKE_TOPIC, aggregateId: id, payload: syncPayload(updated[0]) });
    return toApiKey(updated[0]);
  }, TRANSACTION_OPTIONS);
}
