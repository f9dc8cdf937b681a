// Exact decimal arithmetic for the expectations (no binary float sums): amounts as BigInt in
// units of 1e-12, the precision the pricing API keeps.
const SCALE = 12;
const UNIT = 10n ** BigInt(SCALE);

/** A JSON number as sent by a service (at most 12 decimal places) to units of 1e-12. */
export function toUnits(value: number): bigint {
  const [int, frac = ""] = value.toFixed(SCALE).split(".");
  const sign = int.startsWith("-") ? -1n : 1n;
  return sign * (BigInt(int.replace("-", "")) * UNIT + BigInt(frac.padEnd(SCALE, "0")));
}

/** Units of 1e-12 to whole cents, rounded half away from zero (half-up on magnitudes). */
export function unitsToCents(units: bigint): bigint {
  const divisor = UNIT / 100n;
  const magnitude = units < 0n ? -units : units;
  const cents = (magnitude + divisor / 2n) / divisor;
  return units < 0n ? -cents : cents;
}

/** Monthly cost in cents of an hourly price (730 hours, docs/api.md, The right-sizing rule). */
export const monthlyCents = (hourly: number): bigint => unitsToCents(toUnits(hourly) * 730n);

/** Cents as the JSON number a service answers (e.g. 14016n -> 140.16). */
export const centsToNumber = (cents: bigint): number => Number(cents) / 100;
