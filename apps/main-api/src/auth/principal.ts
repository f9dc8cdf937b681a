import type { Role } from "@cloudcost/contracts";
import { newId } from "@cloudcost/db";
import type { Prisma } from "../db";
import type { VerifiedIdentity } from "./token-verifier";

export type { Role };

/** Who is calling, within which organization, with which role and tenants. */
export interface Principal {
  kind: "user" | "api_key";
  organizationId: string;
  userId: string | null;
  role: Role;
  /** Tenants the caller belongs to; owners and admins reach every tenant of the organization anyway. */
  tenantIds: string[];
  apiKeyId: string | null;
}

export type IdentityResolution =
  | { principal: Principal }
  | { principal: null; reason: "no_organization" | "deactivated" };

const userWithTenants = { include: { tenants: { select: { tenantId: true }, orderBy: { tenantId: "asc" } } } } as const;

/**
 * The user an identity acts as. An identity seen for the first time is linked to the oldest pending
 * invitation for its verified e-mail; the unique index on (organization, user) makes a concurrent
 * second link a no-op.
 */
export async function resolveIdentity(prisma: Prisma, identity: VerifiedIdentity): Promise<IdentityResolution> {
  const where = { issuer_subject: { issuer: identity.issuer, subject: identity.subject } };
  let link = await prisma.identity.findUnique({ where, include: { user: userWithTenants } });
  if (!link && identity.emailVerified && identity.email) {
    const invited = await prisma.user.findFirst({
      where: { email: identity.email, active: true, identity: null },
      orderBy: [{ joinedAt: "asc" }, { id: "asc" }],
      select: { organizationId: true, id: true },
    });
    if (invited) {
      await prisma.identity.createMany({
        data: [{ id: newId("idn"), issuer: identity.issuer, subject: identity.subject, organizationId: invited.organizationId, userId: invited.id }],
        skipDuplicates: true,
      });
      link = await prisma.identity.findUnique({ where, include: { user: userWithTenants } });
    }
  }
  if (!link) return { principal: null, reason: "no_organization" };
  const user = link.user;
  if (!user.active) return { principal: null, reason: "deactivated" };
  return {
    principal: {
      kind: "user",
      organizationId: user.organizationId,
      userId: user.id,
      role: user.role,
      tenantIds: user.tenants.map((t) => t.tenantId),
      apiKeyId: null,
    },
  };
}

export const isManager = (role: Role) => role === "owner" || role === "admin";
