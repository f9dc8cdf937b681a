import type { ApiKey as ApiKeyBody, CreateApiKeyRequest, CreateApiKeyResponse, PaginationQuery } from "@cloudcost/contracts";
import { apiKeyDisplayPrefix, generateApiKey, hashApiKey } from "@cloudcost/credentials";
import { newId, TRANSACTION_OPTIONS } from "@cloudcost/db";
import { forbidden, notFound } from "@cloudcost/http";
import { isManager, type Principal, type Role } from "../auth/principal";
import type { Prisma } from "../db";
import { decodeCursor, toPage } from "../http/pagination";
import type { enqueue } from "../outbox/repository";
import { PROVISION_TOPIC, REVOKE_TOPIC } from "../outbox/pricing-api-keys";
import type { revokeSentWithKey } from "../invitations/repository";
import type { assertLiveTenants } from "../tenants/validate";
import type { Tx } from "../transactions";
import type { ApiKeyRepository, ApiKeyRow } from "./repository";
import { keySyncPayload } from "./sync";

const toApiKey = (row: ApiKeyRow): ApiKeyBody => ({
  id: row.id,
  name: row.name,
  role: row.role,
  tenant_ids: row.tenantIds,
  prefix: row.prefix,
  created_by: row.creator ? { user_id: row.creator.id, name: row.creator.name } : null,
  created_at: row.createdAt.toISOString(),
  last_used_at: row.lastUsedAt?.toISOString() ?? null,
  revoked_at: row.revokedAt?.toISOString() ?? null,
});

export interface ApiKeyServiceDeps {
  /** Opens the transactions; every query goes through the repositories below. */
  prisma: Prisma;
  apiKeys: ApiKeyRepository;
  /** The outbox message that provisions or revokes the key in the pricing API, in the key's transaction. */
  outbox: { enqueue: typeof enqueue };
  invitations: { revokeSentWithKey: typeof revokeSentWithKey };
  tenants: { assertLiveTenants: typeof assertLiveTenants };
}

export type ApiKeyService = ReturnType<typeof createApiKeyService>;

/** The API keys of the caller's organization (owners and admins signed in as people: the table says so, authorize checks it). */
export function createApiKeyService({ prisma, apiKeys, outbox, invitations, tenants }: ApiKeyServiceDeps) {
  /**
   * Creates a key (plaintext returned once, only its hash stored) and, in the same transaction, the
   * outbox message that provisions it in the pricing API.
   */
  async function createApiKey(caller: Principal, body: CreateApiKeyRequest): Promise<CreateApiKeyResponse> {
    const organizationId = caller.organizationId;
    const key = generateApiKey();
    const row = await prisma.$transaction(async (tx) => {
      const creator = await lockCreator(tx, organizationId, caller.userId);
      // Admin keys reach every tenant, like admins; member and viewer keys only the listed ones.
      const tenantIds = body.role === "admin" ? [] : await tenants.assertLiveTenants(tx, organizationId, body.tenant_ids ?? []);
      const created = await apiKeys.insertApiKey(tx, {
        organizationId,
        id: newId("key"),
        name: body.name,
        role: body.role,
        tenantIds,
        keyHash: hashApiKey(key),
        prefix: apiKeyDisplayPrefix(key),
        createdByUserId: caller.userId,
      });
      const payload = keySyncPayload(created, creator);
      await outbox.enqueue(tx, { organizationId, topic: PROVISION_TOPIC, aggregateId: created.id, payload });
      return created;
    }, TRANSACTION_OPTIONS);
    return { ...toApiKey(row), key };
  }

  /**
   * The creating user as it is now, its row share-locked until the key is committed: a concurrent
   * change of the user's role or active state (users/service.ts updateUser) then either happens
   * first and is seen here, or waits and re-syncs the new key with the user's other keys.
   */
  async function lockCreator(tx: Tx, organizationId: string, userId: string | null): Promise<{ role: Role; active: boolean }> {
    const creator = userId ? await apiKeys.lockCreatorRow(tx, organizationId, userId) : undefined;
    if (!creator?.active || !isManager(creator.role)) throw forbidden("Only active owners and admins create API keys.");
    return creator;
  }

  async function listApiKeys(caller: Principal, query: PaginationQuery) {
    const { organizationId } = caller;
    const after = decodeCursor(query.cursor);
    const rows = await apiKeys.findApiKeys(prisma, organizationId, after, query.limit + 1);
    return toPage(rows, query.limit, toApiKey);
  }

  /**
   * Revokes a key at once here and, through the outbox, in the pricing API, and the pending
   * invitations sent with it. Any owner or admin may revoke any key of the organization (revoking
   * only ever removes access). Revoking twice is harmless.
   */
  async function revokeApiKey(caller: Principal, id: string): Promise<ApiKeyBody> {
    const { organizationId } = caller;
    return prisma.$transaction(async (tx) => {
      const current = await apiKeys.findApiKey(tx, organizationId, id);
      if (!current) throw notFound(`API key ${id} does not exist in this organization.`);
      if (current.revokedAt) return toApiKey(current);
      const now = new Date();
      const updated = await apiKeys.markRevoked(tx, organizationId, id, now);
      const row = await apiKeys.findApiKeyOrThrow(tx, organizationId, id);
      if (updated > 0) {
        await outbox.enqueue(tx, { organizationId, topic: REVOKE_TOPIC, aggregateId: id, payload: keySyncPayload(row, null) });
        // What was sent with the key goes with it: its pending invitations are revoked.
        await invitations.revokeSentWithKey(tx, organizationId, id, now);
      }
      return toApiKey(row);
    }, TRANSACTION_OPTIONS);
  }

  return { createApiKey, listApiKeys, revokeApiKey };
}
