import type { Logger } from "pino";
import { notifyBudgetThresholds, tenantsWithBudgets } from "../budgets/notify";
import type { Prisma } from "../db";
import type { OutboxWorker } from "../outbox";
import { detectOrganizationAnomalies, tenantsWithRecentSpend } from "./service";

/**
 * Checks every budget's thresholds every `intervalMinutes`, and runs the anomaly detection of every
 * tenant with recent spend once per UTC day (at the first tick of the day). Replicas may all run
 * it: notifications and anomalies are unique in the database, so none is sent twice.
 */
export function startAlertSchedule(deps: { prisma: Prisma; logger: Logger; outbox: OutboxWorker }, intervalMinutes: number): { stop(): Promise<void> } {
  if (intervalMinutes <= 0) return { stop: async () => undefined };
  let detectedDay = "";
  let running: Promise<void> | undefined;
  const tick = async () => {
    const now = new Date();
    let sent = 0;
    for (const tenant of await tenantsWithBudgets(deps.prisma)) sent += await notifyBudgetThresholds(deps.prisma, tenant, now);
    const day = now.toISOString().slice(0, 10);
    if (day !== detectedDay) {
      // One detection per organization, over all its tenants with recent spend.
      const organizations = new Map<string, string[]>();
      for (const tenant of await tenantsWithRecentSpend(deps.prisma, now))
        organizations.set(tenant.organizationId, [...(organizations.get(tenant.organizationId) ?? []), tenant.id]);
      for (const [organizationId, tenantIds] of organizations)
        sent += (await detectOrganizationAnomalies(deps.prisma, organizationId, tenantIds, { days: 2 }, now)).detected;
      detectedDay = day;
    }
    if (sent > 0) deps.outbox.kick();
  };
  const run = () => {
    if (running) return;
    running = tick()
      .catch((err) => deps.logger.error({ err }, "budget and anomaly checks failed"))
      .finally(() => {
        running = undefined;
      });
  };
  const timer = setInterval(run, intervalMinutes * 60_000);
  timer.unref();
  setImmediate(run);
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
