import { Decimal } from "@cloudcost/decimal";
import type { Prisma } from "../db";
import type { DimensionRepository } from "../dimensions/repository";
import { spendReport } from "../spend/dimension-query";
import type { SpendReads } from "../spend/spend-reads";
import type { DetectedRow } from "./repository";
import { type AnomalyFloors, detectAnomalies } from "./scoring";

/**
 * Dimension monitors per tenant, dimension and currency: the values with the most cost in the days
 * scored (what a detection computes then grows with its lines, not with values x days).
 */
export const MAX_DIMENSION_MONITORS = 50;

const DAY_MS = 86_400_000;
const addDays = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00.000Z`) + n * DAY_MS).toISOString().slice(0, 10);

export interface DimensionWindow {
  /** The first day read (the baselines of the first day scored reach back to it). */
  historyFrom: string;
  /** The first day scored. */
  from: string;
  /** The day after the last one scored. */
  end: string;
  floors: AnomalyFloors;
}

/**
 * The anomalous days of every dimension monitor of these tenants: for each dimension of the
 * organization, each value's daily usage cost (charge category Usage, frequency Usage-Based, billed
 * cost, after the dimension's splits: the spend query by dimension's split view) per tenant and
 * currency, scored as the total monitor is (a spike against the same weekday of 4 weeks, else the
 * 14 days before; a monthly job is expected). A value's series starts on its first day with cost.
 */
export async function detectDimensionRows(
  { prisma, dimensions, spendReads }: { prisma: Prisma; dimensions: Pick<DimensionRepository, "findNewestVersions">; spendReads: SpendReads },
  organizationId: string,
  tenantIds: readonly string[],
  w: DimensionWindow,
): Promise<DetectedRow[]> {
  const keys = [...new Set((await dimensions.findNewestVersions(prisma, organizationId)).map((version) => version.key))].sort();
  const found: DetectedRow[] = [];
  for (const key of keys) {
    const report = await spendReport(
      spendReads,
      { organizationId, tenantIds: [...tenantIds] },
      {
        start: `${w.historyFrom}T00:00:00.000Z`,
        end: `${w.end}T00:00:00.000Z`,
        granularity: "day",
        metric: "billed_cost",
        group_by: ["tenant", `dimension:${key}`],
        filters: { charge_category: ["Usage"], charge_frequency: ["Usage-Based"] },
        tags: {},
        allocation: "split",
      },
    );
    const series = new Map<string, { tenant: string; currency: string; value: string; days: Map<string, Decimal> }>();
    for (const row of report.rows) {
      const tenant = row.group.tenant;
      if (!tenant) continue;
      const value = row.group[`dimension:${key}`] ?? "";
      const id = JSON.stringify([tenant, row.currency, value]);
      const monitor = series.get(id) ?? { tenant, currency: row.currency, value, days: new Map() };
      const day = row.period_start.slice(0, 10);
      monitor.days.set(day, (monitor.days.get(day) ?? new Decimal(0)).plus(row.cost));
      series.set(id, monitor);
    }
    for (const monitor of watched([...series.values()], w.from)) found.push(...scoreMonitor(key, monitor, w));
  }
  return found;
}

type Monitor = { tenant: string; currency: string; value: string; days: Map<string, Decimal> };

/** Per tenant and currency, the MAX_DIMENSION_MONITORS values with the most cost from `from` (ties by value). */
function watched(monitors: Monitor[], from: string): Monitor[] {
  const recent = (m: Monitor) => [...m.days].reduce((sum, [day, cost]) => (day >= from ? sum.plus(cost) : sum), new Decimal(0));
  const groups = new Map<string, { monitor: Monitor; cost: Decimal }[]>();
  for (const monitor of monitors) {
    const group = JSON.stringify([monitor.tenant, monitor.currency]);
    groups.set(group, [...(groups.get(group) ?? []), { monitor, cost: recent(monitor) }]);
  }
  return [...groups.values()].flatMap((group) =>
    group
      .sort((a, b) => b.cost.comparedTo(a.cost) || (a.monitor.value < b.monitor.value ? -1 : 1))
      .slice(0, MAX_DIMENSION_MONITORS)
      .map((entry) => entry.monitor),
  );
}

/** The monitor's dense series from its first day with cost to the day before `end`, scored; the days from `from` kept. */
function scoreMonitor(key: string, monitor: Monitor, w: DimensionWindow): DetectedRow[] {
  const first = [...monitor.days.keys()].filter((day) => !monitor.days.get(day)?.isZero()).sort()[0];
  if (first === undefined) return [];
  const dense: { day: string; cost: Decimal }[] = [];
  for (let day = first; day < w.end; day = addDays(day, 1)) dense.push({ day, cost: monitor.days.get(day) ?? new Decimal(0) });
  return detectAnomalies(dense, w.floors, { kind: "total" })
    .filter((scored) => scored.day >= w.from)
    .map((scored) => ({
      tenant_id: monitor.tenant,
      currency: monitor.currency,
      monitor_kind: "dimension",
      dimension_key: key,
      service_name: monitor.value,
      day: scored.day,
      cost: scored.cost.toFixed(),
      expected: scored.expected.toFixed(),
      impact: scored.impact.toFixed(),
      score: scored.score.toFixed(),
      reason: scored.reason,
    }));
}
