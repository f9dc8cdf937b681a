import type { BudgetThreshold } from "@cloudcost/contracts";
import { TRANSACTION_OPTIONS } from "@cloudcost/db";
import type { TenantRef } from "../context";
import type { Prisma } from "../db";
import { emitWebhookEvent, newEventId } from "../webhooks/events";
import { specOf } from "./service";
import { findTenantBudgets, insertNotification } from "./repository";
import { budgetStatuses } from "./status";

/**
 * Sends `budget.threshold_crossed` for every threshold of the tenant's budgets crossed in the
 * current period and not notified yet. The notification row's primary key (budget, threshold,
 * period) decides between concurrent checkers (replicas, imports): the losing insert does nothing,
 * and the event is written in the winner's transaction. Returns how many were sent; the caller
 * kicks the outbox.
 */
export async function notifyBudgetThresholds(prisma: Prisma, tenant: TenantRef, now = new Date()): Promise<number> {
  const budgets = await findTenantBudgets(prisma, tenant);
  const statuses = await budgetStatuses(prisma, budgets.map(specOf), now);
  let sent = 0;
  for (const [i, row] of budgets.entries()) {
    const status = statuses[i];
    for (const threshold of status.crossed) {
      const data = {
        budget_id: row.id,
        tenant_id: row.tenantId,
        threshold: { percent: threshold.percent, kind: threshold.kind },
        period_start: status.period_start,
        period_end: status.period_end,
        spent: status.spent,
        forecast: status.forecast,
        amount: row.amount.toFixed(),
        currency: row.currency,
      };
      if (await notifyOnce(prisma, row.organizationId, row.id, threshold, new Date(status.period_start), data)) sent++;
    }
  }
  return sent;
}

async function notifyOnce(
  prisma: Prisma,
  organizationId: string,
  budgetId: string,
  threshold: BudgetThreshold,
  periodStart: Date,
  data: Record<string, unknown>,
): Promise<boolean> {
  return prisma.$transaction(async (tx) => {
    const eventId = newEventId();
    if (!(await insertNotification(tx, { organizationId, budgetId, threshold, periodStart, eventId }))) return false;
    await emitWebhookEvent(tx, { organizationId, type: "budget.threshold_crossed", data: data as never, id: eventId });
    return true;
  }, TRANSACTION_OPTIONS);
}
