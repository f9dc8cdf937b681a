import type { Invitation as InvitationBody, InvitationStatus, Inviter, ReceivedInvitation } from "@cloudcost/contracts";
import type { Invitation } from "../generated/prisma/client";
import type { Tx } from "../transactions";
import type { Prisma } from "../db";
import type { InvitationRepository } from "./repository";

export function statusOf(row: Invitation, now = new Date()): InvitationStatus {
  if (row.acceptedAt) return "accepted";
  if (row.declinedAt) return "declined";
  if (row.revokedAt) return "revoked";
  return row.expiresAt <= now ? "expired" : "pending";
}

/** Names of the users who sent `rows`, keyed by organization and user id. */
export type InviterNames = Map<string, string>;
const inviterKey = (organizationId: string, userId: string) => `${organizationId}/${userId}`;

export async function inviterNames(invitations: Pick<InvitationRepository, "findUserNames">, db: Prisma | Tx, rows: Invitation[]): Promise<InviterNames> {
  const wanted = rows.flatMap((r) => (r.invitedByUserId ? [{ organizationId: r.organizationId, id: r.invitedByUserId }] : []));
  if (wanted.length === 0) return new Map();
  const users = await invitations.findUserNames(db, wanted);
  return new Map(users.map((u) => [inviterKey(u.organizationId, u.id), u.name]));
}

function inviterOf(row: Invitation, names: InviterNames): Inviter {
  if (!row.invitedByUserId) return null;
  return { user_id: row.invitedByUserId, name: names.get(inviterKey(row.organizationId, row.invitedByUserId)) ?? "" };
}

export const toInvitation = (row: Invitation, names: InviterNames): InvitationBody => ({
  id: row.id,
  organization_id: row.organizationId,
  email: row.email,
  role: row.role,
  tenant_ids: row.tenantIds,
  name: row.name,
  job_title: row.jobTitle,
  invited_by: inviterOf(row, names),
  invited_by_api_key_id: row.invitedByApiKeyId,
  status: statusOf(row),
  created_at: row.createdAt.toISOString(),
  expires_at: row.expiresAt.toISOString(),
  accepted_at: row.acceptedAt?.toISOString() ?? null,
  declined_at: row.declinedAt?.toISOString() ?? null,
  revoked_at: row.revokedAt?.toISOString() ?? null,
});

export const toReceivedInvitation = (row: Invitation & { organization: { name: string } }, names: InviterNames): ReceivedInvitation => ({
  id: row.id,
  organization_id: row.organizationId,
  organization_name: row.organization.name,
  role: row.role,
  tenant_ids: row.tenantIds,
  invited_by: inviterOf(row, names),
  expires_at: row.expiresAt.toISOString(),
  created_at: row.createdAt.toISOString(),
});
