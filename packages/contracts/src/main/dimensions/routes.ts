import { defineRoute, failure, inOrganization, MANAGERS, ok } from "../declare.js";
import { OrganizationPathParams } from "../organizations/schemas.js";
import * as d from "./schemas.js";

const tags = ["Dimensions"];
const NOT_FOUND = failure("No such dimension (or version) in the organization");

/** `/api/v1/organizations/{org_id}/dimensions`: the organization's virtual tags, versioned; every role reads them, owners and admins change them. */
export const mainApiDimensionRoutes = {
  putDimension: defineRoute(
    inOrganization({
      tags,
      operationId: "putDimension",
      method: "put",
      path: "/api/v1/organizations/{org_id}/dimensions/{key}",
      summary: "Create a dimension or add a version of it, effective from a month (owner/admin)",
      description:
        "Each PUT is a new version; a line takes the newest version whose `effective_from` is not after its charge month. A `dimension:<key>` condition naming a dimension that (through others) names this one is a 400 naming the cycle; a malformed rule is a 400 naming its path.",
      roles: MANAGERS,
      write: true,
      bodyLimit: "1 MiB",
      params: d.DimensionPathParams,
      body: d.PutDimensionRequest,
      responses: {
        200: ok("The new version", d.Dimension),
        409: failure(
          `A new dimension beside the organization's ${d.MAX_DIMENSIONS}, or a version beyond a dimension's ${d.MAX_DIMENSION_VERSIONS} (code \`limit_reached\`)`,
        ),
      },
    }),
  ),
  listDimensions: defineRoute(
    inOrganization({
      tags,
      operationId: "listDimensions",
      method: "get",
      path: "/api/v1/organizations/{org_id}/dimensions",
      summary: "The organization's dimensions, newest version each",
      params: OrganizationPathParams,
      responses: { 200: ok("The dimensions, by key", d.Dimensions) },
    }),
  ),
  getDimension: defineRoute(
    inOrganization({
      tags,
      operationId: "getDimension",
      method: "get",
      path: "/api/v1/organizations/{org_id}/dimensions/{key}",
      summary: "A dimension: its newest version, or `?version=`",
      params: d.DimensionPathParams,
      query: d.DimensionVersionQuery,
      responses: { 200: ok("The version", d.Dimension), 404: NOT_FOUND },
    }),
  ),
  listDimensionVersions: defineRoute(
    inOrganization({
      tags,
      operationId: "listDimensionVersions",
      method: "get",
      path: "/api/v1/organizations/{org_id}/dimensions/{key}/versions",
      summary: "Every version of a dimension, newest first",
      params: d.DimensionPathParams,
      responses: { 200: ok("The versions", d.DimensionVersions), 404: NOT_FOUND },
    }),
  ),
  previewDimension: defineRoute(
    inOrganization({
      tags,
      operationId: "previewDimension",
      method: "post",
      path: "/api/v1/organizations/{org_id}/dimensions/{key}/preview",
      summary: "What a draft version would do to a range's lines: coverage, each value's cost with its splits, each rule's lines; saves nothing (owner/admin)",
      description:
        "The draft is checked as a PUT would check it. A line's `dimension:<key>` is that dimension's value under its version for the line's month. Splits run per UTC day of the range.",
      roles: MANAGERS,
      bodyLimit: "1 MiB",
      params: d.DimensionPathParams,
      query: d.DimensionPreviewQuery,
      body: d.PutDimensionRequest,
      responses: { 200: ok("The preview", d.DimensionPreview) },
    }),
  ),
  deleteDimension: defineRoute(
    inOrganization({
      tags,
      operationId: "deleteDimension",
      method: "delete",
      path: "/api/v1/organizations/{org_id}/dimensions/{key}",
      summary: "Delete a dimension and its versions (owner/admin)",
      description: "Refused (409 `conflict`) while another dimension's rules name it (`dimension:<key>`).",
      roles: MANAGERS,
      write: true,
      params: d.DimensionPathParams,
      responses: { 204: { description: "Deleted", schema: null }, 404: NOT_FOUND, 409: failure("Another dimension's rules name it (code `conflict`)") },
    }),
  ),
} as const;
