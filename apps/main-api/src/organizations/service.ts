import type { OrganizationContext } from "../context";
import type { Me, Organization as OrganizationBody, OrganizationSettings, UpdateOrganizationRequest, UpdateSettingsRequest } from "@cloudcost/contracts";
import { isUniqueViolation } from "@cloudcost/db";
import { conflict, forbidden } from "@cloudcost/http";
import type { Principal } from "../auth/principal";
import type { Prisma } from "../db";
import { loadOrganizationSettings, updateOrganizationSettings } from "../settings/repository";
import { findUserWithTenantsOrThrow } from "../users/repository";
import { findOrganization, findOrganizationOrThrow, updateOrganizationRow } from "./repository";
import { toOrganization, toUser } from "./serialize";

export async function getOrganization(prisma: Prisma, { organization: { id: organizationId } }: OrganizationContext): Promise<OrganizationBody> {
  const row = await findOrganization(prisma, organizationId);
  if (!row) throw forbidden(`The caller is not a member of organization ${organizationId}.`);
  return toOrganization(row);
}

export async function updateOrganization(
  prisma: Prisma,
  { organization: { id: organizationId } }: OrganizationContext,
  body: UpdateOrganizationRequest,
): Promise<OrganizationBody> {
  try {
    return toOrganization(await updateOrganizationRow(prisma, organizationId, { name: body.name, slug: body.slug }));
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(`The slug '${body.slug}' is already taken.`);
    throw err;
  }
}

export async function getSettings(prisma: Prisma, { organization: { id: organizationId } }: OrganizationContext): Promise<OrganizationSettings> {
  return loadOrganizationSettings(prisma, organizationId);
}

export async function updateSettings(
  prisma: Prisma,
  { organization: { id: organizationId } }: OrganizationContext,
  body: UpdateSettingsRequest,
): Promise<OrganizationSettings> {
  return updateOrganizationSettings(prisma, organizationId, body);
}

/** Who the caller is: its organization, its user (none for an API key), role and tenants. */
export async function describeCaller(prisma: Prisma, caller: Principal): Promise<Me> {
  const { organizationId } = caller;
  const [organization, user] = await Promise.all([
    findOrganizationOrThrow(prisma, organizationId),
    caller.userId ? findUserWithTenantsOrThrow(prisma, organizationId, caller.userId) : null,
  ]);
  return {
    organization: toOrganization(organization),
    user: user ? toUser(user) : null,
    role: caller.role,
    tenant_ids: caller.tenantIds,
    api_key_id: caller.apiKeyId,
  };
}
