import { defineRoute, inOrganization, MANAGERS, ok } from "../declare.js";
import { OrganizationPathParams } from "../organizations/schemas.js";
import * as i from "./schemas.js";

/** `/api/v1/organizations/{org_id}/tenants`: the organization's tenants. */
export const mainApiTenantRoutes = {
  listTenants: defineRoute(
    inOrganization({
      operationId: "listTenants",
      method: "get",
      path: "/api/v1/organizations/{org_id}/tenants",
      tags: ["Tenants"],
      summary: "Tenants of the organization the caller reaches (paginated)",
      params: OrganizationPathParams,
      query: i.ListTenantsQuery,
      responses: { 200: ok("A page of tenants", i.TenantsPage) },
    }),
  ),
  createTenant: defineRoute(
    inOrganization({
      operationId: "createTenant",
      method: "post",
      path: "/api/v1/organizations/{org_id}/tenants",
      tags: ["Tenants"],
      summary: "Create a tenant (owner/admin)",
      roles: MANAGERS,
      idempotent: true,
      params: OrganizationPathParams,
      body: i.CreateTenantRequest,
      responses: { 201: ok("The tenant", i.Tenant) },
    }),
  ),
  getTenant: defineRoute(
    inOrganization({
      operationId: "getTenant",
      method: "get",
      path: "/api/v1/organizations/{org_id}/tenants/{tenant_id}",
      tags: ["Tenants"],
      summary: "One tenant (a tenant the caller does not reach, or none, is a 403)",
      params: i.TenantPathParams,
      responses: { 200: ok("The tenant", i.Tenant) },
    }),
  ),
  updateTenant: defineRoute(
    inOrganization({
      operationId: "updateTenant",
      method: "patch",
      path: "/api/v1/organizations/{org_id}/tenants/{tenant_id}",
      tags: ["Tenants"],
      summary: "Rename or archive a tenant (owner/admin)",
      roles: MANAGERS,
      params: i.TenantPathParams,
      body: i.UpdateTenantRequest,
      responses: { 200: ok("The tenant", i.Tenant) },
    }),
  ),
} as const;
