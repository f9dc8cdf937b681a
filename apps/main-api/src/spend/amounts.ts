import { Decimal } from "@cloudcost/decimal";

/** Ledger amounts are kept to 10 decimal places (numeric(38,10)). */
export const AMOUNT_PLACES = 10;

/** A JSON number as the exact decimal it prints as (the shortest round-trip form, which is what was sent). */
export const exact = (value: number): Decimal => new Decimal(String(value));

/** An amount for an answer: at most 10 places, no exponent, no trailing zeros ("1.2500000000" → "1.25"). */
export const amount = (value: Decimal.Value): string => new Decimal(value).toDecimalPlaces(AMOUNT_PLACES, Decimal.ROUND_HALF_UP).toFixed();

/** Per-currency sums of numeric text, ordered by currency: `[{currency, cost}]`. */
export function currencyTotals(rows: { currency: string; cost: string }[]): { currency: string; cost: string }[] {
  const sums = new Map<string, Decimal>();
  for (const row of rows) sums.set(row.currency, (sums.get(row.currency) ?? new Decimal(0)).plus(row.cost));
  return [...sums.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([currency, cost]) => ({ currency, cost: amount(cost) }));
}

// The per-line usage arithmetic (BigInt, no decimal.js objects on the hot path) is @cloudcost/decimal.
