import type { OrganizationContext } from "../context";
import type { Invitation as InvitationBody, InviteUserRequest, PaginationQuery } from "@cloudcost/contracts";
import { isUniqueViolation, newId, TRANSACTION_OPTIONS } from "@cloudcost/db";
import { conflict, forbidden, notFound, unauthenticated } from "@cloudcost/http";
import type { lockCreatorRow, lockKeyRow } from "../api-keys/repository";
import { normalizeEmail } from "../auth/email";
import type { Principal, Role } from "../auth/principal";
import type { Prisma } from "../db";
import { decodeCursor, toPage } from "../http/pagination";
import type { assertLiveTenants } from "../tenants/validate";
import { mayInvite } from "./inviter-rights";
import type { findUserByEmail } from "../users/repository";
import type { Tx } from "../transactions";
import type { InvitationRepository } from "./repository";
import { inviterNames, statusOf, toInvitation } from "./serialize";

export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;
export const INVITATION_SENT = "Invitation sent: the invitee sees it in GET /api/v1/invitations and accepts or declines it.";

export interface InvitationServiceDeps {
  /** Opens the transactions; every query goes through the repositories below. */
  prisma: Prisma;
  invitations: InvitationRepository;
  /** The sender's key and user rows, share-locked while the invitation is written. */
  keys: { lockKeyRow: typeof lockKeyRow; lockCreatorRow: typeof lockCreatorRow };
  users: { findUserByEmail: typeof findUserByEmail };
  tenants: { assertLiveTenants: typeof assertLiveTenants };
}

export type InvitationService = ReturnType<typeof createInvitationService>;

/** The organization's invitations (owners and admins; authorize checked the role and the organization). */
export function createInvitationService({ prisma, invitations, keys, users, tenants }: InvitationServiceDeps) {
  /**
   * Who sends the invitation: the signed-in user, or for an API key the user who created it, with the
   * key. An invitation belongs to that user (it is revoked with its right to send it, and with the
   * key: inviter-rights.ts, api-keys/service.ts). The organization is held and the key's and the
   * user's rows share-locked first, so a concurrent deactivation, demotion or key revocation either
   * happened before (and refuses the invitation here) or waits for it (and then revokes it).
   */
  async function lockSender(tx: Tx, caller: Principal, organizationId: string, role: Role): Promise<{ userId: string; apiKeyId: string | null }> {
    await invitations.holdOrganization(tx, organizationId);
    let userId = caller.userId;
    if (caller.kind === "api_key" && caller.apiKeyId) {
      const key = await keys.lockKeyRow(tx, organizationId, caller.apiKeyId);
      if (!key || key.revoked) throw unauthenticated("Unknown or revoked API key.");
      userId = key.created_by_user_id;
    }
    const user = userId ? await keys.lockCreatorRow(tx, organizationId, userId) : undefined;
    if (!userId || !user?.active || !mayInvite(user.role, role)) {
      throw forbidden("The sender may no longer send this invitation: it was deactivated or demoted meanwhile.");
    }
    return { userId, apiKeyId: caller.kind === "api_key" ? caller.apiKeyId : null };
  }

  return {
    /**
     * Creates a pending invitation of `body.email` (owners and admins; only owners invite owners; an
     * API key invites neither admins nor owners, and sends in the name of the user who created it). The
     * partial unique index on open invitations decides between concurrent invitations of one address;
     * an expired one nobody answered gives way.
     */
    async createInvitation({ principal: caller, organization: { id: organizationId } }: OrganizationContext, body: InviteUserRequest): Promise<InvitationBody> {
      if (caller.kind === "api_key" && (body.role === "admin" || body.role === "owner")) {
        throw forbidden("An API key cannot invite admins or owners: send this invitation signed in as an owner or admin.");
      }
      if (!mayInvite(caller.role, body.role)) throw forbidden("Only owners can invite owners.");
      const email = normalizeEmail(body.email);
      try {
        const row = await prisma.$transaction(async (tx) => {
          const sender = await lockSender(tx, caller, organizationId, body.role);
          const tenantIds = await tenants.assertLiveTenants(tx, organizationId, body.tenant_ids ?? []);
          const member = await users.findUserByEmail(tx, organizationId, email);
          if (member?.active) throw conflict(`${email} is already an active member of this organization.`);
          const now = new Date();
          await invitations.revokeExpired(tx, organizationId, email, now);
          return invitations.insertInvitation(tx, {
            organizationId,
            id: newId("inv"),
            email,
            role: body.role,
            tenantIds,
            name: body.name ?? null,
            jobTitle: body.job_title || null,
            invitedByUserId: sender.userId,
            invitedByApiKeyId: sender.apiKeyId,
            createdAt: now,
            expiresAt: new Date(now.getTime() + INVITATION_TTL_MS),
          });
        }, TRANSACTION_OPTIONS);
        return toInvitation(row, await inviterNames(invitations, prisma, [row]));
      } catch (err) {
        if (isUniqueViolation(err)) throw conflict(`${email} already has a pending invitation to this organization: revoke it to send another.`);
        throw err;
      }
    },

    /** Every invitation of the organization (any status), oldest first. */
    async listInvitations({ organization: { id: organizationId } }: OrganizationContext, query: PaginationQuery) {
      const after = decodeCursor(query.cursor);
      const rows = await invitations.findInvitations(prisma, organizationId, after, query.limit + 1);
      const names = await inviterNames(invitations, prisma, rows.slice(0, query.limit));
      return toPage(rows, query.limit, (row) => toInvitation(row, names));
    },

    /** Revokes an open invitation (expired ones included); 409 once it was answered or revoked. */
    async revokeInvitation({ organization: { id: organizationId } }: OrganizationContext, id: string): Promise<void> {
      if ((await invitations.revokeOpen(prisma, organizationId, id, new Date())) === 1) return;
      const row = await invitations.findInvitation(prisma, organizationId, id);
      if (!row) throw notFound(`Invitation ${id} is not in this organization.`);
      throw conflict(`Invitation ${id} was already ${statusOf(row)}.`);
    },
  };
}
