import { defineRoute, failure, inOrganization, MANAGERS, ok } from "../declare.js";
import { OrganizationPathParams } from "../organizations/schemas.js";
import * as c from "./schemas.js";

const tags = ["Commitments"];

/** `/api/v1/organizations/{org_id}/commitments`: utilization, coverage and purchase recommendations over the organization's ledger. */
export const mainApiCommitmentRoutes = {
  listCommitments: defineRoute(
    inOrganization({
      tags,
      params: OrganizationPathParams,
      operationId: "listCommitments",
      method: "get",
      path: "/api/v1/organizations/{org_id}/commitments",
      summary: "Utilization of each commitment (Savings Plan, Reserved Instance, committed use) in a range (owners and admins)",
      roles: MANAGERS,
      query: c.CommitmentsQuery,
      responses: { 200: ok("Commitments and totals", c.CommitmentsReport) },
    }),
  ),
  getCommitmentCoverage: defineRoute(
    inOrganization({
      tags,
      params: OrganizationPathParams,
      operationId: "getCommitmentCoverage",
      method: "get",
      path: "/api/v1/organizations/{org_id}/commitments/coverage",
      summary: "How much of the eligible usage commitments covered, by group (owners and admins: every tenant; members and viewers: their tenants)",
      query: c.CommitmentCoverageQuery,
      responses: { 200: ok("Coverage by group", c.CoverageReport) },
    }),
  ),
  getCommitmentRecommendations: defineRoute(
    inOrganization({
      tags,
      params: OrganizationPathParams,
      operationId: "getCommitmentRecommendations",
      method: "get",
      path: "/api/v1/organizations/{org_id}/commitments/recommendations",
      summary: "The hourly commitment to buy per commitment rate, from the recent hourly on-demand spend (owners and admins)",
      roles: MANAGERS,
      query: c.CommitmentRecommendationsQuery,
      responses: {
        200: ok("One recommendation per rate", c.CommitmentRecommendations),
        503: failure("The pricing API is unavailable (code `pricing_unavailable`, Retry-After)"),
      },
    }),
  ),
} as const;
