import type { ApiKeyRole, Role } from "@cloudcost/contracts";
import type { ApiKey } from "../generated/prisma/client";
import { enqueue } from "../outbox/repository";
import { PROVISION_TOPIC, type ApiKeySyncPayload } from "../outbox/pricing-api-keys";
import type { Tx } from "../transactions";
import { findUser } from "../users/repository";
import { effectiveKeyRole } from "./effective-role";
import { liveKeysOf } from "./repository";

/** What the pricing API stores for a key: its effective role and whether its creator is deactivated. */
export function keySyncPayload(key: ApiKey, creator: { role: Role; active: boolean } | null): ApiKeySyncPayload {
  return {
    key_hash: key.keyHash,
    id: key.id,
    prefix: key.prefix,
    name: key.name,
    role: creator ? effectiveKeyRole(key.role as ApiKeyRole, creator.role) : "viewer",
    suspended: !creator?.active,
  };
}

/**
 * Enqueues, in the caller's transaction, one provision message per live key `userId` created, with
 * the key's effective role and suspension as they are after the caller's change to the user (role,
 * active state, leaving the organization). Call it after that change, inside the same transaction,
 * and kick the outbox after the commit. Returns the number of messages written.
 */
export async function syncCreatorKeys(tx: Tx, organizationId: string, userId: string): Promise<number> {
  const creator = await findUser(tx, organizationId, userId);
  const keys = await liveKeysOf(tx, organizationId, userId);
  for (const key of keys) {
    await enqueue(tx, { organizationId, topic: PROVISION_TOPIC, aggregateId: key.id, payload: keySyncPayload(key, creator) });
  }
  return keys.length;
}
