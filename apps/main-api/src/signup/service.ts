import type { SignupCompleteRequest, SignupCompleteResponse } from "@cloudcost/contracts";
import { isUniqueViolation, newId, TRANSACTION_OPTIONS } from "@cloudcost/db";
import { conflict, forbidden } from "@cloudcost/http";
import type { VerifiedIdentity } from "../auth/token-verifier";
import type { Prisma } from "../db";
import { toOrganization, toTenant, toUser } from "../organizations/serialize";
import type { Tx } from "../transactions";
import type { SignupRepository } from "./repository";
import { slugCandidates, slugify } from "./slug";

const DEFAULT_TENANT_NAME = "Default";
const MAX_SLUG_ATTEMPTS = 20;

const alreadyMember = () => conflict("This identity already belongs to an organization; sign-up can be completed once.");

export interface SignupService {
  completeSignup(identity: VerifiedIdentity, body: SignupCompleteRequest): Promise<SignupCompleteResponse>;
}

/** Sign-up over its repository: `prisma` only opens the transaction every query of it runs in. */
export function createSignupService({ prisma, signups }: { prisma: Prisma; signups: SignupRepository }): SignupService {
  /**
   * An identity belongs to the organization of its active user only: 409 while it has one; a link to
   * a user its organization deactivated is released, so that person is not locked out for good.
   */
  async function releaseInactiveLink(tx: Tx, identity: VerifiedIdentity): Promise<void> {
    const link = await signups.findIdentityLink(tx, identity.issuer, identity.subject);
    if (link?.user.active) throw alreadyMember();
    if (link) await signups.deleteIdentity(tx, link.id);
  }

  /** A taken slug never aborts the transaction: the insert skips it, and the next candidate is tried. */
  async function insertOrganization(tx: Tx, body: SignupCompleteRequest) {
    const name = body.company_name;
    if (body.slug) {
      const row = await signups.insertOrganizationUnlessSlugTaken(tx, name, body.slug);
      if (!row) throw conflict(`The slug '${body.slug}' is already taken: choose another or omit it to derive one.`);
      return row;
    }
    let attempts = 0;
    for (const slug of slugCandidates(slugify(name))) {
      const row = await signups.insertOrganizationUnlessSlugTaken(tx, name, slug);
      if (row) return row;
      if (++attempts >= MAX_SLUG_ATTEMPTS) break;
    }
    throw conflict("Could not derive a free slug from company_name: pass an explicit slug.");
  }

  return {
    /**
     * Creates the organization, its settings, a default tenant, the owner and the identity link in one
     * transaction. The unique (issuer, subject) index makes a concurrent second completion fail whole.
     * Pending invitations play no part.
     */
    async completeSignup(identity, body) {
      const email = identity.email;
      if (!identity.emailVerified || !email) {
        throw forbidden("The identity's e-mail address is not verified: verify it with the identity provider, then retry.");
      }
      try {
        return await prisma.$transaction(async (tx) => {
          await releaseInactiveLink(tx, identity);
          const organization = await insertOrganization(tx, body);
          const organizationId = organization.id;
          const tenant = await signups.insertTenant(tx, organizationId, newId("ten"), DEFAULT_TENANT_NAME);
          await signups.insertOrganizationSettings(tx, organizationId);
          const ownerId = newId("usr");
          await signups.insertUser(tx, {
            organizationId,
            id: ownerId,
            email,
            name: `${body.first_name} ${body.last_name}`,
            role: "owner",
            jobTitle: body.job_title || null,
            tenants: { create: { tenantId: tenant.id } },
          });
          await signups.insertIdentity(tx, { id: newId("idn"), issuer: identity.issuer, subject: identity.subject, organizationId, userId: ownerId });
          const owner = await signups.findUserWithTenantsOrThrow(tx, organizationId, ownerId);
          return { default_tenant: toTenant(tenant), organization: toOrganization(organization), owner: toUser(owner) };
        }, TRANSACTION_OPTIONS);
      } catch (err) {
        if (isUniqueViolation(err)) throw alreadyMember();
        throw err;
      }
    },
  };
}
