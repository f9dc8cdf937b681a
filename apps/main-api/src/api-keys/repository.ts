import type { Role } from "../auth/principal";
import type { Prisma } from "../db";
import type { ApiKey, Prisma as Models } from "../generated/prisma/client";
import type { CheckedStatement, RowOf } from "@cloudcost/db";
import type { Tx } from "../transactions";

type Db = Prisma | Tx;

const withCreator = { creator: { select: { id: true, name: true } } } as const;
export type ApiKeyRow = ApiKey & { creator: { id: string; name: string } | null };

const CREATOR_COLUMNS = { role: "text", active: "bool" } as const;
type CreatorRow = Omit<RowOf<typeof CREATOR_COLUMNS>, "role"> & { role: Role };

const LOCK_CREATOR_SQL = "SELECT role::text AS role, active FROM users WHERE organization_id = $1 AND id = $2 FOR SHARE";

const KEY_COLUMNS = { created_by_user_id: "text null", revoked: "bool" } as const;
type KeyLockRow = RowOf<typeof KEY_COLUMNS>;

const LOCK_KEY_SQL = "SELECT created_by_user_id, revoked_at IS NOT NULL AS revoked FROM api_keys WHERE organization_id = $1 AND id = $2 FOR SHARE";

/**
 * The key's creator and whether it is revoked, its row share-locked until the transaction ends
 * (undefined: no such key): a concurrent revocation then either commits first and is seen here, or
 * waits, and what this transaction writes about the key is there when it goes on.
 */
export async function lockKeyRow(tx: Tx, organizationId: string, id: string): Promise<KeyLockRow | undefined> {
  const [row] = await tx.$queryRawUnsafe<KeyLockRow[]>(LOCK_KEY_SQL, organizationId, id);
  return row;
}

/** The user's role and active state, its row share-locked until the transaction ends (undefined: no such user). */
export async function lockCreatorRow(tx: Tx, organizationId: string, userId: string): Promise<CreatorRow | undefined> {
  const [row] = await tx.$queryRawUnsafe<CreatorRow[]>(LOCK_CREATOR_SQL, organizationId, userId);
  return row;
}

export function insertApiKey(tx: Tx, data: Models.ApiKeyUncheckedCreateInput): Promise<ApiKeyRow> {
  return tx.apiKey.create({ data, include: withCreator });
}

/** A page of the organization's keys by id: `limit` rows after `after`. */
export function findApiKeys(db: Db, organizationId: string, after: string | undefined, limit: number): Promise<ApiKeyRow[]> {
  return db.apiKey.findMany({
    where: { organizationId, ...(after ? { id: { gt: after } } : {}) },
    orderBy: { id: "asc" },
    take: limit,
    include: withCreator,
  });
}

export function findApiKey(db: Db, organizationId: string, id: string): Promise<ApiKeyRow | null> {
  return db.apiKey.findUnique({ where: { organizationId_id: { organizationId, id } }, include: withCreator });
}

export function findApiKeyOrThrow(db: Db, organizationId: string, id: string): Promise<ApiKeyRow> {
  return db.apiKey.findUniqueOrThrow({ where: { organizationId_id: { organizationId, id } }, include: withCreator });
}

/** Revokes the key unless it already is; returns how many rows changed. */
export async function markRevoked(tx: Tx, organizationId: string, id: string, at: Date): Promise<number> {
  const { count } = await tx.apiKey.updateMany({ where: { organizationId, id, revokedAt: null }, data: { revokedAt: at } });
  return count;
}

/** The live (unrevoked) keys the user created, by id. */
export function liveKeysOf(tx: Tx, organizationId: string, userId: string): Promise<ApiKey[]> {
  return tx.apiKey.findMany({ where: { organizationId, createdByUserId: userId, revokedAt: null }, orderBy: { id: "asc" } });
}

/** The raw statements of this module, for test/repository-row-types.test.ts. */
export function checkedStatements(): CheckedStatement[] {
  return [
    { name: "api key creator lock", sql: LOCK_CREATOR_SQL, columns: CREATOR_COLUMNS },
    { name: "api key lock", sql: LOCK_KEY_SQL, columns: KEY_COLUMNS },
  ];
}

/** What the API key service reads and writes; each function takes the client or the transaction it runs in. */
export const apiKeyRepository = { lockCreatorRow, insertApiKey, findApiKeys, findApiKey, findApiKeyOrThrow, markRevoked };
export type ApiKeyRepository = typeof apiKeyRepository;
