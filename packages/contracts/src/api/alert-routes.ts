import type { z } from "zod";
import * as a from "../main/alerts.js";
import { ErrorEnvelope, SuccessEnvelope } from "../main/envelope.js";
import { TenantHeaders } from "./headers.js";
import { defineRoute, type RouteDefinition } from "./route.js";

type Spec = Omit<RouteDefinition, "errors" | "auth" | "scope" | "headers">;
type TenantScoped<S> = Omit<{ errors: "envelope"; auth: "bearer"; scope: "tenant"; headers: typeof TenantHeaders }, keyof S> & S;

/** An operation on the tenant named by X-Service-Tenant-ID. */
const tenantScoped = <const S extends Spec>(spec: S): TenantScoped<S> =>
  ({ errors: "envelope", auth: "bearer", scope: "tenant", headers: TenantHeaders, ...spec }) as TenantScoped<S>;
const ok = <T extends z.ZodType>(description: string, data: T) => ({ description, schema: SuccessEnvelope(data) });
const failure = (description: string) => ({ description, schema: ErrorEnvelope });
const MANAGERS = ["owner", "admin"] as const;
const BUDGET_NOT_FOUND = failure("No such budget in the tenant");

/** Budgets of a tenant and its spend anomalies. */
export const mainApiAlertRoutes = {
  createBudget: defineRoute(
    tenantScoped({
      operationId: "createBudget",
      method: "post",
      path: "/api/v1/tenant/budgets",
      tags: ["Budgets"],
      summary: "Create a budget with actual and forecast thresholds (owner/admin)",
      description: "Each (budget, threshold, period) sends `budget.threshold_crossed` once, when first found crossed.",
      write: true,
      roles: MANAGERS,
      idempotent: true,
      body: a.CreateBudgetRequest,
      responses: { 201: ok("The budget with its status", a.Budget) },
    }),
  ),
  listBudgets: defineRoute(
    tenantScoped({
      operationId: "listBudgets",
      method: "get",
      path: "/api/v1/tenant/budgets",
      tags: ["Budgets"],
      summary: "Budgets of the tenant with their status, computed from the ledger",
      responses: { 200: ok("The budgets", a.BudgetList) },
    }),
  ),
  getBudget: defineRoute(
    tenantScoped({
      operationId: "getBudget",
      method: "get",
      path: "/api/v1/tenant/budgets/{id}",
      tags: ["Budgets"],
      summary: "One budget with its status",
      params: a.BudgetPathParams,
      responses: { 200: ok("The budget", a.Budget), 404: BUDGET_NOT_FOUND },
    }),
  ),
  updateBudget: defineRoute(
    tenantScoped({
      operationId: "updateBudget",
      method: "patch",
      path: "/api/v1/tenant/budgets/{id}",
      tags: ["Budgets"],
      summary: "Change a budget (owner/admin)",
      write: true,
      roles: MANAGERS,
      params: a.BudgetPathParams,
      body: a.UpdateBudgetRequest,
      responses: { 200: ok("The budget", a.Budget), 404: BUDGET_NOT_FOUND },
    }),
  ),
  deleteBudget: defineRoute(
    tenantScoped({
      operationId: "deleteBudget",
      method: "delete",
      path: "/api/v1/tenant/budgets/{id}",
      tags: ["Budgets"],
      summary: "Delete a budget (owner/admin)",
      write: true,
      roles: MANAGERS,
      params: a.BudgetPathParams,
      responses: { 204: { description: "Deleted", schema: null }, 404: BUDGET_NOT_FOUND },
    }),
  ),
  detectAnomalies: defineRoute(
    tenantScoped({
      operationId: "detectAnomalies",
      method: "post",
      path: "/api/v1/tenant/spend/anomalies/detect",
      tags: ["Anomalies"],
      summary:
        "Score the tenant's daily usage cost per service and in total, per currency, now (also done once a day and after imports); new anomalies emit `anomaly.detected`",
      write: true,
      idempotent: true,
      body: a.DetectAnomaliesRequest,
      responses: { 200: ok("The new anomalies", a.DetectAnomaliesResponse) },
    }),
  ),
  listAnomalies: defineRoute(
    tenantScoped({
      operationId: "listAnomalies",
      method: "get",
      path: "/api/v1/tenant/spend/anomalies",
      tags: ["Anomalies"],
      summary: "Spend anomalies of the tenant, as ranges of days",
      query: a.AnomaliesQuery,
      responses: { 200: ok("The anomalies", a.AnomalyList) },
    }),
  ),
  updateAnomaly: defineRoute(
    tenantScoped({
      operationId: "updateAnomaly",
      method: "patch",
      path: "/api/v1/tenant/spend/anomalies/{id}",
      tags: ["Anomalies"],
      summary:
        "Give feedback on an anomaly: `yes`, `no` or `planned_activity` (the last two end it and mute its monitor for 7 days, for days up to 1.2 x its largest day)",
      write: true,
      params: a.AnomalyPathParams,
      body: a.AnomalyFeedbackRequest,
      responses: { 200: ok("The anomaly", a.Anomaly), 404: failure("No such anomaly in the tenant") },
    }),
  ),
} as const;
