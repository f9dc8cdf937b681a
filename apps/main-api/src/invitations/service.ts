import type { Invitation as InvitationBody, InviteUserRequest, PaginationQuery } from "@cloudcost/contracts";
import { isUniqueViolation, newId, TRANSACTION_OPTIONS } from "@cloudcost/db";
import { conflict, forbidden, notFound } from "@cloudcost/http";
import { normalizeEmail } from "../auth/email";
import type { Principal } from "../auth/principal";
import type { Prisma } from "../db";
import { decodeCursor, toPage } from "../http/pagination";
import { assertMember } from "../organizations/access";
import { assertLiveTenants } from "../tenants/validate";
import { mayInvite } from "./inviter-rights";
import { findUserByEmail } from "../users/repository";
import { findInvitation, findInvitations, insertInvitation, revokeExpired, revokeOpen } from "./repository";
import { inviterNames, statusOf, toInvitation } from "./serialize";

export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;
export const INVITATION_SENT = "Invitation sent: the invitee sees it in GET /api/v1/invitations and accepts or declines it.";

/**
 * Creates a pending invitation of `body.email` (owners and admins; only owners invite owners; an
 * API key invites neither admins nor owners). The partial unique index on open invitations decides
 * between concurrent invitations of one address; an expired one nobody answered gives way.
 */
export async function createInvitation(prisma: Prisma, caller: Principal, organizationId: string, body: InviteUserRequest): Promise<InvitationBody> {
  assertMember(caller, organizationId);
  if (caller.kind === "api_key" && (body.role === "admin" || body.role === "owner")) {
    throw forbidden("An API key cannot invite admins or owners: send this invitation signed in as an owner or admin.");
  }
  if (!mayInvite(caller.role, body.role)) throw forbidden("Only owners can invite owners.");
  const email = normalizeEmail(body.email);
  try {
    const row = await prisma.$transaction(async (tx) => {
      const tenantIds = await assertLiveTenants(tx, organizationId, body.tenant_ids ?? []);
      const member = await findUserByEmail(tx, organizationId, email);
      if (member?.active) throw conflict(`${email} is already an active member of this organization.`);
      const now = new Date();
      await revokeExpired(tx, organizationId, email, now);
      return insertInvitation(tx, {
        organizationId,
        id: newId("inv"),
        email,
        role: body.role,
        tenantIds,
        name: body.name ?? null,
        jobTitle: body.job_title || null,
        invitedByUserId: caller.userId,
        invitedByApiKeyId: caller.userId ? null : caller.apiKeyId,
        createdAt: now,
        expiresAt: new Date(now.getTime() + INVITATION_TTL_MS),
      });
    }, TRANSACTION_OPTIONS);
    return toInvitation(row, await inviterNames(prisma, [row]));
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(`${email} already has a pending invitation to this organization: revoke it to send another.`);
    throw err;
  }
}

/** Every invitation of the organization (any status), oldest first. */
export async function listInvitations(prisma: Prisma, caller: Principal, organizationId: string, query: PaginationQuery) {
  assertMember(caller, organizationId);
  const after = decodeCursor(query.cursor);
  const rows = await findInvitations(prisma, organizationId, after, query.limit + 1);
  const names = await inviterNames(prisma, rows.slice(0, query.limit));
  return toPage(rows, query.limit, (row) => toInvitation(row, names));
}

/** Revokes an open invitation (expired ones included); 409 once it was answered or revoked. */
export async function revokeInvitation(prisma: Prisma, caller: Principal, organizationId: string, id: string): Promise<void> {
  assertMember(caller, organizationId);
  if ((await revokeOpen(prisma, organizationId, id, new Date())) === 1) return;
  const row = await findInvitation(prisma, organizationId, id);
  if (!row) throw notFound(`Invitation ${id} is not in this organization.`);
  throw conflict(`Invitation ${id} was already ${statusOf(row)}.`);
}
