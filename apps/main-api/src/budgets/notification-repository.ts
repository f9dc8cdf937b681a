import type { BudgetThreshold } from "@cloudcost/contracts";
import type { CheckedStatement } from "@cloudcost/db";
import type { Tx } from "../transactions";

/**
 * A budget's notifications through Prisma's raw queries (the insert that loses to a concurrent one
 * does nothing); the budgets themselves and the deletion of their notifications are repository.ts's.
 */
const INSERT_NOTIFICATION_SQL = `INSERT INTO budget_notifications (organization_id, budget_id, threshold_kind, threshold_percent, period_start, event_id)
       VALUES ($1, $2, $3, $4::numeric, $5, $6) ON CONFLICT DO NOTHING`;

/** Records a notification; false when (budget, threshold, period) already has one. */
export async function insertNotification(
  tx: Tx,
  notification: { organizationId: string; budgetId: string; threshold: BudgetThreshold; periodStart: Date; eventId: string },
): Promise<boolean> {
  const inserted = await tx.$executeRawUnsafe(
    INSERT_NOTIFICATION_SQL,
    notification.organizationId,
    notification.budgetId,
    notification.threshold.kind,
    String(notification.threshold.percent),
    notification.periodStart,
    notification.eventId,
  );
  return inserted > 0;
}

/** The raw statements of this module, for test/repository-row-types.test.ts. */
export function checkedStatements(): CheckedStatement[] {
  return [{ name: "budget notification insert", sql: INSERT_NOTIFICATION_SQL, columns: null }];
}

/** What the threshold notifications write. */
export const budgetNotificationRepository = { insertNotification };
export type BudgetNotificationRepository = typeof budgetNotificationRepository;
