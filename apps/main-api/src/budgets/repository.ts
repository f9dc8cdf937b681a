import { BUDGET_FILTER_DIMENSIONS, type BudgetFilters, type BudgetThreshold, type CreateBudgetRequest, type UpdateBudgetRequest } from "@cloudcost/contracts";
import type { TenantRef } from "../context";
import type { Prisma } from "../db";
import type { Budget } from "../generated/prisma/client";
import type { CheckedStatement, Columns } from "../sql-columns";
import type { Tx } from "../transactions";

type Db = Prisma | Tx;

export type BudgetMetric = "billed_cost" | "effective_cost" | "list_cost";

/** Segments are 1-based; a range covers segments `from` to `to` (exclusive). */
interface Segments {
  from: number;
  to: number;
}

/** One budget's share of the sums statement: its metric, currency, filters, period and forecast window. */
export interface SpendSumRequest {
  metric: BudgetMetric;
  currency: string;
  filters: BudgetFilters;
  period: Segments;
  window: Segments;
}

/** The pre-aggregated sums the budgets read (one per metric). */
const METRIC_COLUMN = { billed_cost: "b", effective_cost: "e", list_cost: "l", contracted_cost: "c" } as const;
const METRIC_SOURCE = { b: "billed_cost", e: "effective_cost", l: "list_cost", c: "contracted_cost" } as const;

/** Every sum of the statement is cast to text: `s<i>` the period's of request i, `w<i>` its window's. */
const SUM_TYPE = "text";

/**
 * The sums statement over the tenant's roll-up rows from the first boundary day to the last (read
 * through the tenant-leading primary key): the rows are first summed per segment between two
 * consecutive boundaries (`width_bucket`), currency and the dimensions some request filters on, and
 * only in the metrics some request reads; each request's filtered sums of those groups follow.
 */
export function spendSumsStatement(tenant: TenantRef, boundaries: readonly Date[], requests: readonly SpendSumRequest[]): { sql: string; params: unknown[] } {
  const params: unknown[] = [tenant.organizationId, tenant.id, boundaries[0], boundaries[boundaries.length - 1], boundaries.map(isoDay)];
  const param = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  const metrics = [...new Set(requests.map((request) => METRIC_COLUMN[request.metric]))];
  const sums = requests.map((request, i) => {
    // Dimension names and metric columns come from fixed lists; values are parameters.
    const narrowed = [`currency = ${param(request.currency)}`];
    for (const name of BUDGET_FILTER_DIMENSIONS) {
      const values = request.filters[name];
      if (values?.length) narrowed.push(`${name} = ANY(${param(values)}::text[])`);
    }
    const column = METRIC_COLUMN[request.metric];
    // Segments are integers computed by the caller, written into the statement.
    const within = (range: Segments) => `k >= ${Math.trunc(range.from)} AND k < ${Math.trunc(range.to)}`;
    return (
      `COALESCE(sum(${column}) FILTER (WHERE ${within(request.period)} AND ${narrowed.join(" AND ")}), 0)::${SUM_TYPE} AS s${i}, ` +
      `COALESCE(sum(${column}) FILTER (WHERE ${within(request.window)} AND ${narrowed.join(" AND ")}), 0)::${SUM_TYPE} AS w${i}`
    );
  });
  const dimensions = ["currency", ...BUDGET_FILTER_DIMENSIONS.filter((name) => requests.some((request) => request.filters[name]?.length))].join(", ");
  const metricSums = metrics.map((m) => `sum(${METRIC_SOURCE[m]}) AS ${m}`).join(", ");
  const sql = `WITH d AS (
       SELECT width_bucket(day, $5::date[]) AS k, ${dimensions}, ${metricSums}
         FROM spend_daily WHERE organization_id = $1 AND tenant_id = $2 AND day >= $3::date AND day < $4::date
        GROUP BY 1, ${dimensions})
     SELECT ${sums.join(", ")} FROM d`;
  return { sql, params };
}

/** Each request's period and window spend, as decimal strings. */
export async function sumSpend(
  db: Pick<Db, "$queryRawUnsafe">,
  tenant: TenantRef,
  boundaries: readonly Date[],
  requests: readonly SpendSumRequest[],
): Promise<{ spent: string; windowSpent: string }[]> {
  const { sql, params } = spendSumsStatement(tenant, boundaries, requests);
  // Planned without JIT (SESSION_SETTINGS): compiling its many filtered sums would take far longer
  // than running them.
  const [row] = await db.$queryRawUnsafe<Record<string, string>[]>(sql, ...params);
  return requests.map((_, i) => ({ spent: row[`s${i}`], windowSpent: row[`w${i}`] }));
}

const isoDay = (date: Date) => date.toISOString().slice(0, 10);

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
  const day = (iso: string) => new Date(`${iso}T00:00:00Z`);
  const tenant = { id: "t", organizationId: "o" };
  const request: SpendSumRequest = {
    metric: "billed_cost",
    currency: "USD",
    filters: { provider: ["aws"] },
    period: { from: 1, to: 2 },
    window: { from: 1, to: 2 },
  };
  const sums: Columns = { s0: SUM_TYPE, w0: SUM_TYPE };
  return [
    { name: "budget spend sums", sql: spendSumsStatement(tenant, [day("2026-01-01"), day("2026-02-01")], [request]).sql, columns: sums },
    { name: "budget notification insert", sql: INSERT_NOTIFICATION_SQL, columns: null },
  ];
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
