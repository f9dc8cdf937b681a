import type { BudgetThreshold, CreateBudgetRequest, UpdateBudgetRequest } from "@cloudcost/contracts";
import type { TenantRef } from "../context";
import type { Prisma } from "../db";
import type { Budget } from "../generated/prisma/client";
import type { CheckedStatement } from "@cloudcost/db";
import type { Tx } from "../transactions";

type Db = Prisma | Tx;

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

export function findTenantBudgets(db: Db, tenant: TenantRef): Promise<Budget[]> {
  return db.budget.findMany({ where: { organizationId: tenant.organizationId, tenantId: tenant.id }, orderBy: { id: "asc" } });
}

export function findBudget(db: Db, tenant: TenantRef, id: string): Promise<Budget | null> {
  return db.budget.findFirst({ where: { organizationId: tenant.organizationId, tenantId: tenant.id, id } });
}

export function insertBudget(db: Db, tenant: TenantRef, id: string, body: CreateBudgetRequest): Promise<Budget> {
  return db.budget.create({
    data: {
      organizationId: tenant.organizationId,
      tenantId: tenant.id,
      id,
      name: body.name,
      period: body.period,
      amount: body.amount,
      currency: body.currency,
      metric: body.metric,
      filters: body.filters,
      thresholds: body.thresholds,
    },
  });
}

/** Changes the fields sent; returns how many rows changed (0: not in this tenant). */
export async function updateBudgetRow(db: Db, tenant: TenantRef, id: string, body: UpdateBudgetRequest, now: Date): Promise<number> {
  const { count } = await db.budget.updateMany({
    where: { organizationId: tenant.organizationId, tenantId: tenant.id, id },
    data: {
      name: body.name,
      period: body.period,
      amount: body.amount,
      currency: body.currency,
      metric: body.metric,
      filters: body.filters,
      thresholds: body.thresholds,
      updatedAt: now,
    },
  });
  return count;
}

export async function deleteBudgetRow(tx: Tx, tenant: TenantRef, id: string): Promise<number> {
  const { count } = await tx.budget.deleteMany({ where: { organizationId: tenant.organizationId, tenantId: tenant.id, id } });
  return count;
}

export async function deleteNotifications(tx: Tx, organizationId: string, budgetId: string): Promise<void> {
  await tx.budgetNotification.deleteMany({ where: { organizationId, budgetId } });
}

/** The tenants of the organization with a budget. */
export async function budgetTenantIds(db: Db, organizationId: string): Promise<string[]> {
  const rows = await db.budget.findMany({ where: { organizationId }, distinct: ["tenantId"], select: { tenantId: true } });
  return rows.map((row) => row.tenantId);
}

/** Every tenant with a budget, across organizations (the schedule checks them all). */
export async function tenantsWithBudgets(db: Db): Promise<TenantRef[]> {
  const rows = await db.budget.findMany({ distinct: ["organizationId", "tenantId"], select: { organizationId: true, tenantId: true } });
  return rows.map((row) => ({ id: row.tenantId, organizationId: row.organizationId }));
}
