import type { mainApiBudgetRoutes } from "@cloudcost/contracts";
import type { TenantRef } from "../context";
import type { AppDeps } from "../deps";
import { created, success } from "../http/envelope";
import type { Handlers } from "../operations";
import { budgetServiceOver } from "./service";

/** `/api/v1/tenant/budgets` (authorize selected the tenant and checked the role). */
export function budgetHandlers(deps: Pick<AppDeps, "prisma" | "outbox" | "clock">): Handlers<keyof typeof mainApiBudgetRoutes> {
  const { outbox } = deps;
  const budgets = budgetServiceOver(deps.prisma);
  const clock = () => deps.clock();
  /** A new or changed budget may already be over a threshold: notify now rather than at the next check. */
  const check = async (tenant: TenantRef) => {
    if ((await budgets.notifyThresholds(tenant, clock())) > 0) outbox.kick();
  };
  return {
    createBudget: async ({ body }, { tenant }) => {
      const budget = await budgets.createBudget(tenant, body, clock());
      await check(tenant);
      return created("Budget created.", budget);
    },
    listBudgets: async (_input, { tenant }) => success("Budgets of the tenant.", await budgets.listBudgets(tenant, clock())),
    getBudget: async ({ params }, { tenant }) => success("The budget.", await budgets.getBudget(tenant, params.id, clock())),
    updateBudget: async ({ params, body }, { tenant }) => {
      const budget = await budgets.updateBudget(tenant, params.id, body, clock());
      await check(tenant);
      return success("Budget updated.", budget);
    },
    deleteBudget: async ({ params }, { tenant }) => {
      await budgets.deleteBudget(tenant, params.id);
      return { status: 204 };
    },
  };
}
