import { Decimal } from "decimal.js";

/**
 * decimal.js, the arbitrary-precision decimal of every amount that is not on the usage hot path
 * (`fixed-point.ts` is): imported from here only, so that the project has one decimal entry point.
 * Code that needs more significant digits than the default 20 takes a `Decimal.clone({ precision })`.
 */
export { Decimal };

/** Rounded to whole cents, half away from zero (decimal.js ROUND_HALF_UP), keeping the value's own Decimal class. */
export function toCents(value: Decimal.Value): Decimal {
  return (Decimal.isDecimal(value) ? value : new Decimal(value)).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
}

/** Whole cents as text with both places: "12.30", "-0.05" (what the APIs answer for an amount). */
export function centsText(value: Decimal.Value): string {
  return toCents(value).toFixed(2);
}
