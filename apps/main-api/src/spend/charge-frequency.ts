export type ChargeFrequency = "One-Time" | "Recurring" | "Usage-Based";

const DAY_MS = 86_400_000;

/**
 * The frequency of a line whose source does not say: Purchase lines are One-Time (this rule
 * first), lines whose charge period is longer than 24 hours Recurring, the rest Usage-Based.
 */
export function derivedChargeFrequency(chargeCategory: string, startMs: number, endMs: number): ChargeFrequency {
  if (chargeCategory === "Purchase") return "One-Time";
  return endMs - startMs > DAY_MS ? "Recurring" : "Usage-Based";
}
