import type { PaginationQuery, ReceivedInvitation, User as UserBody } from "@cloudcost/contracts";
import { isUniqueViolation, newId, TRANSACTION_OPTIONS } from "@cloudcost/db";
import { conflict, forbidden, notFound } from "@cloudcost/http";
import type { VerifiedIdentity } from "../auth/token-verifier";
import type { Prisma } from "../db";
import { decodeCursor, toPage } from "../http/pagination";
import { toUser } from "../organizations/serialize";
import type { syncCreatorKeys } from "../api-keys/sync";
import type { liveTenantIds } from "../tenants/repository";
import type * as userQueries from "../users/repository";
import type { InvitationRepository } from "./repository";
import { inviterNames, toReceivedInvitation } from "./serialize";

/** Invitations are addressed to e-mails: only a verified one may see or answer them. */
function verifiedEmail(identity: VerifiedIdentity): string {
  if (!identity.emailVerified || !identity.email) {
    throw forbidden("The identity's e-mail address is not verified: verify it with the identity provider, then retry.");
  }
  return identity.email;
}

const noSuchInvitation = (id: string) =>
  notFound(`There is no pending invitation ${id} for this identity's e-mail address (it may have expired, been revoked or been answered).`);
const alreadyMember = () => conflict("This identity already belongs to an organization: leave it first (POST /api/v1/me/leave), then accept.");

export interface InviteeServiceDeps {
  /** Opens the transactions; every query goes through the repositories below. */
  prisma: Prisma;
  invitations: InvitationRepository;
  /** Accepting creates (or reactivates) the user and links the identity to it. */
  users: Pick<
    typeof userQueries,
    | "findIdentityLink"
    | "deleteIdentity"
    | "insertIdentity"
    | "findUserByEmail"
    | "insertUser"
    | "updateUserProfile"
    | "clearUserTenants"
    | "findUserWithTenantsOrThrow"
  >;
  tenants: { liveTenantIds: typeof liveTenantIds };
  /** A reactivated user's keys act again with the role just granted (pricing API too). */
  keys: { syncCreatorKeys: typeof syncCreatorKeys };
}

export type InviteeService = ReturnType<typeof createInviteeService>;

/** The caller's own invitations, found by its verified e-mail address (an identity without an organization may call them). */
export function createInviteeService({ prisma, invitations, users, tenants, keys }: InviteeServiceDeps) {
  return {
    /** The caller's pending, unexpired invitations, oldest first. */
    async listReceivedInvitations(identity: VerifiedIdentity, query: PaginationQuery) {
      const email = verifiedEmail(identity);
      const after = decodeCursor(query.cursor);
      const rows = await invitations.findReceived(prisma, email, new Date(), after, query.limit + 1);
      const names = await inviterNames(invitations, prisma, rows.slice(0, query.limit));
      return toPage(rows, query.limit, (row): ReceivedInvitation => toReceivedInvitation(row, names));
    },

    /**
     * Accepts an invitation in one transaction: marks it accepted, creates the user (or reactivates the
     * organization's former user with that e-mail) with the invited role and tenants, and links the
     * identity. An identity acting as an active user anywhere is refused (409); a link to a deactivated
     * user is moved. The unique (issuer, subject) index keeps an identity in one organization even
     * when two accepts race.
     */
    async acceptInvitation(identity: VerifiedIdentity, id: string): Promise<UserBody> {
      const email = verifiedEmail(identity);
      try {
        return await prisma.$transaction(async (tx) => {
          const now = new Date();
          const invitation = await invitations.acceptPending(tx, id, email, now);
          if (!invitation) throw noSuchInvitation(id);
          const { organizationId } = invitation;

          const link = await users.findIdentityLink(tx, identity.issuer, identity.subject);
          if (link?.user.active) throw alreadyMember();
          if (link) await users.deleteIdentity(tx, link.id);

          const tenantIds = invitation.tenantIds.length === 0 ? [] : await tenants.liveTenantIds(tx, organizationId, invitation.tenantIds);
          const profile = { role: invitation.role, jobTitle: invitation.jobTitle, tenants: { create: tenantIds.map((tenantId) => ({ tenantId })) } };
          const former = await users.findUserByEmail(tx, organizationId, email);
          let userId: string;
          if (former) {
            if (former.active && former.identity) throw conflict(`${email} is already an active member of this organization.`);
            if (former.identity) await users.deleteIdentity(tx, former.identity.id);
            await users.clearUserTenants(tx, organizationId, former.id);
            await users.updateUserProfile(tx, organizationId, former.id, { ...profile, active: true, name: invitation.name ?? former.name });
            userId = former.id;
            // Keys the former user created act again with the role just granted (pricing API too).
            await keys.syncCreatorKeys(tx, organizationId, userId);
          } else {
            userId = newId("usr");
            await users.insertUser(tx, { ...profile, organizationId, id: userId, email, name: invitation.name ?? email.split("@")[0] });
          }
          await users.insertIdentity(tx, { id: newId("idn"), issuer: identity.issuer, subject: identity.subject, organizationId, userId });
          return toUser(await users.findUserWithTenantsOrThrow(tx, organizationId, userId));
        }, TRANSACTION_OPTIONS);
      } catch (err) {
        if (isUniqueViolation(err)) throw alreadyMember();
        throw err;
      }
    },

    /** Declines a pending invitation of the caller. */
    async declineInvitation(identity: VerifiedIdentity, id: string): Promise<void> {
      const email = verifiedEmail(identity);
      const now = new Date();
      if ((await invitations.declinePending(prisma, id, email, now)) === 0) throw noSuchInvitation(id);
    },
  };
}
