import { defineRoute, failure, inTenant, MANAGERS, ok } from "../declare.js";
import * as b from "./schemas.js";

const tags = ["Budgets"];
const BUDGET_NOT_FOUND = failure("No such budget in the tenant");

/** `/api/v1/tenant/budgets`: budgets of the tenant named by X-Service-Tenant-ID, with their thresholds. */
export const mainApiBudgetRoutes = {
  createBudget: defineRoute(
    inTenant({
      operationId: "createBudget",
      method: "post",
      path: "/api/v1/tenant/budgets",
      tags,
      summary: "Create a budget with actual and forecast thresholds (owner/admin)",
      description: "Each (budget, threshold, period) sends `budget.threshold_crossed` once, when first found crossed.",
      write: true,
      roles: MANAGERS,
      idempotent: true,
      body: b.CreateBudgetRequest,
      responses: { 201: ok("The budget with its status", b.Budget) },
    }),
  ),
  listBudgets: defineRoute(
    inTenant({
      operationId: "listBudgets",
      method: "get",
      path: "/api/v1/tenant/budgets",
      tags,
      summary: "Budgets of the tenant with their status, computed from the ledger",
      responses: { 200: ok("The budgets", b.BudgetList) },
    }),
  ),
  getBudget: defineRoute(
    inTenant({
      operationId: "getBudget",
      method: "get",
      path: "/api/v1/tenant/budgets/{id}",
      tags,
      summary: "One budget with its status",
      params: b.BudgetPathParams,
      responses: { 200: ok("The budget", b.Budget), 404: BUDGET_NOT_FOUND },
    }),
  ),
  updateBudget: defineRoute(
    inTenant({
      operationId: "updateBudget",
      method: "patch",
      path: "/api/v1/tenant/budgets/{id}",
      tags,
      summary: "Change a budget (owner/admin)",
      write: true,
      roles: MANAGERS,
      params: b.BudgetPathParams,
      body: b.UpdateBudgetRequest,
      responses: { 200: ok("The budget", b.Budget), 404: BUDGET_NOT_FOUND },
    }),
  ),
  deleteBudget: defineRoute(
    inTenant({
      operationId: "deleteBudget",
      method: "delete",
      path: "/api/v1/tenant/budgets/{id}",
      tags,
      summary: "Delete a budget (owner/admin)",
      write: true,
      roles: MANAGERS,
      params: b.BudgetPathParams,
      responses: { 204: { description: "Deleted", schema: null }, 404: BUDGET_NOT_FOUND },
    }),
  ),
} as const;
