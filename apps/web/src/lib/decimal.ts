/**
 * Exact arithmetic on the APIs' decimal strings (at most 10 decimal places): amounts are summed as
 * integers of 1e-10 units (BigInt), never as floats.
 */
const SCALE = 10;
const UNIT = 10n ** BigInt(SCALE);

export function parseDecimal(value: string): bigint {
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(value.trim());
  if (!match) throw new Error(`not a decimal: ${value}`);
  const [, sign, whole, fraction = ""] = match;
  const units = BigInt(whole) * UNIT + BigInt((fraction.slice(0, SCALE) || "0").padEnd(SCALE, "0"));
  return sign ? -units : units;
}

export function formatDecimal(units: bigint): string {
  const negative = units < 0n;
  const abs = negative ? -units : units;
  const whole = abs / UNIT;
  const fraction = (abs % UNIT).toString().padStart(SCALE, "0").replace(/0+$/, "");
  return `${negative ? "-" : ""}${whole}${fraction ? `.${fraction}` : ""}`;
}

/** The exact sum of decimal strings. */
export function sumDecimals(values: readonly string[]): string {
  return formatDecimal(values.reduce((sum, value) => sum + parseDecimal(value), 0n));
}

/** `value` x numerator / denominator, rounded half away from zero to 10 places. */
export function scaleDecimal(value: string, numerator: number, denominator: number): string {
  if (denominator === 0) throw new Error("division by zero");
  const product = parseDecimal(value) * BigInt(numerator);
  const d = BigInt(denominator);
  const quotient = product / d;
  const remainder = product % d;
  const twice = (remainder < 0n ? -remainder : remainder) * 2n;
  const away = twice >= (d < 0n ? -d : d) ? (product < 0n !== d < 0n ? -1n : 1n) : 0n;
  return formatDecimal(quotient + away);
}
