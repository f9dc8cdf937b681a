import { z } from "zod";

export const ServiceId = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/, "must be 1-64 characters of [A-Za-z0-9_-]")
  .meta({ id: "ServiceId", description: "Opaque id issued by the service; clients never parse it." });
export type ServiceId = z.infer<typeof ServiceId>;

export const CustomerId = z
  .string()
  .min(1)
  .max(256)
  .regex(/^\P{Cc}+$/u, "must not contain control characters")
  .meta({ id: "CustomerId", description: "Id chosen by the customer: 1-256 printable characters." });
export type CustomerId = z.infer<typeof CustomerId>;

// Already in the normalised form (UTC, milliseconds): most clients send that, and it skips Date's
// parse and format, a large share of validating a big ingest body (docs/performance.md, "Request handling on the hot path").
const CANONICAL_UTC = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

// Output ids ("Timestamp") and input ids differ so that zod-openapi's input/output variants never collide.
export const Timestamp = z.iso
  .datetime({ offset: true })
  .transform((value) => (CANONICAL_UTC.test(value) ? value : new Date(value).toISOString()))
  .meta({
    id: "TimestampInput",
    description: "RFC 3339 timestamp with any offset; normalised to UTC with milliseconds.",
  });
export type TimestampInput = z.input<typeof Timestamp>;
export type Timestamp = z.output<typeof Timestamp>;

export const TimestampOutput = z.iso
  .datetime({ precision: 3 })
  .meta({ id: "Timestamp", description: "RFC 3339 timestamp in UTC with milliseconds, e.g. 2026-11-21T22:47:22.123Z." });
export type TimestampOutput = z.infer<typeof TimestampOutput>;

export const Currency = z
  .string()
  .regex(/^[A-Z]{3}$/, "must be an ISO 4217 code of three upper-case letters")
  .meta({ id: "Currency", description: "ISO 4217 currency code, e.g. USD." });
export type Currency = z.infer<typeof Currency>;

export const NonNegativeMoney = z.number().min(0).meta({ id: "NonNegativeMoney", description: "Finite non-negative amount." });
export type NonNegativeMoney = z.infer<typeof NonNegativeMoney>;

/** How far ahead of the server's clock a sample's timestamp may run (collectors' clocks drift). */
export const CLOCK_SKEW_MS = 5 * 60_000;
/** How old a sample's timestamp may be (93 days: a quarter, the longest range the reads cover). */
export const SAMPLE_MAX_AGE_DAYS = 93;

/**
 * A timestamp no further ahead than CLOCK_SKEW_MS and no older than `maxAgeDays` days, as of the
 * moment it is parsed (one parse per value: ingest bodies carry thousands).
 */
export function recentTimestamp(maxAgeDays = SAMPLE_MAX_AGE_DAYS) {
  return Timestamp.superRefine((value, ctx) => {
    const at = Date.parse(value);
    const now = Date.now();
    if (at > now + CLOCK_SKEW_MS) ctx.addIssue({ code: "custom", message: "must not be in the future" });
    else if (at < now - maxAgeDays * 86_400_000) ctx.addIssue({ code: "custom", message: `must be at most ${maxAgeDays} days ago` });
  });
}

/** The largest machine any input describes: cores, memory in GB, GPUs (no cloud sells more). */
export const MAX_CPU_CORES = 1024;
export const MAX_RAM_GB = 65_536;
export const MAX_GPU_COUNT = 64;
/** A machine's cores, a millicore (Kubernetes' resolution) to MAX_CPU_CORES. */
export const CpuCores = z
  .number()
  .min(0.001)
  .max(MAX_CPU_CORES)
  .meta({ id: "CpuCores", description: `A machine's cores (vCPUs): 0.001 to ${MAX_CPU_CORES}.` });
/** A machine's memory in GB, 0.001 (about a MiB) to MAX_RAM_GB. */
export const RamGb = z
  .number()
  .min(0.001)
  .max(MAX_RAM_GB)
  .meta({ id: "RamGb", description: `A machine's memory in GB: 0.001 to ${MAX_RAM_GB}.` });

const DECIMAL_DIGITS = /^[0-9]+$/;
const PLAIN_DECIMAL = /^[0-9]+(\.[0-9]+)?$/;

