import { Decimal, toCents } from "@cloudcost/decimal";
import type { RealizedSavings, RealizedSavingsItem, SavingsQuery } from "@cloudcost/contracts";
import type { SqlClient } from "@cloudcost/db";
import type { TenantRef } from "../context";
import type { findDailyCostMedians } from "../spend/resource-costs-repository";
import type { ChangeRow, LifecycleRepository } from "./lifecycle-repository";
import { HOURS_PER_MONTH } from "./rightsizing";

/** Fewer days of bill lines than this on either side of a change: the catalog prices decide. */
const MIN_BILL_DAYS = 3;

const money = (value: string | null) => (value === null ? null : new Decimal(value));
/** A median day of the bill as a month of the rest of the API (730 hours). */
const monthlyOfDay = (daily: string) => toCents(new Decimal(daily).times(HOURS_PER_MONTH).dividedBy(24));

interface Side {
  days: number;
  median: string;
  /** Covered usage among the side's lines (before: the last 7 days). */
  covered: boolean;
}

function followed(change: ChangeRow): boolean {
  if (change.retired) return change.action === "TERMINATE";
  return change.action !== "TERMINATE" && change.to_instance_type !== null && change.to_instance_type === change.recommended_instance_type;
}

/** The monthly cost after a change by the catalog: 0 once retired, else the new type's effective price. */
function catalogAfter(change: ChangeRow): Decimal | null {
  if (change.retired) return new Decimal(0);
  if (change.to_instance_type !== null && change.to_instance_type === change.recommended_instance_type && change.recommended_monthly_cost_usd !== null)
    return new Decimal(change.recommended_monthly_cost_usd);
  return money(change.now_monthly_cost_usd);
}

/**
 * A change realizes nothing when the resource was under a commitment when it changed (reserved, or
 * covered lines in the week before) or its lines after the change are covered: the commitment is
 * paid either way, its unused part grows by what the resource stopped using.
 */
function commitmentCovered(change: ChangeRow, before: Side | undefined, after: Side | undefined): boolean {
  return change.reserved || (before?.covered ?? false) || (after?.covered ?? false);
}

function item(change: ChangeRow, before: Side | undefined, after: Side | undefined): RealizedSavingsItem {
  const byBill = (before?.days ?? 0) >= MIN_BILL_DAYS && (after?.days ?? 0) >= MIN_BILL_DAYS;
  const beforeCost = byBill && before ? monthlyOfDay(before.median) : money(change.current_monthly_cost_usd);
  const afterCost = byBill && after ? monthlyOfDay(after.median) : catalogAfter(change);
  const covered = commitmentCovered(change, before, after);
  const realized = covered ? new Decimal(0) : beforeCost !== null && afterCost !== null ? beforeCost.minus(afterCost) : null;
  const shape = (type: string | null, cores: number | null, ram: number | null) => ({ instance_type: type, cpu_cores: cores, ram_gb: ram });
  return {
    resource_id: change.resource_id,
    recommendation: {
      action: change.action,
      recommended_instance_type: change.recommended_instance_type,
      savings_monthly_usd: new Decimal(change.savings_monthly_usd ?? 0).toNumber(),
      analyzed_at: change.analyzed_at,
    },
    change: {
      at: change.at_iso,
      from: shape(change.from_instance_type, change.from_cpu_cores, change.from_ram_gb),
      to: change.retired ? null : shape(change.to_instance_type, change.to_cpu_cores, change.to_ram_gb),
    },
    followed: followed(change),
    before_monthly_usd: beforeCost?.toNumber() ?? null,
    after_monthly_usd: afterCost?.toNumber() ?? null,
    realized_savings_monthly_usd: realized?.toNumber() ?? null,
    ...(covered ? { reason: "commitment_covered" as const } : {}),
    basis: byBill ? "bill" : "catalog",
    days_observed: after?.days ?? 0,
  };
}

export interface SavingsServiceDeps {
  sql: SqlClient;
  lifecycle: Pick<LifecycleRepository, "findChangesAfterRecommendations">;
  /** The median daily cost of each changed resource's bill lines before and after (spend/resource-costs-repository.ts). */
  resourceCosts: { findDailyCostMedians: typeof findDailyCostMedians };
}

export type SavingsService = ReturnType<typeof createSavingsService>;

/** What the tenant's followed (or ignored) recommendations saved. */
export function createSavingsService({ sql, lifecycle, resourceCosts }: SavingsServiceDeps) {
  return {
    /**
     * Each resize or retirement of the range made after an actionable recommendation was analyzed,
     * measured against the bill where it has enough days on both sides (realized), else against the
     * catalog prices (projected); a committed resource's change realizes 0 (commitment_covered).
     */
    async realizedSavings(tenant: TenantRef, query: SavingsQuery): Promise<RealizedSavings> {
      const changes = await lifecycle.findChangesAfterRecommendations(sql, tenant.id, query.start, query.end);
      const medians = await resourceCosts.findDailyCostMedians(
        sql,
        tenant.organizationId,
        tenant.id,
        changes.map((c) => ({ resourceId: c.resource_id, at: c.at })),
      );
      const key = (resourceId: string, at: Date, after: boolean) => `${resourceId}\u0000${at.getTime()}\u0000${after}`;
      const sides = new Map(medians.map((m) => [key(m.resource_id, m.at, m.after), { days: m.days, median: m.median, covered: m.covered }]));
      const items = changes.map((c) => item(c, sides.get(key(c.resource_id, c.at, false)), sides.get(key(c.resource_id, c.at, true))));
      // Only what the bill shows is realized; the catalog's figures are projected.
      let estimated = new Decimal(0);
      let realized = new Decimal(0);
      let projected = new Decimal(0);
      for (const i of items) {
        estimated = estimated.plus(i.recommendation.savings_monthly_usd);
        if (i.basis === "bill") realized = realized.plus(i.realized_savings_monthly_usd ?? 0);
        else projected = projected.plus(i.realized_savings_monthly_usd ?? 0);
      }
      return {
        items,
        totals: { estimated: toCents(estimated).toNumber(), realized: toCents(realized).toNumber(), projected: toCents(projected).toNumber() },
      };
    },
  };
}
