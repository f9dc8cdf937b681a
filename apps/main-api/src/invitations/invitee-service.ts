import type { PaginationQuery, ReceivedInvitation, User as UserBody } from "@cloudcost/contracts";
import { isUniqueViolation, newId, TRANSACTION_OPTIONS } from "@cloudcost/db";
import { conflict, forbidden, notFound } from "@cloudcost/http";
import type { VerifiedIdentity } from "../auth/token-verifier";
import type { Prisma } from "../db";
import { decodeCursor, toPage } from "../http/pagination";
import { toUser, withTenantIds } from "../organizations/serialize";
import { syncCreatorKeys } from "../api-keys/sync";
import type { Tx } from "../transactions";
import { inviterNames, OPEN, toReceivedInvitation } from "./serialize";

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

/** The caller's pending, unexpired invitations, oldest first. */
export async function listReceivedInvitations(prisma: Prisma, identity: VerifiedIdentity, query: PaginationQuery) {
  const email = verifiedEmail(identity);
  const after = decodeCursor(query.cursor);
  const rows = await prisma.invitation.findMany({
    where: { email, ...OPEN, expiresAt: { gt: new Date() }, ...(after ? { id: { gt: after } } : {}) },
    orderBy: { id: "asc" },
    take: query.limit + 1,
    include: { organization: { select: { name: true } } },
  });
  const names = await inviterNames(prisma, rows.slice(0, query.limit));
  return toPage(rows, query.limit, (row): ReceivedInvitation => toReceivedInvitation(row, names));
}

/**
 * Accepts an invitation in one transaction: marks it accepted, creates the user (or reactivates the
 * organization's former user with that e-mail) with the invited role and tenants, and links the
 * identity. An identity acting as an active user anywhere is refused (409); a link to a deactivated
 * user is moved. The unique (issuer, subject) index keeps an identity in one organization even
 * when two accepts race.
 */
export async function acceptInvitation(prisma: Prisma, identity: VerifiedIdentity, id: string): Promise<UserBody> {
  const email = verifiedEmail(identity);
  try {
    return await prisma.$transaction(async (tx) => {
      const now = new Date();
      const [invitation] = await tx.invitation.updateManyAndReturn({
        where: { id, email, ...OPEN, expiresAt: { gt: now } },
        data: { acceptedAt: now },
      });
      if (!invitation) throw noSuchInvitation(id);
      const { organizationId } = invitation;

      const link = await tx.identity.findUnique({
        where: { issuer_subject: { issuer: identity.issuer, subject: identity.subject } },
        select: { id: true, user: { select: { active: true } } },
      });
      if (link?.user.active) throw alreadyMember();
      if (link) await tx.identity.delete({ where: { id: link.id } });

      const tenantIds = await liveTenantIds(tx, organizationId, invitation.tenantIds);
      const profile = { role: invitation.role, jobTitle: invitation.jobTitle, tenants: { create: tenantIds.map((tenantId) => ({ tenantId })) } };
      const former = await tx.user.findUnique({ where: { organizationId_email: { organizationId, email } }, include: { identity: { select: { id: true } } } });
      let userId: string;
      if (former) {
        if (former.active && former.identity) throw conflict(`${email} is already an active member of this organization.`);
        if (former.identity) await tx.identity.delete({ where: { id: former.identity.id } });
        await tx.userTenant.deleteMany({ where: { organizationId, userId: former.id } });
        await tx.user.update({
          where: { organizationId_id: { organizationId, id: former.id } },
          data: { ...profile, active: true, name: invitation.name ?? former.name },
        });
        userId = former.id;
        // Keys the former user created act again with the role just granted (pricing API too).
        await syncCreatorKeys(tx, organizationId, userId);
      } else {
        userId = newId("usr");
        await tx.user.create({ data: { ...profile, organizationId, id: userId, email, name: invitation.name ?? email.split("@")[0] } });
      }
      await tx.identity.create({ data: { id: newId("idn"), issuer: identity.issuer, subject: identity.subject, organizationId, userId } });
      return toUser(await tx.user.findUniqueOrThrow({ where: { organizationId_id: { organizationId, id: userId } }, include: withTenantIds }));
    }, TRANSACTION_OPTIONS);
  } catch (err) {
    if (isUniqueViolation(err)) throw alreadyMember();
    throw err;
  }
}

/** Declines a pending invitation of the caller. */
export async function declineInvitation(prisma: Prisma, identity: VerifiedIdentity, id: string): Promise<void> {
  const email = verifiedEmail(identity);
  const now = new Date();
  const { count } = await prisma.invitation.updateMany({ where: { id, email, ...OPEN, expiresAt: { gt: now } }, data: { declinedAt: now } });
  if (count === 0) throw noSuchInvitation(id);
}

/** The invited tenants that still exist unarchived: one archived since the invitation is left out. */
async function liveTenantIds(tx: Tx, organizationId: string, tenantIds: string[]): Promise<string[]> {
  if (tenantIds.length === 0) return [];
  const rows = await tx.tenant.findMany({ where: { organizationId, id: { in: tenantIds }, archivedAt: null }, select: { id: true }, orderBy: { id: "asc" } });
  return rows.map((t) => t.id);
}
