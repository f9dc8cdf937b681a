import type { SpendMetric } from "@cloudcost/contracts";

/** The cost metrics a statement is made in, as the console names them. */
export const METRICS: { value: SpendMetric; label: string }[] = [
  { value: "effective_cost", label: "Amortized cost" },
  { value: "billed_cost", label: "Billed cost" },
];

export const metricLabel = (metric: string) => METRICS.find((m) => m.value === metric)?.label ?? metric;

/** The months a statement may cover, newest first: the current UTC month and the `back` before it. */
export function periodOptions(now: Date, back = 36): string[] {
  const out: string[] = [];
  for (let i = 0; i <= back; i++) {
    const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - i, 1));
    out.push(d.toISOString().slice(0, 7));
  }
  return out;
}

/** Last month (UTC), `YYYY-MM`: the default period. */
export const lastMonth = (now: Date) => periodOptions(now, 1)[1] as string;

/** "tenant" or "dimension:team" in words: "Tenant", the dimension's name. */
export function byLabel(by: string, dimensionName: (key: string) => string | undefined): string {
  if (by === "tenant") return "Tenant";
  const key = by.startsWith("dimension:") ? by.slice("dimension:".length) : by;
  return dimensionName(key) ?? key;
}

/** An exact decimal string is zero ("0", "-0.000"). */
export const isZero = (amount: string) => /^-?0+(\.0+)?$/.test(amount);

/** The sections of a recipient's statement, in order, with their headings. */
export const SECTIONS = [
  ["usage", "Usage by service"],
  ["shared", "Shared costs (received and given per split rule)"],
  ["commitment_fees", "Commitment fees"],
  ["credits", "Credits"],
  ["tax", "Tax"],
  ["adjustments", "Adjustments"],
  ["corrections", "Corrections"],
] as const;
