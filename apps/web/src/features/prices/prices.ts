import type { ModelPricingEntry } from "@cloudcost/contracts";

export interface PriceSeries<T> {
  key: string;
  /** Newest version first; the open one (no effective_to) leads when there is one. */
  versions: T[];
  open: T | undefined;
}

/**
 * Versioned price rows grouped by their identity, each group's versions newest first: the page
 * shows the price in force and, below it, the history the pricing API keeps (closed rows).
 */
export function versionSeries<T extends { effective_from: string; effective_to: string | null }>(
  rows: readonly T[],
  identity: (row: T) => string,
): PriceSeries<T>[] {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const key = identity(row);
    groups.set(key, [...(groups.get(key) ?? []), row]);
  }
  return [...groups.entries()]
    .map(([key, versions]) => {
      const sorted = [...versions].sort((a, b) => (a.effective_from < b.effective_from ? 1 : a.effective_from > b.effective_from ? -1 : 0));
      return { key, versions: sorted, open: sorted.find((v) => v.effective_to === null) };
    })
    .sort((a, b) => (a.key < b.key ? -1 : 1));
}

export const modelIdentity = (m: Pick<ModelPricingEntry, "provider" | "model" | "region" | "token_bucket" | "publisher" | "host">) =>
  [m.provider, m.model, m.region, m.token_bucket, m.publisher, m.host].filter(Boolean).join(" · ");
