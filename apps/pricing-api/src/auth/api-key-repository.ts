import type { PricingKeyRole } from "@cloudcost/contracts";
import type { Prisma } from "../db";
import type { ApiKey } from "../generated/prisma/client";

type Tx = Parameters<Parameters<Prisma["$transaction"]>[0]>[0];

/** What a request's key is checked against. */
export function findKeyState(prisma: Prisma, keyHash: string) {
  return prisma.apiKey.findUnique({
    where: { keyHash },
    select: { accountId: true, id: true, revokedAt: true, suspended: true, role: true },
  });
}

export function findKey(prisma: Prisma, keyHash: string): Promise<ApiKey | null> {
  return prisma.apiKey.findUnique({ where: { keyHash } });
}

/** Sets the given fields (undefined: unchanged). */
export function updateKey(
  prisma: Prisma,
  keyHash: string,
  data: { name?: string | null; role?: PricingKeyRole; suspended?: boolean; revokedAt?: Date },
): Promise<ApiKey> {
  return prisma.apiKey.update({ where: { keyHash }, data });
}

export async function ensureAccount(tx: Tx, accountId: string): Promise<void> {
  await tx.account.upsert({ where: { id: accountId }, create: { id: accountId }, update: {} });
}

export function insertKey(
  tx: Tx,
  data: { accountId: string; id: string; keyHash: string; prefix: string; name: string | null; role?: PricingKeyRole; suspended?: boolean },
): Promise<ApiKey> {
  return tx.apiKey.create({ data });
}

export async function touchKey(prisma: Prisma, accountId: string, id: string, at: Date): Promise<void> {
  await prisma.apiKey.updateMany({ where: { accountId, id }, data: { lastUsedAt: at } });
}
