import type { SplitRule } from "@cloudcost/contracts";
import { Decimal } from "@cloudcost/decimal";
import type { MetricAmountOf } from "../dimensions/split";
import type { MetricAmountRow } from "./amounts-repository";

const ZERO = new Decimal(0);

/** The metrics the `metric` splits among `splits` share by. */
export function splitMetricNames(splits: Iterable<SplitRule>): string[] {
  const names = new Set<string>();
  for (const split of splits) if (split.method === "metric" && split.metric) names.add(split.metric);
  return [...names].sort();
}

/** Each metric's amount per (day, label) from the rows read for a query: what a `metric` split's shares are. */
export function metricAmountLookup(rows: MetricAmountRow[]): MetricAmountOf {
  const amounts = new Map<string, Decimal>();
  for (const row of rows) {
    const id = `${row.metric}\u0000${row.day}\u0000${row.label}`;
    amounts.set(id, (amounts.get(id) ?? ZERO).plus(row.amount));
  }
  return (metric, day, value) => amounts.get(`${metric}\u0000${day}\u0000${value}`) ?? ZERO;
}

/** Reads metrics' amounts of days [from, to) (YYYY-MM-DD). */
export type MetricAmountsReader = (names: string[], from: string, to: string) => Promise<MetricAmountRow[]>;

/** Reads through `read` once per (names, from, to): a query's splits and its unit costs share one read of the same metric. */
export function readOnce(read: MetricAmountsReader): MetricAmountsReader {
  const reads = new Map<string, Promise<MetricAmountRow[]>>();
  return (names, from, to) => {
    const id = JSON.stringify([names, from, to]);
    let rows = reads.get(id);
    if (!rows) {
      rows = read(names, from, to);
      reads.set(id, rows);
    }
    return rows;
  };
}
