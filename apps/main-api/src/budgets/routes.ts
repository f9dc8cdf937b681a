import type { Request } from "express";
import type { AppDeps } from "../deps";
import { created, success } from "../http/envelope";
import type { Handlers } from "../operations";
import { notifyBudgetThresholds } from "./notify";
import { createBudget, deleteBudget, getBudget, listBudgets, type TenantRef, updateBudget } from "./service";

export const tenantOf = (req: Request): TenantRef => {
  if (!req.tenant) throw new Error("requireTenant did not run before a tenant handler");
  return { id: req.tenant.id, organizationId: req.tenant.organizationId };
};

type BudgetOperation = "createBudget" | "listBudgets" | "getBudget" | "updateBudget" | "deleteBudget";

/** `/api/v1/tenant/budgets` (requireTenant selected the tenant and checked the role). */
export function budgetHandlers(deps: Pick<AppDeps, "prisma" | "outbox">): Handlers<BudgetOperation> {
  const { prisma, outbox } = deps;
  /** A new or changed budget may already be over a threshold: notify now rather than at the next check. */
  const check = async (tenant: TenantRef) => {
    if ((await notifyBudgetThresholds(prisma, tenant)) > 0) outbox.kick();
  };
  return {
    createBudget: async ({ body }, req) => {
      const budget = await createBudget(prisma, tenantOf(req), body);
      await check(tenantOf(req));
      return created("Budget created.", budget);
    },
    listBudgets: async (_input, req) => success("Budgets of the tenant.", await listBudgets(prisma, tenantOf(req))),
    getBudget: async ({ params }, req) => success("The budget.", await getBudget(prisma, tenantOf(req), params.id)),
    updateBudget: async ({ params, body }, req) => {
      const budget = await updateBudget(prisma, tenantOf(req), params.id, body);
      await check(tenantOf(req));
      return success("Budget updated.", budget);
    },
    deleteBudget: async ({ params }, req) => {
      await deleteBudget(prisma, tenantOf(req), params.id);
      return { status: 204 };
    },
  };
}
