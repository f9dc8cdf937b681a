import type { AppDeps } from "../deps";
import type { BudgetService } from "./service";

/** What the check needs; `budgets`: the budget service its caller built once. */
type Deps = Pick<AppDeps, "outbox" | "logger"> & Partial<Pick<AppDeps, "clock">> & { budgets: BudgetService };

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
  const { budgets } = deps;
  try {
    const tenants = tenantIds ?? (await budgets.budgetTenantIds(organizationId));
    let sent = 0;
    for (const id of tenants) sent += await budgets.notifyThresholds({ id, organizationId }, now);
    if (sent > 0) deps.outbox.kick();
  } catch (err) {
    deps.logger.error({ err, organizationId }, "budget check after a spend change failed");
  }
}
