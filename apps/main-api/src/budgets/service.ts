import type { Budget as BudgetBody, BudgetFilters, BudgetThreshold, CreateBudgetRequest, UpdateBudgetRequest } from "@cloudcost/contracts";
import { newId, TRANSACTION_OPTIONS } from "@cloudcost/db";
import { notFound } from "@cloudcost/http";
import type { Prisma } from "../db";
import type { Budget } from "../generated/prisma/client";
import { budgetStatus, budgetStatuses, type BudgetSpec } from "./status";
import type { TenantRef } from "../context";

export function specOf(row: Budget): BudgetSpec {
  return {
    organizationId: row.organizationId,
    tenantId: row.tenantId,
    period: row.period as BudgetSpec["period"],
    amount: row.amount.toString(),
    currency: row.currency,
    metric: row.metric as BudgetSpec["metric"],
    filters: row.filters as BudgetFilters,
    thresholds: row.thresholds as unknown as BudgetThreshold[],
  };
}

async function toBudget(prisma: Prisma, row: Budget, now: Date): Promise<BudgetBody> {
  return toBudgetWith(row, await budgetStatus(prisma, specOf(row), now));
}

function toBudgetWith(row: Budget, status: BudgetBody["status"]): BudgetBody {
  const spec = specOf(row);
  return {
    id: row.id,
    tenant_id: row.tenantId,
    name: row.name,
    period: spec.period,
    amount: row.amount.toFixed(),
    currency: row.currency,
    metric: spec.metric,
    filters: spec.filters,
    thresholds: spec.thresholds,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    status,
  };
}

export async function createBudget(prisma: Prisma, tenant: TenantRef, body: CreateBudgetRequest, now = new Date()): Promise<BudgetBody> {
  const row = await prisma.budget.create({
    data: {
      organizationId: tenant.organizationId,
      tenantId: tenant.id,
      id: newId("bud"),
      name: body.name,
      period: body.period,
      amount: body.amount,
      currency: body.currency,
      metric: body.metric,
      filters: body.filters,
      thresholds: body.thresholds,
    },
  });
  return toBudget(prisma, row, now);
}

export async function listBudgets(prisma: Prisma, tenant: TenantRef, now = new Date()): Promise<{ items: BudgetBody[] }> {
  const rows = await prisma.budget.findMany({ where: { organizationId: tenant.organizationId, tenantId: tenant.id }, orderBy: { id: "asc" } });
  const statuses = await budgetStatuses(prisma, rows.map(specOf), now);
  return { items: rows.map((row, i) => toBudgetWith(row, statuses[i])) };
}

export async function getBudget(prisma: Prisma, tenant: TenantRef, id: string, now = new Date()): Promise<BudgetBody> {
  return toBudget(prisma, await findBudget(prisma, tenant, id), now);
}

export async function updateBudget(prisma: Prisma, tenant: TenantRef, id: string, body: UpdateBudgetRequest, now = new Date()): Promise<BudgetBody> {
  const { count } = await prisma.budget.updateMany({
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
  if (count === 0) throw notFound(`Budget ${id} is not in this tenant.`);
  return getBudget(prisma, tenant, id, now);
}

/** Deletes the budget with its notification records. */
export async function deleteBudget(prisma: Prisma, tenant: TenantRef, id: string): Promise<void> {
  const deleted = await prisma.$transaction(async (tx) => {
    const { count } = await tx.budget.deleteMany({ where: { organizationId: tenant.organizationId, tenantId: tenant.id, id } });
    if (count) await tx.budgetNotification.deleteMany({ where: { organizationId: tenant.organizationId, budgetId: id } });
    return count;
  }, TRANSACTION_OPTIONS);
  if (deleted === 0) throw notFound(`Budget ${id} is not in this tenant.`);
}

async function findBudget(prisma: Prisma, tenant: TenantRef, id: string): Promise<Budget> {
  const row = await prisma.budget.findFirst({ where: { organizationId: tenant.organizationId, tenantId: tenant.id, id } });
  if (!row) throw notFound(`Budget ${id} is not in this tenant.`);
  return row;
}
