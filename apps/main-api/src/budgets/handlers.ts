import type { mainApiBudgetRoutes } from "@cloudcost/contracts";
import type { TenantRef } from "../context";
import type { AppDeps } from "../deps";
import { created, success } from "../http/envelope";
import type { Handlers } from "../operations";
import { notifyBudgetThresholds } from "./notify";
import { createBudget, deleteBudget, getBudget, listBudgets, updateBudget } from "./service";

/** `/api/v1/tenant/budgets` (authorize selected the tenant and checked the role). */
export function budgetHandlers(deps: Pick<AppDeps, "prisma" | "outbox" | "clock">): Handlers<keyof typeof mainApiBudgetRoutes> {
  const { prisma, outbox } = deps;
  const clock = () => deps.clock();
  /** A new or changed budget may already be over a threshold: notify now rather than at the next check. */
  const check = async (tenant: TenantRef) => {
    if ((await notifyBudgetThresholds(prisma, tenant, clock())) > 0) outbox.kick();
  };
  return {
    createBudget: async ({ body }, { tenant }) => {
      const budget = await createBudget(prisma, tenant, body, clock());
      await check(tenant);
      return created("Budget created.", budget);
    },
    listBudgets: async (_input, { tenant }) => success("Budgets of the tenant.", await listBudgets(prisma, tenant, clock())),
    getBudget: async ({ params }, { tenant }) => success("The budget.", await getBudget(prisma, tenant, params.id, clock())),
    updateBudget: async ({ params, body }, { tenant }) => {
      const budget = await updateBudget(prisma, tenant, params.id, body, clock());
      await check(tenant);
      return success("Budget updated.", budget);
    },
    deleteBudget: async ({ params }, { tenant }) => {
      await deleteBudget(prisma, tenant, params.id);
      return { status: 204 };
    },
  };
}
