import type { Budget as BudgetBody, BudgetFilters, BudgetThreshold, CreateBudgetRequest, UpdateBudgetRequest } from "@cloudcost/contracts";
import { newId, TRANSACTION_OPTIONS } from "@cloudcost/db";
import { Decimal } from "@cloudcost/decimal";
import { badRequest, notFound } from "@cloudcost/http";
import { dimensionFilterOf, hasDimension } from "../spend/forecast/dimension-filter";
import type { Prisma } from "../db";
import type { Budget } from "../generated/prisma/client";
import { emitWebhookEvent, newEventId } from "../webhooks/events";
import type { TenantRef } from "../context";
import { type BudgetNotificationRepository, budgetNotificationRepository } from "./notification-repository";
import { type BudgetRepository, budgetRepository } from "./repository";
import { type BudgetStatusReads, budgetStatus, budgetStatusReadsOver, budgetStatuses, specOf } from "./status";

export interface BudgetServiceDeps {
  /**
   * Opens the transactions and reads the statuses (status.ts, through the forecast's reads); every
   * query of budgets and their notifications goes through `budgets` and `notifications`.
   */
  prisma: Prisma;
  budgets: BudgetRepository;
  notifications: BudgetNotificationRepository;
  /** What the statuses are read through (status.ts), and the dimensions a budget's filters name. */
  statusReads: BudgetStatusReads;
}

export type BudgetService = ReturnType<typeof createBudgetService>;

/** The service over this domain's repositories: what handlers.ts, the schedule and the spend checks build once. */
export function budgetServiceOver(prisma: Prisma): BudgetService {
  return createBudgetService({
    prisma,
    budgets: budgetRepository,
    notifications: budgetNotificationRepository,
    statusReads: budgetStatusReadsOver(prisma),
  });
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

/** A tenant's budgets (authorize selected the tenant and checked the role) and their threshold notifications. */
export function createBudgetService(deps: BudgetServiceDeps) {
  const { prisma, budgets, notifications } = deps;

  async function toBudget(row: Budget, now: Date): Promise<BudgetBody> {
    return toBudgetWith(row, await budgetStatus(deps.statusReads, specOf(row), now));
  }

  /** A `dimension:<key>` filter names a dimension of the organization (400 naming it otherwise). */
  async function checkDimensionFilter(organizationId: string, filters: BudgetFilters | undefined): Promise<void> {
    const dimension = filters ? dimensionFilterOf(filters as Record<string, string[] | undefined>) : null;
    if (!dimension) return;
    if (!(await hasDimension(deps.statusReads.spend, organizationId, dimension.key)))
      throw badRequest(`Invalid body: filters.dimension:${dimension.key}: no dimension ${dimension.key} in this organization`, [
        { path: `filters.dimension:${dimension.key}`, message: `no dimension ${dimension.key} in this organization` },
      ]);
  }

  async function getBudget(tenant: TenantRef, id: string, now = new Date()): Promise<BudgetBody> {
    const row = await budgets.findBudget(prisma, tenant, id);
    if (!row) throw notFound(`Budget ${id} is not in this tenant.`);
    return toBudget(row, now);
  }

  async function notifyOnce(
    organizationId: string,
    budgetId: string,
    threshold: BudgetThreshold,
    periodStart: Date,
    data: Record<string, unknown>,
  ): Promise<boolean> {
    return prisma.$transaction(async (tx) => {
      const eventId = newEventId();
      if (!(await notifications.insertNotification(tx, { organizationId, budgetId, threshold, periodStart, eventId }))) return false;
      await emitWebhookEvent(tx, { organizationId, type: "budget.threshold_crossed", data: data as never, id: eventId });
      return true;
    }, TRANSACTION_OPTIONS);
  }

  return {
    async createBudget(tenant: TenantRef, body: CreateBudgetRequest, now = new Date()): Promise<BudgetBody> {
      await checkDimensionFilter(tenant.organizationId, body.filters);
      return toBudget(await budgets.insertBudget(prisma, tenant, newId("bud"), body), now);
    },

    async listBudgets(tenant: TenantRef, now = new Date()): Promise<{ items: BudgetBody[] }> {
      const rows = await budgets.findTenantBudgets(prisma, tenant);
      const statuses = await budgetStatuses(deps.statusReads, rows.map(specOf), now);
      return { items: rows.map((row, i) => toBudgetWith(row, statuses[i])) };
    },

    getBudget,

    /**
     * Changes the budget. A new amount or new thresholds re-arm it: its notification records start
     * afresh, so every threshold crossed under the new values notifies once at the next check.
     */
    async updateBudget(tenant: TenantRef, id: string, body: UpdateBudgetRequest, now = new Date()): Promise<BudgetBody> {
      await checkDimensionFilter(tenant.organizationId, body.filters);
      const updated = await prisma.$transaction(async (tx) => {
        const before = await budgets.findBudget(tx, tenant, id);
        if (!before || (await budgets.updateBudgetRow(tx, tenant, id, body, now)) === 0) return false;
        const amountChanged = body.amount !== undefined && !new Decimal(body.amount).eq(before.amount.toString());
        const thresholdsChanged = body.thresholds !== undefined && JSON.stringify(body.thresholds) !== JSON.stringify(before.thresholds);
        if (amountChanged || thresholdsChanged) await budgets.deleteNotifications(tx, tenant.organizationId, id);
        return true;
      }, TRANSACTION_OPTIONS);
      if (!updated) throw notFound(`Budget ${id} is not in this tenant.`);
      return getBudget(tenant, id, now);
    },

    /** Deletes the budget with its notification records. */
    async deleteBudget(tenant: TenantRef, id: string): Promise<void> {
      const deleted = await prisma.$transaction(async (tx) => {
        const count = await budgets.deleteBudgetRow(tx, tenant, id);
        if (count) await budgets.deleteNotifications(tx, tenant.organizationId, id);
        return count;
      }, TRANSACTION_OPTIONS);
      if (deleted === 0) throw notFound(`Budget ${id} is not in this tenant.`);
    },

    /**
     * Sends `budget.threshold_crossed` for every threshold of the tenant's budgets crossed in the
     * current period and not notified yet. The notification row's primary key (budget, threshold,
     * period) decides between concurrent checkers (replicas, imports): the losing insert does nothing,
     * and the event is written in the winner's transaction. Returns how many were sent; the caller
     * kicks the outbox.
     */
    async notifyThresholds(tenant: TenantRef, now = new Date()): Promise<number> {
      const rows = await budgets.findTenantBudgets(prisma, tenant);
      const statuses = await budgetStatuses(deps.statusReads, rows.map(specOf), now);
      let sent = 0;
      for (const [i, row] of rows.entries()) {
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
          if (await notifyOnce(row.organizationId, row.id, threshold, new Date(status.period_start), data)) sent++;
        }
      }
      return sent;
    },

    /** The tenants of the organization with a budget. */
    budgetTenantIds: (organizationId: string): Promise<string[]> => budgets.budgetTenantIds(prisma, organizationId),

    /** Every tenant with a budget, across organizations (the schedule checks them all). */
    tenantsWithBudgets: (): Promise<TenantRef[]> => budgets.tenantsWithBudgets(prisma),
  };
}
