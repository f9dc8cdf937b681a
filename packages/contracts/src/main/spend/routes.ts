import { TenantHeaders } from "../../api/headers.js";
import { defineRoute, failure, ok } from "../declare.js";
import { OrganizationPathParams } from "../identity.js";
import * as s from "./schemas.js";

const tags = ["Spend"];
const inTenant = { errors: "envelope", auth: "bearer", scope: "tenant", headers: TenantHeaders, tags } as const;
const inOrganization = { errors: "envelope", auth: "bearer", scope: "organization", tags } as const;
const csv = {
  description: "FOCUS 1.2 CSV; the X-Unpriced-Lines header counts the unpriced usage lines of the range",
  schema: s.FocusCsvFile,
  contentType: "text/csv",
};
const WRITERS = ["owner", "admin", "member"] as const;

/** Spend: usage priced at ingestion, reprice, and the spend views (docs/api.md, "Spend: usage, queries, lines, export"). */
export const mainApiSpendRoutes = {
  ingestUsage: defineRoute({
    ...inTenant,
    operationId: "ingestUsage",
    method: "post",
    path: "/api/v1/tenant/spend/usage",
    summary: "Record usage, priced now with the organization's prices (owner/admin/member)",
    description:
      "Each line is priced by the pricing API with the organization's prices in force at its timestamp and stored with the entry and unit prices used; a line that cannot be priced is stored with `priced: false` and its reason. A line whose `event_id` the tenant already sent is skipped. All or nothing; 503 with Retry-After (nothing stored) when the pricing API is unreachable.",
    write: true,
    roles: WRITERS,
    idempotent: true,
    bodyLimit: "8 MiB",
    body: s.IngestUsageRequest,
    responses: {
      200: ok("Stored", s.IngestUsageResponse),
      503: failure("The pricing API is unavailable: nothing was stored (code `pricing_unavailable`, Retry-After)"),
    },
  }),
  repriceUsage: defineRoute({
    ...inTenant,
    operationId: "repriceUsage",
    method: "post",
    path: "/api/v1/tenant/spend/usage/reprice",
    summary: "Price the tenant's still-unpriced usage lines with the prices effective at their timestamps (owner/admin/member)",
    description: "Priced lines are never touched.",
    write: true,
    roles: WRITERS,
    idempotent: true,
    body: s.RepriceRequest,
    responses: {
      200: ok("Repriced", s.RepriceResponse),
      503: failure("The pricing API is unavailable: nothing changed (code `pricing_unavailable`, Retry-After)"),
    },
  }),
  getTenantSpend: defineRoute({
    ...inTenant,
    operationId: "getTenantSpend",
    method: "get",
    path: "/api/v1/tenant/spend",
    summary: "Spend of one tenant by period and group",
    query: s.TenantSpendQuery,
    responses: { 200: ok("The spend", s.SpendReport) },
  }),
  getSpendForecast: defineRoute({
    ...inTenant,
    operationId: "getSpendForecast",
    method: "get",
    path: "/api/v1/tenant/spend/forecast",
    summary: "Forecast of the tenant's spend for the current month, quarter or year",
    description:
      "Spent so far + the recurring charges still to come + a weekday-aware usage run rate (read from complete days with data, up to `data_through`) x the days left, with an 80 % interval (`forecast_low`, `forecast_high`); a row per day of the period with its actual or expected cost.",
    query: s.SpendForecastQuery,
    responses: { 200: ok("The forecast", s.SpendForecast) },
  }),
  listSpendLines: defineRoute({
    ...inTenant,
    operationId: "listSpendLines",
    method: "get",
    path: "/api/v1/tenant/spend/lines",
    summary: "Spend lines of one tenant with their provenance (paginated)",
    query: s.SpendLinesQuery,
    responses: { 200: ok("A page of lines", s.SpendLinesPage) },
  }),
  getOrganizationSpend: defineRoute({
    ...inOrganization,
    operationId: "getOrganizationSpend",
    method: "get",
    path: "/api/v1/organizations/{org_id}/spend",
    summary: "Spend of the organization by period and group (owners and admins: every tenant and the unallocated lines; members and viewers: their tenants)",
    params: OrganizationPathParams,
    query: s.OrganizationSpendQuery,
    responses: { 200: ok("The spend", s.SpendReport) },
  }),
  exportTenantSpend: defineRoute({
    ...inTenant,
    operationId: "exportTenantSpend",
    method: "get",
    path: "/api/v1/tenant/spend/export",
    summary: "The tenant's spend lines of a range as a FOCUS 1.2 CSV file (streamed)",
    query: s.TenantSpendExportQuery,
    responses: { 200: csv },
  }),
  exportOrganizationSpend: defineRoute({
    ...inOrganization,
    operationId: "exportOrganizationSpend",
    method: "get",
    path: "/api/v1/organizations/{org_id}/spend/export",
    summary:
      "The organization's spend lines of a range as a FOCUS 1.2 CSV file (streamed; the tenants the caller reaches, and the unallocated lines for owners and admins)",
    params: OrganizationPathParams,
    query: s.OrganizationSpendExportQuery,
    responses: { 200: csv },
  }),
} as const;
