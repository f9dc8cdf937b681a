import { defineRoute, failure, inOrganization, MANAGERS, ok } from "../declare.js";
import { OrganizationPathParams } from "../organizations/schemas.js";
import * as m from "./schemas.js";

const tags = ["Business metrics"];
const NOT_FOUND = failure("No such business metric in the organization");

/** `/api/v1/organizations/{org_id}/business-metrics`: daily series spend is divided by; every role reads them, owners and admins write. */
export const mainApiBusinessMetricRoutes = {
  putBusinessMetric: defineRoute(
    inOrganization({
      tags,
      operationId: "putBusinessMetric",
      method: "put",
      path: "/api/v1/organizations/{org_id}/business-metrics/{name}",
      summary: "Create a business metric or change its unit, description and labelling dimension (owner/admin)",
      description: `Its values stay. An organization has at most ${m.MAX_BUSINESS_METRICS} metrics.`,
      roles: MANAGERS,
      write: true,
      params: m.BusinessMetricPathParams,
      body: m.PutBusinessMetricRequest,
      responses: {
        200: ok("The metric", m.BusinessMetric),
        409: failure(`A new metric beside the organization's ${m.MAX_BUSINESS_METRICS} (code \`limit_reached\`)`),
      },
    }),
  ),
  listBusinessMetrics: defineRoute(
    inOrganization({
      tags,
      operationId: "listBusinessMetrics",
      method: "get",
      path: "/api/v1/organizations/{org_id}/business-metrics",
      summary: "The organization's business metrics",
      params: OrganizationPathParams,
      responses: { 200: ok("The metrics, by name", m.BusinessMetrics) },
    }),
  ),
  getBusinessMetric: defineRoute(
    inOrganization({
      tags,
      operationId: "getBusinessMetric",
      method: "get",
      path: "/api/v1/organizations/{org_id}/business-metrics/{name}",
      summary: "A business metric",
      params: m.BusinessMetricPathParams,
      responses: { 200: ok("The metric", m.BusinessMetric), 404: NOT_FOUND },
    }),
  ),
  deleteBusinessMetric: defineRoute(
    inOrganization({
      tags,
      operationId: "deleteBusinessMetric",
      method: "delete",
      path: "/api/v1/organizations/{org_id}/business-metrics/{name}",
      summary: "Delete a business metric and its values (owner/admin)",
      description: "A `metric` split naming it then shares evenly (it has no amounts); a `per=` naming it is a 400.",
      roles: MANAGERS,
      write: true,
      params: m.BusinessMetricPathParams,
      responses: { 204: { description: "Deleted with its values", schema: null }, 404: NOT_FOUND },
    }),
  ),
  postBusinessMetricValues: defineRoute(
    inOrganization({
      tags,
      operationId: "postBusinessMetricValues",
      method: "post",
      path: "/api/v1/organizations/{org_id}/business-metrics/{name}/values",
      summary: "Store a metric's daily amounts: added to what is stored (`sum`) or in its place (`replace`) (owner/admin)",
      description:
        `JSON \`{mode, values: [{date, amount, label?}]}\`, or \`text/csv\` with the header \`date,amount,label\` (label optional; \`?mode=\`, default sum), ` +
        `1-${m.MAX_METRIC_VALUES_PER_REQUEST} amounts, at most ${m.METRIC_VALUES_BODY_LIMIT}. All or nothing: a bad item is a 400 naming its path ` +
        "(`values.3.amount`), a bad CSV row one naming its line and column. Amounts of the same (date, label) in one request are added together first. " +
        "Concurrent `sum` requests never lose an addition. `Idempotency-Key` is honoured (a CSV body by its bytes and query).",
      roles: MANAGERS,
      write: true,
      idempotent: true,
      params: m.BusinessMetricPathParams,
      query: m.PostMetricValuesQuery,
      rawBody: {
        contentTypes: ["application/json", "text/csv"],
        description: `The amounts as JSON (\`PostMetricValuesRequest\`) or as a CSV file with the header \`date,amount,label\`, at most ${m.METRIC_VALUES_BODY_LIMIT}.`,
        json: m.PostMetricValuesRequest,
      },
      bodyLimit: m.METRIC_VALUES_BODY_LIMIT,
      responses: { 200: ok("Stored", m.MetricValuesPosted), 404: NOT_FOUND },
    }),
  ),
  listBusinessMetricValues: defineRoute(
    inOrganization({
      tags,
      operationId: "listBusinessMetricValues",
      method: "get",
      path: "/api/v1/organizations/{org_id}/business-metrics/{name}/values",
      summary: "A metric's stored amounts over a range of days, by date and label",
      params: m.BusinessMetricPathParams,
      query: m.MetricValuesQuery,
      responses: { 200: ok("The amounts", m.MetricValues), 404: NOT_FOUND },
    }),
  ),
} as const;
