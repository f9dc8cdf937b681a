import { z } from "zod";
import { PaginationQuery, ServiceId, TimestampOutput, queryBoolean } from "../../common.js";
import { Page, Text200 } from "../fields.js";

export const Tenant = z
  .object({
    id: ServiceId,
    name: z.string(),
    organization_id: ServiceId,
    archived_at: TimestampOutput.nullable().optional(),
  })
  .meta({ id: "Tenant", description: "A tenant of an organization; `archived_at` is set once archived." });
export type Tenant = z.infer<typeof Tenant>;

export const TenantPathParams = z
  .object({ org_id: ServiceId, tenant_id: ServiceId })
  .meta({ id: "TenantPathParams", description: "Path parameters of /organizations/{org_id}/tenants/{tenant_id}." });
export type TenantPathParams = z.infer<typeof TenantPathParams>;

export const ListTenantsQuery = PaginationQuery.extend({ include_archived: queryBoolean.optional() }).meta({
  id: "ListTenantsQuery",
  description: "Pagination; archived tenants are listed only with `include_archived=true`.",
});
export type ListTenantsQuery = z.output<typeof ListTenantsQuery>;

export const CreateTenantRequest = z.object({ name: Text200 }).meta({ id: "CreateTenantRequest", description: "Creates a tenant." });
export type CreateTenantRequest = z.output<typeof CreateTenantRequest>;

export const UpdateTenantRequest = z
  .object({ name: Text200.optional(), archived: z.boolean().optional() })
  .meta({ id: "UpdateTenantRequest", description: "Renames, archives (`true`) or restores (`false`) a tenant." });
export type UpdateTenantRequest = z.output<typeof UpdateTenantRequest>;

export const TenantsPage = Page(Tenant).meta({ id: "TenantsPage", description: "A page of tenants; `next_cursor` is null on the last page." });
export type TenantsPage = z.infer<typeof TenantsPage>;
