import type { Prisma } from "../db";
import type { Prisma as Models, Role, User } from "../generated/prisma/client";
import { type UserWithTenants, withTenantIds } from "../organizations/serialize";
import type { CheckedStatement } from "@cloudcost/db";
import type { Tx } from "../transactions";

type Db = Prisma | Tx;

const LOCK_SQL = "SELECT id FROM organizations WHERE id = $1 FOR UPDATE";

/** Serialises membership changes of one organization. */
export async function lockOrganization(tx: Tx, organizationId: string): Promise<void> {
  await tx.$executeRawUnsafe(LOCK_SQL, organizationId);
}

export function findUserWithTenants(db: Db, organizationId: string, id: string): Promise<UserWithTenants | null> {
  return db.user.findUnique({ where: { organizationId_id: { organizationId, id } }, include: withTenantIds });
}

/** Throws Prisma's not-found error when the user is missing (a caller's own user always exists). */
export function findUserWithTenantsOrThrow(db: Db, organizationId: string, id: string): Promise<UserWithTenants> {
  return db.user.findUniqueOrThrow({ where: { organizationId_id: { organizationId, id } }, include: withTenantIds });
}

/** A page of the organization's users by id: `limit` rows after `after`. */
export function findUsers(db: Db, organizationId: string, after: string | undefined, limit: number): Promise<UserWithTenants[]> {
  return db.user.findMany({
    where: { organizationId, ...(after ? { id: { gt: after } } : {}) },
    orderBy: { id: "asc" },
    take: limit,
    include: withTenantIds,
  });
}

export function findUser(db: Db, organizationId: string, id: string): Promise<User | null> {
  return db.user.findUnique({ where: { organizationId_id: { organizationId, id } } });
}

/** Throws Prisma's not-found error when the user is missing (a caller's own user always exists). */
export function findUserOrThrow(db: Db, organizationId: string, id: string): Promise<User> {
  return db.user.findUniqueOrThrow({ where: { organizationId_id: { organizationId, id } } });
}

export function countActiveOwners(db: Db, organizationId: string): Promise<number> {
  return db.user.count({ where: { organizationId, role: "owner", active: true } });
}

export async function replaceUserTenants(tx: Tx, organizationId: string, userId: string, tenantIds: string[]): Promise<void> {
  await tx.userTenant.deleteMany({ where: { organizationId, userId } });
  await tx.userTenant.createMany({ data: tenantIds.map((tenantId) => ({ organizationId, userId, tenantId })) });
}

/** Fields left undefined are unchanged. */
export function updateUserRow(
  db: Db,
  organizationId: string,
  id: string,
  data: { role?: Role; active?: boolean; name?: string; jobTitle?: string | null },
): Promise<UserWithTenants> {
  return db.user.update({ where: { organizationId_id: { organizationId, id } }, data, include: withTenantIds });
}

/** The organization's user with this e-mail, with the id of its linked identity. */
export function findUserByEmail(db: Db, organizationId: string, email: string) {
  return db.user.findUnique({ where: { organizationId_email: { organizationId, email } }, include: { identity: { select: { id: true } } } });
}

export async function insertUser(tx: Tx, data: Models.UserUncheckedCreateInput): Promise<void> {
  await tx.user.create({ data });
}

export async function updateUserProfile(tx: Tx, organizationId: string, id: string, data: Models.UserUncheckedUpdateInput): Promise<void> {
  await tx.user.update({ where: { organizationId_id: { organizationId, id } }, data });
}

export async function clearUserTenants(tx: Tx, organizationId: string, userId: string): Promise<void> {
  await tx.userTenant.deleteMany({ where: { organizationId, userId } });
}

/** The identity (issuer, subject) and whether its user is active; identities are unique across organizations. */
export function findIdentityLink(tx: Tx, issuer: string, subject: string) {
  return tx.identity.findUnique({ where: { issuer_subject: { issuer, subject } }, select: { id: true, user: { select: { active: true } } } });
}

export async function insertIdentity(tx: Tx, data: { id: string; issuer: string; subject: string; organizationId: string; userId: string }): Promise<void> {
  await tx.identity.create({ data });
}

export async function deleteIdentity(tx: Tx, id: string): Promise<void> {
  await tx.identity.delete({ where: { id } });
}

export async function unlinkIdentities(tx: Tx, organizationId: string, userId: string): Promise<void> {
  await tx.identity.deleteMany({ where: { organizationId, userId } });
}

/** The raw statements of this module, for test/repository-row-types.test.ts. */
export function checkedStatements(): CheckedStatement[] {
  return [{ name: "organization lock", sql: LOCK_SQL, columns: null }];
}

/** What the user service reads and writes; each function takes the client or the transaction it runs in. */
export const userRepository = {
  findUserWithTenants,
  findUsers,
  findUser,
  findUserOrThrow,
  lockOrganization,
  countActiveOwners,
  replaceUserTenants,
  updateUserRow,
  unlinkIdentities,
};
export type UserRepository = typeof userRepository;
