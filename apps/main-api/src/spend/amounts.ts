import Decimal from "decimal.js";

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

/**
 * An exact decimal as an integer and a scale (value = unscaled / 10^scale): the per-line usage
 * arithmetic in plain BigInt, several times cheaper than decimal.js objects over a 10,000-line batch.
 */
export interface Scaled {
  unscaled: bigint;
  scale: number;
}

/** A JSON number as the exact decimal it prints as (as `exact`), exponent forms included ("1e-7", "1.5e+21"). */
export function scaledOf(value: number): Scaled {
  if (Number.isSafeInteger(value)) return { unscaled: BigInt(value), scale: 0 };
  const text = String(value);
  const e = text.indexOf("e");
  const mantissa = e === -1 ? text : text.slice(0, e);
  const dot = mantissa.indexOf(".");
  const digits = dot === -1 ? mantissa : mantissa.slice(0, dot) + mantissa.slice(dot + 1);
  const scale = (dot === -1 ? 0 : mantissa.length - dot - 1) - (e === -1 ? 0 : Number(text.slice(e + 1)));
  const unscaled = BigInt(digits);
  return scale >= 0 ? { unscaled, scale } : { unscaled: unscaled * 10n ** BigInt(-scale), scale: 0 };
}

const pow10 = (n: number) => 10n ** BigInt(n);

export function scaledPlus(a: Scaled, b: Scaled): Scaled {
  if (a.scale === b.scale) return { unscaled: a.unscaled + b.unscaled, scale: a.scale };
  return a.scale > b.scale
    ? { unscaled: a.unscaled + b.unscaled * pow10(a.scale - b.scale), scale: a.scale }
    : { unscaled: a.unscaled * pow10(b.scale - a.scale) + b.unscaled, scale: b.scale };
}

export const scaledTimes = (a: Scaled, b: Scaled): Scaled => ({ unscaled: a.unscaled * b.unscaled, scale: a.scale + b.scale });

/** Rounded half away from zero (decimal.js ROUND_HALF_UP) to at most `places` places. */
export function scaledRound(value: Scaled, places: number): Scaled {
  if (value.scale <= places) return value;
  const divisor = pow10(value.scale - places);
  const negative = value.unscaled < 0n;
  const magnitude = negative ? -value.unscaled : value.unscaled;
  let quotient = magnitude / divisor;
  if ((magnitude % divisor) * 2n >= divisor) quotient += 1n;
  return { unscaled: negative ? -quotient : quotient, scale: places };
}

/** Plain notation without trailing zeros ("2.50" → "2.5", "-0" → "0"), as decimal.js toFixed() prints. */
export function scaledText(value: Scaled): string {
  const negative = value.unscaled < 0n;
  const digits = (negative ? -value.unscaled : value.unscaled).toString();
  let text = digits;
  if (value.scale > 0) {
    const padded = digits.padStart(value.scale + 1, "0");
    const fraction = padded.slice(-value.scale).replace(/0+$/, "");
    text = fraction ? `${padded.slice(0, -value.scale)}.${fraction}` : padded.slice(0, -value.scale);
  }
  return negative && text !== "0" ? `-${text}` : text;
}
