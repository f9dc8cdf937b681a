import type { RealizedSavingsItem } from "@cloudcost/contracts";

export type { RealizedSavingsItem };

export interface MonthOfSavings {
  /** YYYY-MM (UTC) of the changes. */
  month: string;
  changes: number;
  /** Cents, summed as integers (the API's amounts are rounded to cents). */
  estimatedCents: number;
  /** From the bill (basis `bill`) only. */
  realizedCents: number;
  /** From the catalog's prices (basis `catalog`): not seen on a bill yet. */
  projectedCents: number;
  byBill: number;
}

const cents = (usd: number | null) => (usd === null ? 0 : Math.round(usd * 100));

/** Estimated, realized (bill) and projected (catalog) monthly savings per calendar month of the changes, oldest first. */
export function savingsByMonth(items: readonly RealizedSavingsItem[]): MonthOfSavings[] {
  const months = new Map<string, MonthOfSavings>();
  for (const item of items) {
    const month = item.change.at.slice(0, 7);
    const row = months.get(month) ?? { month, changes: 0, estimatedCents: 0, realizedCents: 0, projectedCents: 0, byBill: 0 };
    row.changes += 1;
    row.estimatedCents += cents(item.recommendation.savings_monthly_usd);
    if (item.basis === "bill") {
      row.realizedCents += cents(item.realized_savings_monthly_usd);
      row.byBill += 1;
    } else row.projectedCents += cents(item.realized_savings_monthly_usd);
    months.set(month, row);
  }
  return [...months.values()].sort((a, b) => (a.month < b.month ? -1 : 1));
}

/** What a change was: a resize to a type, or a retirement. */
export function changeLabel(item: RealizedSavingsItem): string {
  const from = item.change.from.instance_type ?? "unknown type";
  return item.change.to === null ? `${from} retired` : `${from} → ${item.change.to.instance_type ?? "unknown type"}`;
}

export const BASIS_LABELS: Record<RealizedSavingsItem["basis"], string> = {
  bill: "Bill: median daily cost of the resource's lines before and after",
  catalog: "Catalog: effective prices (fewer than 3 days of bill lines on a side)",
};
