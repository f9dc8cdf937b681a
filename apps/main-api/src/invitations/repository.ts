import type { Role } from "@cloudcost/contracts";
import type { CheckedStatement } from "@cloudcost/db";
import type { Prisma } from "../db";
import type { Invitation, Prisma as Models } from "../generated/prisma/client";
import type { Tx } from "../transactions";

type Db = Prisma | Tx;

/** Invitations not yet accepted, declined or revoked (the condition of the partial unique index). */
const OPEN = { acceptedAt: null, declinedAt: null, revokedAt: null } as const;

const HOLD_ORGANIZATION_SQL = "SELECT id FROM organizations WHERE id = $1 FOR KEY SHARE";

/**
 * Holds the organization row (FOR KEY SHARE, the lock the invitation's foreign key takes anyway)
 * before the sender's row is read: a membership change (users/service.ts, me/leave.ts)
 * locks the organization FOR UPDATE first, so it either ends before the sender is read or waits
 * until the invitation is committed, and then revokes it if it must.
 */
export async function holdOrganization(tx: Tx, organizationId: string): Promise<void> {
  await tx.$executeRawUnsafe(HOLD_ORGANIZATION_SQL, organizationId);
}

export function insertInvitation(tx: Tx, data: Models.InvitationUncheckedCreateInput): Promise<Invitation> {
  return tx.invitation.create({ data });
}

/** Revokes the open invitations of `email` to the organization that expired by `now` (a new one may then be sent). */
export async function revokeExpired(tx: Tx, organizationId: string, email: string, now: Date): Promise<void> {
  await tx.invitation.updateMany({ where: { organizationId, email, ...OPEN, expiresAt: { lte: now } }, data: { revokedAt: now } });
}

/** A page of the organization's invitations by id: `limit` rows after `after`. */
export function findInvitations(db: Db, organizationId: string, after: string | undefined, limit: number): Promise<Invitation[]> {
  return db.invitation.findMany({
    where: { organizationId, ...(after ? { id: { gt: after } } : {}) },
    orderBy: { id: "asc" },
    take: limit,
  });
}

export function findInvitation(db: Db, organizationId: string, id: string): Promise<Invitation | null> {
  return db.invitation.findUnique({ where: { organizationId_id: { organizationId, id } } });
}

/** Revokes the invitation if open (expired included); returns how many rows changed. */
export async function revokeOpen(db: Db, organizationId: string, id: string, now: Date): Promise<number> {
  const { count } = await db.invitation.updateMany({ where: { organizationId, id, ...OPEN }, data: { revokedAt: now } });
  return count;
}

/** Revokes the pending invitations `userId` sent of a role not in `allowed`; returns how many. */
export async function revokeSentBeyond(tx: Tx, organizationId: string, userId: string, allowed: Role[], now: Date): Promise<number> {
  const { count } = await tx.invitation.updateMany({
    where: { organizationId, invitedByUserId: userId, ...OPEN, expiresAt: { gt: now }, role: { notIn: allowed } },
    data: { revokedAt: now },
  });
  return count;
}

/** Revokes the pending invitations sent with API key `apiKeyId`; returns how many. */
export async function revokeSentWithKey(tx: Tx, organizationId: string, apiKeyId: string, now: Date): Promise<number> {
  const { count } = await tx.invitation.updateMany({
    where: { organizationId, invitedByApiKeyId: apiKeyId, ...OPEN, expiresAt: { gt: now } },
    data: { revokedAt: now },
  });
  return count;
}

// The invitee's side is scoped by e-mail, not organization: an invitee belongs to none yet.

/** A page of the pending, unexpired invitations of `email`, by id, with their organization's name. */
export function findReceived(db: Db, email: string, now: Date, after: string | undefined, limit: number) {
  return db.invitation.findMany({
    where: { email, ...OPEN, expiresAt: { gt: now }, ...(after ? { id: { gt: after } } : {}) },
    orderBy: { id: "asc" },
    take: limit,
    include: { organization: { select: { name: true } } },
  });
}

/** Marks the pending, unexpired invitation `id` of `email` accepted; undefined when there is none. */
export async function acceptPending(tx: Tx, id: string, email: string, now: Date): Promise<Invitation | undefined> {
  const [invitation] = await tx.invitation.updateManyAndReturn({ where: { id, email, ...OPEN, expiresAt: { gt: now } }, data: { acceptedAt: now } });
  return invitation;
}

/** Marks the pending, unexpired invitation `id` of `email` declined; returns how many rows changed. */
export async function declinePending(db: Db, id: string, email: string, now: Date): Promise<number> {
  const { count } = await db.invitation.updateMany({ where: { id, email, ...OPEN, expiresAt: { gt: now } }, data: { declinedAt: now } });
  return count;
}

/** The names of these users (organization and id), for the inviters of a page. */
export function findUserNames(db: Db, users: { organizationId: string; id: string }[]) {
  return db.user.findMany({ where: { OR: users }, select: { organizationId: true, id: true, name: true } });
}

/** The raw statements of this module, for test/repository-row-types.test.ts. */
export function checkedStatements(): CheckedStatement[] {
  return [{ name: "invitation organization hold", sql: HOLD_ORGANIZATION_SQL, columns: null }];
}

/** What the invitation services read and write; each function takes the client or the transaction it runs in. */
export const invitationRepository = {
  holdOrganization,
  insertInvitation,
  revokeExpired,
  findInvitations,
  findInvitation,
  revokeOpen,
  revokeSentBeyond,
  revokeSentWithKey,
  findReceived,
  acceptPending,
  declinePending,
  findUserNames,
};
export type InvitationRepository = typeof invitationRepository;
