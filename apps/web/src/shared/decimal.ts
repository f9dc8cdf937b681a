/**
 * Exact arithmetic on the APIs' decimal strings (at most 10 decimal places), never as floats: the
 * console's names for @cloudcost/decimal (BigInt fixed point, shared with both services).
 */
import { divide, parse, plus, type Scaled, times, toText, unitsAt, ZERO } from "@cloudcost/decimal";

const SCALE = 10;

/** A decimal string as an integer of 1e-10 units. */
export function parseDecimal(value: string): bigint {
  return unitsAt(parse(value.trim()), SCALE);
}

/** The exact sum of decimal strings. */
export function sumDecimals(values: readonly string[]): string {
  return toText(values.reduce<Scaled>((sum, value) => plus(sum, parse(value.trim())), ZERO));
}

/** `value` x numerator / denominator, rounded half away from zero to 10 places. */
export function scaleDecimal(value: string, numerator: number, denominator: number): string {
  return toText(divide(times(parse(value.trim()), { unscaled: BigInt(numerator), scale: 0 }), BigInt(denominator), SCALE));
}
