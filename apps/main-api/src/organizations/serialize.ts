import type { Organization as OrganizationBody, Tenant as TenantBody, User as UserBody } from "@cloudcost/contracts";
import type { Organization, Tenant, User } from "../generated/prisma/client";

export const toOrganization = (row: Organization): OrganizationBody => ({ id: row.id, name: row.name, slug: row.slug });

export const toTenant = (row: Tenant): TenantBody => ({
  id: row.id,
  name: row.name,
  organization_id: row.organizationId,
  archived_at: row.archivedAt?.toISOString() ?? null,
});

export type UserWithTenants = User & { tenants: { tenantId: string }[] };

/** Includes a user's tenant ids in a stable order. */
export const withTenantIds = { tenants: { select: { tenantId: true }, orderBy: { tenantId: "asc" } } } as const;

export const toUser = (row: UserWithTenants): UserBody => ({
  id: row.id,
  organization_id: row.organizationId,
  name: row.name,
  email: row.email,
  role: row.role,
  active: row.active,
  joined_at: row.joinedAt.toISOString(),
  tenant_ids: row.tenants.map((t) => t.tenantId),
  avatar_url: row.avatarUrl,
  job_title: row.jobTitle,
});
