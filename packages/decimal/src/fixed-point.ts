/**
 * Exact decimals as a BigInt and a scale (value = unscaled / 10^scale): the usage arithmetic of
 * both services (10,000-line batches, several quantities a line) and the console's sums. Several
 * times cheaper than decimal.js objects on that hot path, and exact all the same: only `toNumber`
 * rounds, once, at the end. Plain ECMAScript (no Node APIs): the console bundles it.
 */
export interface Scaled {
  readonly unscaled: bigint;
  readonly scale: number;
}

export const ZERO: Scaled = { unscaled: 0n, scale: 0 };

const POWERS: bigint[] = [1n];
/** 10^n, cached (n is a small scale difference on the hot path). */
function pow10(n: number): bigint {
  for (let i = POWERS.length; i <= n; i++) POWERS.push(POWERS[i - 1] * 10n);
  return POWERS[n];
}

const DECIMAL_TEXT = /^[+-]?\d+(\.\d+)?([eE][+-]?\d+)?$/;

/** Decimal text: `123`, `-0.15`, `1.5e-7`, `1e+21` (a sign, digits, a fraction, an exponent). Throws on anything else. */
export function parse(text: string): Scaled {
  if (!DECIMAL_TEXT.test(text)) throw new RangeError(`not a decimal: ${JSON.stringify(text.slice(0, 40))}`);
  const unsigned = text.charCodeAt(0) === 43 /* + */ ? text.slice(1) : text;
  return parseChecked(unsigned.includes("E") ? unsigned.toLowerCase() : unsigned);
}

/** The decimal a JSON number stands for: its shortest round-trip form (what was sent, and how decimal.js reads it). */
export function fromNumber(value: number): Scaled {
  // Token counts and whole hours are integers: skip the text round trip.
  if (Number.isSafeInteger(value)) return { unscaled: BigInt(value), scale: 0 };
  if (!Number.isFinite(value)) throw new RangeError(`not a finite number: ${value}`);
  return parseChecked(String(value));
}

/** `text` is known to match DECIMAL_TEXT, without a leading "+" and with a lower-case "e" (String(number) always does). */
function parseChecked(text: string): Scaled {
  const e = text.indexOf("e");
  const mantissa = e === -1 ? text : text.slice(0, e);
  const dot = mantissa.indexOf(".");
  const digits = dot === -1 ? mantissa : mantissa.slice(0, dot) + mantissa.slice(dot + 1);
  const scale = (dot === -1 ? 0 : mantissa.length - dot - 1) - (e === -1 ? 0 : Number(text.slice(e + 1)));
  const unscaled = BigInt(digits);
  return scale >= 0 ? { unscaled, scale } : { unscaled: unscaled * pow10(-scale), scale: 0 };
}

export function plus(a: Scaled, b: Scaled): Scaled {
  if (a.unscaled === 0n) return b;
  if (b.unscaled === 0n) return a;
  if (a.scale === b.scale) return { unscaled: a.unscaled + b.unscaled, scale: a.scale };
  return a.scale > b.scale
    ? { unscaled: a.unscaled + b.unscaled * pow10(a.scale - b.scale), scale: a.scale }
    : { unscaled: a.unscaled * pow10(b.scale - a.scale) + b.unscaled, scale: b.scale };
}

export const times = (a: Scaled, b: Scaled): Scaled => ({ unscaled: a.unscaled * b.unscaled, scale: a.scale + b.scale });

/** Divides by 10^n exactly (per-million-token prices: n = 6). */
export const shift = (a: Scaled, n: number): Scaled => ({ unscaled: a.unscaled, scale: a.scale + n });

/** `numerator / denominator`, rounded half away from zero (decimal.js ROUND_HALF_UP). */
function divideRounded(numerator: bigint, denominator: bigint): bigint {
  if (denominator === 0n) throw new RangeError("division by zero");
  const quotient = numerator / denominator;
  const remainder = numerator % denominator;
  const twice = (remainder < 0n ? -remainder : remainder) * 2n;
  if (twice < (denominator < 0n ? -denominator : denominator)) return quotient;
  return numerator < 0n !== denominator < 0n ? quotient - 1n : quotient + 1n;
}

/** Rounded half away from zero (decimal.js ROUND_HALF_UP) to at most `places` places. */
export function round(value: Scaled, places: number): Scaled {
  if (value.scale <= places) return value;
  return { unscaled: divideRounded(value.unscaled, pow10(value.scale - places)), scale: places };
}

/** `value / divisor`, rounded half away from zero to `places` places. */
export function divide(value: Scaled, divisor: bigint, places: number): Scaled {
  const numerator = places >= value.scale ? value.unscaled * pow10(places - value.scale) : value.unscaled;
  const denominator = places >= value.scale ? divisor : divisor * pow10(value.scale - places);
  return { unscaled: divideRounded(numerator, denominator), scale: places };
}

/** The value in units of 10^-scale (rounded half away from zero when it has more places). */
export function unitsAt(value: Scaled, scale: number): bigint {
  if (value.scale === scale) return value.unscaled;
  return value.scale < scale ? value.unscaled * pow10(scale - value.scale) : divideRounded(value.unscaled, pow10(value.scale - scale));
}

/** -1, 0 or 1 as `a` is less than, equal to or greater than `b`. */
export function compare(a: Scaled, b: Scaled): -1 | 0 | 1 {
  const scale = Math.max(a.scale, b.scale);
  const x = unitsAt(a, scale);
  const y = unitsAt(b, scale);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Plain notation without trailing zeros ("2.50" → "2.5", "-0" → "0"), as decimal.js toFixed() prints. */
export function toText(value: Scaled): string {
  const negative = value.unscaled < 0n;
  const digits = (negative ? -value.unscaled : value.unscaled).toString();
  let text = digits;
  if (value.scale > 0) {
    const padded = digits.padStart(value.scale + 1, "0");
    let end = padded.length;
    while (end > padded.length - value.scale && padded.charCodeAt(end - 1) === 48 /* 0 */) end--;
    const whole = padded.slice(0, -value.scale);
    text = end > whole.length ? `${whole}.${padded.slice(whole.length, end)}` : whole;
  }
  return negative && text !== "0" ? `-${text}` : text;
}

/** The nearest JS number (the decimal is exact, so only this final conversion rounds). */
export function toNumber(value: Scaled): number {
  return value.scale === 0 ? Number(value.unscaled) : Number(toText(value));
}
