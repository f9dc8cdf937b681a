import { z } from "zod";

/**
 * The bounds on a decimal a client sends, written as text (a bill's cell) or as a JSON number (a
 * usage quantity, a price): at most 40 characters, an exponent of at most 20 in magnitude, and an
 * absolute value below 10^18. Within them, reading a decimal costs time linear in its length and the
 * result fits every numeric column; past them a value is refused, never expanded.
 */
export const DECIMAL_MAX_CHARS = 40;
export const DECIMAL_MAX_EXPONENT = 20;
export const DECIMAL_MAX_INTEGER_DIGITS = 18;

export class DecimalBoundError extends Error {}

const DECIMAL = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;

/**
 * `raw` as an exact decimal string without exponent (`-` the only sign, no leading or trailing
 * zeros, `0` for any zero), or a DecimalBoundError saying which bound it breaks.
 */
export function boundedDecimal(raw: string): string {
  if (raw.length > DECIMAL_MAX_CHARS) throw new DecimalBoundError(`has ${raw.length} characters; a decimal has at most ${DECIMAL_MAX_CHARS}`);
  const match = DECIMAL.exec(raw);
  if (!match || (match[2] === "" && !match[3])) throw new DecimalBoundError(`"${raw}" is not a decimal`);
  const [, sign, whole, fraction = "", exponentText = "0"] = match;
  const exponent = Number(exponentText);
  if (Math.abs(exponent) > DECIMAL_MAX_EXPONENT) throw new DecimalBoundError(`"${raw}" has an exponent beyond ±${DECIMAL_MAX_EXPONENT}`);
  let digits = whole + fraction;
  let point = whole.length + exponent;
  if (point < 0) {
    digits = "0".repeat(-point) + digits;
    point = 0;
  } else if (point > digits.length) digits += "0".repeat(point - digits.length);
  const integer = digits.slice(0, point).replace(/^0+/, "") || "0";
  const decimals = digits.slice(point).replace(/0+$/, "");
  if (integer.length > DECIMAL_MAX_INTEGER_DIGITS)
    throw new DecimalBoundError(`"${raw}" is out of range: a decimal is below 10^${DECIMAL_MAX_INTEGER_DIGITS} in absolute value`);
  const text = decimals ? `${integer}.${decimals}` : integer;
  return sign === "-" && text !== "0" ? `-${text}` : text;
}

/**
 * What breaks the bounds in a JSON number, judged on the shortest form JavaScript writes it in: that
 * form is at most 24 characters and has an exponent only below 10^-6 or from 10^21, so the bounds
 * come down to two comparisons (no string built on the hot path of a 10,000-line body). The literals
 * are 10^DECIMAL_MAX_INTEGER_DIGITS and 10^-DECIMAL_MAX_EXPONENT (`10 ** -20` is not the double 1e-20).
 */
function numberProblem(value: number): string | undefined {
  if (!Number.isFinite(value)) return "must be a finite number";
  const magnitude = Math.abs(value);
  if (magnitude >= 1e18) return `is out of range: a decimal is below 10^${DECIMAL_MAX_INTEGER_DIGITS} in absolute value`;
  if (magnitude !== 0 && magnitude < 1e-20) return `has an exponent beyond ±${DECIMAL_MAX_EXPONENT}`;
  return undefined;
}

/** A JSON number within the decimal bounds; a number past them is a 400 naming where it is. */
export const boundedNumber = () =>
  z.number().superRefine((value, ctx) => {
    const problem = numberProblem(value);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  });
