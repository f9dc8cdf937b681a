import type { Allocation } from "@cloudcost/contracts";
import type { StackedPeriod } from "../spend/spend";

export const IDLE_GROUP = "__idle__";
const DAY_MS = 86_400_000;

/** The last `days` UTC days with today, as the allocation's `start` and `end` (YYYY-MM-DD). */
export function lastDays(days: number, now = Date.now()): { start: string; end: string } {
  const tomorrow = Math.floor(now / DAY_MS) * DAY_MS + DAY_MS;
  const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  return { start: iso(tomorrow - days * DAY_MS), end: iso(tomorrow) };
}

/** Per-day rows as chart periods stacked by group, idle last, so the bars show what no pod claimed. */
export function stackByDay(allocation: Allocation): { keys: string[]; periods: StackedPeriod[] } {
  const named = allocation.rows.map((r) => r.group).filter((g) => g !== IDLE_GROUP);
  const hasIdle = (allocation.days ?? []).some((d) => d.rows.some((r) => r.group === IDLE_GROUP));
  const keys = hasIdle ? [...named, IDLE_GROUP] : named;
  const periods = (allocation.days ?? []).map((day) => ({
    period_start: `${day.date}T00:00:00.000Z`,
    total: Number(day.totals.total_cost),
    values: Object.fromEntries(day.rows.map((r) => [r.group, Number(r.total_cost)])),
  }));
  return { keys, periods };
}

export const groupLabel = (group: string) => (group === IDLE_GROUP ? "Idle (claimed by no pod)" : group === "__unallocated__" ? "(none)" : group);
