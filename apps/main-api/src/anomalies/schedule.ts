import { type Periodic, startPeriodic } from "@cloudcost/http";
import type { Logger } from "pino";
import { type BudgetService, budgetServiceOver } from "../budgets/service";
import type { Prisma } from "../db";
import type { OutboxWorker } from "../outbox";
import { type AnomalyService, anomalyServiceOver } from "./service";

/**
 * Checks every budget's thresholds every `intervalMinutes` (0: never), and runs the anomaly
 * detection of every tenant with recent spend once per UTC day (at the first check of the day).
 * The first check starts at once; on the shared periodic runner, an overrunning check delays the
 * next (a full interval after it ends) and checks never overlap. Replicas may all run it:
 * notifications and anomalies are unique in the database, so none is sent twice. The budget and
 * anomaly services are the ones given, else built over `prisma` once, when the schedule starts.
 */
export function startAlertSchedule(
  deps: { prisma: Prisma; logger: Logger; outbox: OutboxWorker; budgets?: BudgetService; anomalies?: AnomalyService },
  intervalMinutes: number,
): Periodic {
  const budgets = deps.budgets ?? budgetServiceOver(deps.prisma);
  const anomalies = deps.anomalies ?? anomalyServiceOver(deps.prisma);
  let detectedDay = "";
  const check = async () => {
    const now = new Date();
    let sent = 0;
    for (const tenant of await budgets.tenantsWithBudgets()) sent += await budgets.notifyThresholds(tenant, now);
    const day = now.toISOString().slice(0, 10);
    if (day !== detectedDay) {
      // One detection per organization, over all its tenants with recent spend.
      const organizations = new Map<string, string[]>();
      for (const tenant of await anomalies.tenantsWithRecentSpend(now))
        organizations.set(tenant.organizationId, [...(organizations.get(tenant.organizationId) ?? []), tenant.id]);
      for (const [organizationId, tenantIds] of organizations)
        sent += (await anomalies.detectOrganizationAnomalies(organizationId, tenantIds, { days: 2 }, now)).detected;
      detectedDay = day;
    }
    if (sent > 0) deps.outbox.kick();
  };
  return startPeriodic({
    intervalMs: intervalMinutes * 60_000,
    runAtStart: true,
    run: check,
    onError: (err) => deps.logger.error({ err }, "budget and anomaly checks failed"),
  });
}
