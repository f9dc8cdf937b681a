// Extreme values for the bad-input fuzzing: decimal texts past every bound (huge exponents, hundreds
// of digits, negative zero), the same texts sent as raw JSON numbers, and deep or huge strings. A
// route that takes decimals or free text must refuse them (or accept them within its bounds) in time
// linear in their length, never with a 5xx.
import fc from "fast-check";

/** Decimal texts that a careless reader expands into millions of digits or a numeric overflow. */
export const extremeDecimalText: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    "1e20000000",
    "-1e20000000",
    "1e-20000000",
    "1e400",
    "-1e400",
    "1e-400",
    "1e308",
    "1.2e29",
    "-1e30",
    "-0",
    "-0.0",
    "0e99999",
    "9".repeat(29),
    "9".repeat(400),
    `-${"9".repeat(400)}`,
    `0.${"0".repeat(399)}1`,
  ),
  fc.integer({ min: 21, max: 100_000_000 }).map((exponent) => `1e${exponent}`),
  fc.integer({ min: 30, max: 2_000 }).map((digits) => "9".repeat(digits)),
);

/** The subset that is valid JSON number syntax (sent unquoted). */
const RAW_NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;

/** A marker that `expandRawNumbers` writes as the bare number text into the JSON sent. */
const RAW = "__fuzz_raw_number__";
export const rawNumber: fc.Arbitrary<unknown> = extremeDecimalText.filter((text) => RAW_NUMBER.test(text)).map((text) => ({ [RAW]: text }));

/** JSON text with raw-number markers replaced by their bare number text. */
export function expandRawNumbers(json: string): string {
  return json.replace(new RegExp(`\\{"${RAW}":"([^"]*)"\\}`, "g"), (_m, text: string) => text);
}

/** A value with raw-number markers replaced by what JSON.parse makes of their text (Infinity, 0, -0...). */
export function parsedRawNumbers(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(parsedRawNumbers);
  if (value === null || typeof value !== "object") return value;
  const entries = Object.entries(value);
  if (entries.length === 1 && entries[0][0] === RAW) return JSON.parse(entries[0][1] as string);
  return Object.fromEntries(entries.map(([key, item]) => [key, parsedRawNumbers(item)]));
}

/** Text from 64 KiB to 1 MiB: past any text bound. */
export const hugeText: fc.Arbitrary<string> = fc
  .tuple(fc.constantFrom("x", "é", "😀", "ab,", '"'), fc.integer({ min: 64 * 1024 + 1, max: 1024 * 1024 }))
  .map(([chunk, length]) => chunk.repeat(Math.ceil(length / chunk.length)));

/** JSON objects nested past 32 levels, up to 5,000. */
export const deepObjectText: fc.Arbitrary<string> = fc.integer({ min: 33, max: 5_000 }).map((depth) => `${'{"a":'.repeat(depth)}"v"${"}".repeat(depth)}`);