/**
 * A query parameter's text as a number, written in plain decimal digits only: `1e1`, `0x10`, `+5`,
 * ` 5`, `5.0`, `-1` and `Infinity` are refused (z.coerce.number would take them), so every integer
 * parameter of both APIs reads one way; the 400 names the parameter. Pipe it into the number's own
 * checks, or use queryInteger.
 */
export const queryDigits = z
  .string()
  .regex(DECIMAL_DIGITS, "must be a whole number written in decimal digits (no sign, exponent, fraction or spaces)")
  .transform(Number);

/**
 * An integer query parameter from `min` to `max`, in plain decimal digits (queryDigits); documented
 * as an integer (the text pattern is what a parameter's serialisation is anyway).
 */
export function queryInteger(min: number, max: number) {
  return queryDigits.pipe(z.number().int().min(min).max(max)).meta({ override: { type: "integer", minimum: min, maximum: max, pattern: undefined } });
}

/** A non-integer query parameter (hours, amounts): decimal digits with an optional fraction, nothing else. */
export const queryDecimal = z
  .string()
  .regex(PLAIN_DECIMAL, "must be a number written in decimal digits, with an optional fraction (no sign, exponent or spaces)")
  .transform(Number);

export const PaginationQuery = z
  .object({
    limit: queryInteger(1, 500).default(100),
    cursor: z.string().max(512).optional(),
  })
  .meta({ id: "PaginationQuery", description: "Page size (1-500, default 100) and the opaque cursor of the next page." });
export type PaginationQuery = z.output<typeof PaginationQuery>;

type QueryArray<T extends z.ZodType<unknown, string>> = z.ZodPipe<
  z.ZodPipe<z.ZodUnion<readonly [z.ZodString, z.ZodArray<z.ZodString>]>, z.ZodTransform<string[], string | string[]>>,
  z.ZodArray<T>
>;

/** Express query value (`a,b`, repeated, or both) → trimmed, non-empty items validated by `item`. */
export function queryArray<T extends z.ZodType<unknown, string>>(item: T): QueryArray<T> {
  return z
    .union([z.string(), z.array(z.string())])
    .transform((value) =>
      (Array.isArray(value) ? value : [value])
        .flatMap((part) => part.split(","))
        .map((part) => part.trim())
        .filter((part) => part.length > 0),
    )
    .pipe(z.array(item));
}

export const queryBoolean = z
  .stringbool({ truthy: ["true"], falsy: ["false"], case: "insensitive" })
  .meta({ override: { type: "string", pattern: "^([Tt][Rr][Uu][Ee]|[Ff][Aa][Ll][Ss][Ee])$", description: "`true` or `false`, in any case." } });

/** Identity / natural-key text of pricing entries; bounded so it can be indexed. */
// PostgreSQL text cannot hold NUL (a query filter with one would fail in the database: a 500).
export const KeyText = z
  .string()
  .max(256)
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching NUL is the point; the pattern is also the OpenAPI `pattern`.
  .regex(/^[^\u0000]*$/, "must not contain NUL characters");

/** How deep a free-form object may nest, itself counting as level 1 (both services, every free-form field). */
export const FREE_OBJECT_MAX_DEPTH = 32;

/**
 * The nesting depth of a JSON value (a scalar is 0, `{}` is 1), counted without recursion and
 * only up to `limit + 1`: a value thousands of levels deep must be refused, not overflow the stack.
 */
export function jsonDepth(value: unknown, limit = FREE_OBJECT_MAX_DEPTH): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 1]];
  for (let entry = stack.pop(); entry !== undefined; entry = stack.pop()) {
    const [node, depth] = entry;
    if (node === null || typeof node !== "object") continue;
    if (depth > deepest) deepest = depth;
    if (deepest > limit) break;
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      if (child !== null && typeof child === "object") stack.push([child, depth + 1]);
    }
  }
  return deepest;
}

/**
 * Free-form JSON object (`raw_pricing_data`, `tags`), at most FREE_OBJECT_MAX_DEPTH levels deep:
 * deeper data would be refused by nothing else before it is serialised recursively for storage.
 */
export const FreeObject = z
  .record(z.string(), z.unknown())
  .refine((value) => jsonDepth(value) <= FREE_OBJECT_MAX_DEPTH, { message: `must not be nested more than ${FREE_OBJECT_MAX_DEPTH} levels deep` });
