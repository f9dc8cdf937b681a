import type { CreateBudgetRequest, UpdateBudgetRequest } from "@cloudcost/contracts";
import type { TenantRef } from "../context";
import type { Prisma } from "../db";
import type { Budget } from "../generated/prisma/client";
import type { Tx } from "../transactions";

type Db = Prisma | Tx;

export function findTenantBudgets(db: Db, tenant: TenantRef): Promise<Budget[]> {
  return db.budget.findMany({ where: { organizationId: tenant.organizationId, tenantId: tenant.id }, orderBy: { id: "asc" } });
}

export function findBudget(db: Db, tenant: TenantRef, id: string): Promise<Budget | null> {
  return db.budget.findFirst({ where: { organizationId: tenant.organizationId, tenantId: tenant.id, id } });
}

type BudgetField = "name" | "period" | "amount" | "currency" | "metric" | "filters" | "thresholds";

/** The stored fields of a budget's body (those of an update are the ones it sends). */
function budgetFields<B extends UpdateBudgetRequest>(body: B): Pick<B, BudgetField> {
  const fields: Pick<UpdateBudgetRequest, BudgetField> = {
    name: body.name,
    period: body.period,
    amount: body.amount,
    currency: body.currency,
    metric: body.metric,
    filters: body.filters,
    thresholds: body.thresholds,
  };
  return fields as Pick<B, BudgetField>;
}

export function insertBudget(db: Db, tenant: TenantRef, id: string, body: CreateBudgetRequest): Promise<Budget> {
  return db.budget.create({
    data: {
      organizationId: tenant.organizationId,
      tenantId: tenant.id,
      id,
      ...budgetFields(body),
    },
  });
}

/** Changes the fields sent; returns how many rows changed (0: not in this tenant). */
export async function updateBudgetRow(db: Db, tenant: TenantRef, id: string, body: UpdateBudgetRequest, now: Date): Promise<number> {
  const { count } = await db.budget.updateMany({
    where: { organizationId: tenant.organizationId, tenantId: tenant.id, id },
    data: { ...budgetFields(body), updatedAt: now },
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

/** What the budget service reads and writes through Prisma's models; each function takes the client or the transaction it runs in. */
export const budgetRepository = {
  findTenantBudgets,
  findBudget,
  insertBudget,
  updateBudgetRow,
  deleteBudgetRow,
  deleteNotifications,
  budgetTenantIds,
  tenantsWithBudgets,
};
export type BudgetRepository = typeof budgetRepository;
