import { defineRoute, problem, USAGE_BODY_LIMIT, v1 } from "../declare.js";
import * as c from "./schemas.js";

/** `/v1/pricing/pins`: which resources carry which pricing id. */
export const pricingPinRoutes = {
  listPins: defineRoute(
    v1({
      operationId: "listPins",
      method: "get",
      path: "/v1/pricing/pins",
      tags: ["Pins"],
      summary: "List pins (of one pricing entry with pricing_id)",
      minKeyRole: "viewer",
      query: c.PinListQuery,
      responses: { 200: { description: "Pins", schema: c.PinList } },
    }),
  ),
  putPin: defineRoute(
    v1({
      operationId: "putPin",
      method: "put",
      path: "/v1/pricing/pins/{kind}/{resource_id}",
      tags: ["Pins"],
      summary: "Pin a resource to a pricing entry",
      minKeyRole: "member",
      params: c.PinPathParams,
      body: c.PinRequest,
      responses: { 200: { description: "The pin", schema: c.Pin }, 404: problem("Unknown, closed or another account's pricing id") },
    }),
  ),
  deletePin: defineRoute(
    v1({
      operationId: "deletePin",
      method: "delete",
      path: "/v1/pricing/pins/{kind}/{resource_id}",
      tags: ["Pins"],
      summary: "Unpin a resource",
      minKeyRole: "member",
      params: c.PinPathParams,
      responses: { 204: { description: "Unpinned", schema: null }, 404: problem("No such pin") },
    }),
  ),
} as const;

/** `/v1/pricing/reports`: stored, priced usage. */
export const pricingReportRoutes = {
  createReport: defineRoute(
    v1({
      operationId: "createReport",
      method: "post",
      path: "/v1/pricing/reports",
      tags: ["Reports"],
      summary: "Price and store a report",
      minKeyRole: "member",
      idempotent: true,
      bodyLimit: USAGE_BODY_LIMIT,
      body: c.CreateReportRequest,
      responses: { 201: { description: "The stored report", schema: c.Report } },
    }),
  ),
  getReport: defineRoute(
    v1({
      operationId: "getReport",
      method: "get",
      path: "/v1/pricing/reports/{id}",
      tags: ["Reports"],
      summary: "Read a report exactly as priced at creation",
      minKeyRole: "viewer",
      params: c.ReportPathParams,
      responses: { 200: { description: "The report", schema: c.Report }, 404: problem("Unknown report") },
    }),
  ),
  deleteReport: defineRoute(
    v1({
      operationId: "deleteReport",
      method: "delete",
      path: "/v1/pricing/reports/{id}",
      tags: ["Reports"],
      summary: "Delete a report and its references",
      minKeyRole: "admin",
      params: c.ReportPathParams,
      responses: { 204: { description: "Deleted", schema: null }, 404: problem("Unknown report") },
    }),
  ),
} as const;

/** The references folder's operations (pins and reports), bound to its handlers as one slice. */
export const pricingReferenceRoutes = { ...pricingPinRoutes, ...pricingReportRoutes } as const;
