import type { Budget as BudgetBody, BudgetFilters, BudgetThreshold, CreateBudgetRequest, UpdateBudgetRequest } from "@cloudcost/contracts";
import { newId, TRANSACTION_OPTIONS } from "@cloudcost/db";
import { Decimal } from "@cloudcost/decimal";
import { badRequest, notFound } from "@cloudcost/http";
import { dimensionFilterOf, hasDimension } from "../spend/forecast/dimension-filter";
import type { Prisma } from "../db";
import type { Budget } from "../generated/prisma/client";
import { deleteBudgetRow, deleteNotifications, findBudget, findTenantBudgets, insertBudget, updateBudgetRow } from "./repository";
import { budgetStatus, budgetStatuses, type BudgetSpec, queryClient } from "./status";
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

/** A `dimension:<key>` filter names a dimension of the organization (400 naming it otherwise). */
async function checkDimensionFilter(prisma: Prisma, organizationId: string, filters: BudgetFilters | undefined): Promise<void> {
  const dimension = filters ? dimensionFilterOf(filters as Record<string, string[] | undefined>) : null;
  if (!dimension) return;
  if (!(await hasDimension(queryClient(prisma), organizationId, dimension.key)))
    throw badRequest(`Invalid body: filters.dimension:${dimension.key}: no dimension ${dimension.key} in this organization`, [
      { path: `filters.dimension:${dimension.key}`, message: `no dimension ${dimension.key} in this organization` },
    ]);
}

export async function createBudget(prisma: Prisma, tenant: TenantRef, body: CreateBudgetRequest, now = new Date()): Promise<BudgetBody> {
  await checkDimensionFilter(prisma, tenant.organizationId, body.filters);
  return toBudget(prisma, await insertBudget(prisma, tenant, newId("bud"), body), now);
}

export async function listBudgets(prisma: Prisma, tenant: TenantRef, now = new Date()): Promise<{ items: BudgetBody[] }> {
  const rows = await findTenantBudgets(prisma, tenant);
  const statuses = await budgetStatuses(prisma, rows.map(specOf), now);
  return { items: rows.map((row, i) => toBudgetWith(row, statuses[i])) };
}

export async function getBudget(prisma: Prisma, tenant: TenantRef, id: string, now = new Date()): Promise<BudgetBody> {
  const row = await findBudget(prisma, tenant, id);
  if (!row) throw notFound(`Budget ${id} is not in this tenant.`);
  return toBudget(prisma, row, now);
}

/**
 * Changes the budget. A new amount or new thresholds re-arm it: its notification records start
 * afresh, so every threshold crossed under the new values notifies once at the next check.
 */
export async function updateBudget(prisma: Prisma, tenant: TenantRef, id: string, body: UpdateBudgetRequest, now = new Date()): Promise<BudgetBody> {
  await checkDimensionFilter(prisma, tenant.organizationId, body.filters);
  const updated = await prisma.$transaction(async (tx) => {
    const before = await findBudget(tx, tenant, id);
    if (!before || (await updateBudgetRow(tx, tenant, id, body, now)) === 0) return false;
    const amountChanged = body.amount !== undefined && !new Decimal(body.amount).eq(before.amount.toString());
    const thresholdsChanged = body.thresholds !== undefined && JSON.stringify(body.thresholds) !== JSON.stringify(before.thresholds);
    if (amountChanged || thresholdsChanged) await deleteNotifications(tx, tenant.organizationId, id);
    return true;
  }, TRANSACTION_OPTIONS);
  if (!updated) throw notFound(`Budget ${id} is not in this tenant.`);
  return getBudget(prisma, tenant, id, now);
}

/** Deletes the budget with its notification records. */
export async function deleteBudget(prisma: Prisma, tenant: TenantRef, id: string): Promise<void> {
  const deleted = await prisma.$transaction(async (tx) => {
    const count = await deleteBudgetRow(tx, tenant, id);
    if (count) await deleteNotifications(tx, tenant.organizationId, id);
    return count;
  }, TRANSACTION_OPTIONS);
  if (deleted === 0) throw notFound(`Budget ${id} is not in this tenant.`);
}
