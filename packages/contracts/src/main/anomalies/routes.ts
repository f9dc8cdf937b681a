import { defineRoute, failure, inTenant, ok } from "../declare.js";
import * as n from "./schemas.js";

const tags = ["Anomalies"];

/** `/api/v1/tenant/spend/anomalies`: spend anomalies of the tenant named by X-Service-Tenant-ID, and feedback on them. */
export const mainApiAnomalyRoutes = {
  detectAnomalies: defineRoute(
    inTenant({
      operationId: "detectAnomalies",
      method: "post",
      path: "/api/v1/tenant/spend/anomalies/detect",
      tags,
      summary:
        "Score the tenant's daily usage cost per service and in total, per currency, now (also done once a day and after imports); new anomalies emit `anomaly.detected`",
      write: true,
      idempotent: true,
      body: n.DetectAnomaliesRequest,
      responses: { 200: ok("The new anomalies", n.DetectAnomaliesResponse) },
    }),
  ),
  listAnomalies: defineRoute(
    inTenant({
      operationId: "listAnomalies",
      method: "get",
      path: "/api/v1/tenant/spend/anomalies",
      tags,
      summary: "Spend anomalies of the tenant, as ranges of days",
      query: n.AnomaliesQuery,
      responses: { 200: ok("The anomalies", n.AnomalyList) },
    }),
  ),
  updateAnomaly: defineRoute(
    inTenant({
      operationId: "updateAnomaly",
      method: "patch",
      path: "/api/v1/tenant/spend/anomalies/{id}",
      tags,
      summary:
        "Give feedback on an anomaly: `yes`, `no` or `planned_activity` (the last two end it and mute its monitor for 7 days, for days up to 1.2 x its largest day)",
      write: true,
      params: n.AnomalyPathParams,
      body: n.AnomalyFeedbackRequest,
      responses: { 200: ok("The anomaly", n.Anomaly), 404: failure("No such anomaly in the tenant") },
    }),
  ),
} as const;
