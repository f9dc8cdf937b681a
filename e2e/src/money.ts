// Exact decimal arithmetic for the expectations (no binary float sums), with @cloudcost/decimal:
// amounts as BigInt in units of 1e-12, the precision the pricing API keeps.
import { fromNumber, unitsAt } from "@cloudcost/decimal";

const SCALE = 12;

/** A JSON number as sent by a service (at most 12 decimal places) to units of 1e-12. */
export const toUnits = (value: number): bigint => unitsAt(fromNumber(value), SCALE);

/** Units of 1e-12 to whole cents, rounded half away from zero (half-up on magnitudes). */
export const unitsToCents = (units: bigint): bigint => unitsAt({ unscaled: units, scale: SCALE }, 2);

/** Monthly cost in cents of an hourly price (730 hours, docs/api.md, The right-sizing rule). */
export const monthlyCents = (hourly: number): bigint => unitsToCents(toUnits(hourly) * 730n);

/** Cents as the JSON number a service answers (e.g. 14016n -> 140.16). */
export const centsToNumber = (cents: bigint): number => Number(cents) / 100;
