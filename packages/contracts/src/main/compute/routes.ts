import { defineRoute, failure, inTenant, MANAGERS, ok } from "../declare.js";
import * as lifecycle from "./lifecycle-schemas.js";
import * as c from "./schemas.js";

const tags = ["Compute"];
const MEMBERS = ["owner", "admin", "member"] as const;

/** `/api/v1/tenant/compute`: the compute inventory, samples and recommendations of the tenant named by X-Service-Tenant-ID. */
export const mainApiComputeRoutes = {
  upsertResources: defineRoute(
    inTenant({
      tags,
      operationId: "upsertResources",
      method: "put",
      path: "/api/v1/tenant/compute/resources",
      summary: "Upsert compute resources (at most 1000)",
      write: true,
      body: c.UpsertResourcesRequest,
      responses: { 200: ok("Upserted", c.UpsertResourcesResponse) },
    }),
  ),
  ingestMetrics: defineRoute(
    inTenant({
      tags,
      operationId: "ingestMetrics",
      method: "post",
      path: "/api/v1/tenant/compute/metrics",
      summary: "Send utilization samples (at most 10000); each also counts as a heartbeat",
      write: true,
      idempotent: true,
      body: c.IngestMetricsRequest,
      responses: { 200: ok("Accepted", c.IngestMetricsResponse) },
    }),
  ),
  recordHeartbeats: defineRoute(
    inTenant({
      tags,
      operationId: "recordHeartbeats",
      method: "post",
      path: "/api/v1/tenant/compute/heartbeats",
      summary: "Record heartbeats",
      write: true,
      idempotent: true,
      body: c.HeartbeatsRequest,
      responses: { 200: ok("Recorded", c.HeartbeatsResponse) },
    }),
  ),
  analyzeRecommendations: defineRoute(
    inTenant({
      tags,
      operationId: "analyzeRecommendations",
      method: "post",
      path: "/api/v1/tenant/compute/recommendations/analyze",
      summary: "Run an analysis cycle for the tenant now (owner/admin)",
      write: true,
      roles: MANAGERS,
      idempotent: true,
      responses: {
        200: ok("Cycle finished", c.AnalyzeResponse),
        409: failure("An analysis cycle of this tenant is already running (code `analysis_running`)"),
      },
    }),
  ),
  getRecommendationSummary: defineRoute(
    inTenant({
      tags,
      operationId: "getRecommendationSummary",
      method: "get",
      path: "/api/v1/tenant/compute/recommendations/summary",
      summary: "Compute right-sizing summary of one tenant",
      query: c.SummaryQuery,
      responses: { 200: ok("The summary", c.RecommendationSummary) },
    }),
  ),
  listRecommendations: defineRoute(
    inTenant({
      tags,
      operationId: "listRecommendations",
      method: "get",
      path: "/api/v1/tenant/compute/recommendations",
      summary: "Per-resource recommendations (paginated)",
      query: c.RecommendationsQuery,
      responses: { 200: ok("A page of recommendations", c.RecommendationsPage) },
    }),
  ),
  retireResource: defineRoute(
    inTenant({
      tags,
      operationId: "retireResource",
      method: "delete",
      path: "/api/v1/tenant/compute/resources/{resource_id}",
      summary: "Retire a resource (owner/admin/member): history kept, no longer analyzed, counted or listed; upserting it again revives it",
      write: true,
      roles: MEMBERS,
      params: lifecycle.ComputeResourcePathParams,
      responses: { 204: { description: "Retired", schema: null }, 404: failure("No such resource in the tenant") },
    }),
  ),
  updateRecommendationState: defineRoute(
    inTenant({
      tags,
      operationId: "updateRecommendationState",
      method: "patch",
      path: "/api/v1/tenant/compute/recommendations/{resource_id}",
      summary: "Accept, dismiss, snooze or reopen a resource's recommendation (owner/admin/member)",
      write: true,
      roles: MEMBERS,
      params: lifecycle.ComputeResourcePathParams,
      body: lifecycle.UpdateRecommendationStateRequest,
      responses: { 200: ok("The new state", lifecycle.RecommendationStateView), 404: failure("No such resource in the tenant (or it is retired)") },
    }),
  ),
  getRealizedSavings: defineRoute(
    inTenant({
      tags,
      operationId: "getRealizedSavings",
      method: "get",
      path: "/api/v1/tenant/compute/savings",
      summary: "Realized savings of resources resized or retired after a recommendation",
      query: lifecycle.SavingsQuery,
      responses: { 200: ok("The changes and their savings", lifecycle.RealizedSavings) },
    }),
  ),
} as const;
