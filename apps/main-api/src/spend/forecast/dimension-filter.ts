import { UNALLOCATED_FILTER } from "@cloudcost/contracts";
import { compileAssigner } from "../../dimensions/rollup";
import type { SpendReads } from "../spend-reads";
import type { RecurringLine } from "./repository";
import type { LineMatcher } from "./series";

/** The one `dimension:<key>` filter of a forecast or budget, if any. */
export function dimensionFilterOf(filters: Record<string, string[] | undefined>): { key: string; values: string[] } | null {
  const name = Object.keys(filters).find((candidate) => candidate.startsWith("dimension:"));
  return name ? { key: name.slice("dimension:".length), values: filters[name] ?? [] } : null;
}

/** Whether the organization holds dimension `key`. */
export async function hasDimension(reads: Pick<SpendReads, "sql" | "dimensionSpend">, organizationId: string, key: string): Promise<boolean> {
  return (await reads.dimensionSpend.readVersionsOf(reads.sql, organizationId, [key])).unknown.length === 0;
}

/**
 * Recurring lines whose own value under `key` (its version for the line's month) is one of
 * `values` (`__unallocated__`: none). A split source's recurring charges are not projected into its
 * targets: a recurring line counts where its own value is.
 */
export async function recurringDimensionMatcher(
  reads: Pick<SpendReads, "sql" | "dimensionSpend">,
  organizationId: string,
  tenantId: string,
  filter: { key: string; values: string[] },
): Promise<LineMatcher> {
  const { versions } = await reads.dimensionSpend.readVersionsOf(reads.sql, organizationId, [filter.key]);
  const assigner = compileAssigner(versions);
  const accepted = new Set(filter.values.map((value) => (value === UNALLOCATED_FILTER ? "" : value)));
  const field = (line: RecurringLine, name: string): string | null => {
    if (name.startsWith("tag:")) {
      const value = (line.tags as Record<string, unknown> | null)?.[name.slice(4)];
      return typeof value === "string" ? value : null;
    }
    if (name === "tenant") return tenantId;
    const value = (line as unknown as Record<string, unknown>)[name];
    return typeof value === "string" ? value : null;
  };
  return (line) => {
    const month = new Date(line.charge_period_start).toISOString().slice(0, 7);
    const values = assigner.assign(
      month,
      assigner.fields.map((name) => field(line, name)),
    );
    return accepted.has(values.get(filter.key) ?? "");
  };
}
