import type { AppDeps } from "../deps";
import { notifyBudgetThresholds } from "./notify";
import { budgetTenantIds } from "./repository";

type Deps = Pick<AppDeps, "prisma" | "outbox" | "logger"> & Partial<Pick<AppDeps, "clock">>;

/**
 * Checks the budgets of the tenants a change of spend touched (`null`: every tenant of the
 * organization with a budget, as after an import) and kicks the outbox when a threshold notified.
 * The spend is already stored: a failure here is logged, and the schedule checks again later.
 */
export async function checkBudgetsAfterSpend(
  deps: Deps,
  organizationId: string,
  tenantIds: string[] | null,
  now = deps.clock?.() ?? new Date(),
): Promise<void> {
  try {
    const tenants = tenantIds ?? (await budgetTenantIds(deps.prisma, organizationId));
    let sent = 0;
    for (const id of tenants) sent += await notifyBudgetThresholds(deps.prisma, { id, organizationId }, now);
    if (sent > 0) deps.outbox.kick();
  } catch (err) {
    deps.logger.error({ err, organizationId }, "budget check after a spend change failed");
  }
}
