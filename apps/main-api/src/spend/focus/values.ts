import { boundedDecimal, DecimalBoundError, LEDGER_TAG_KEY_MAX_LENGTH, LEDGER_TAG_VALUE_MAX_LENGTH, LEDGER_TAGS_MAX_KEYS } from "@cloudcost/contracts";

/** What a cell holds once read: CSV gives strings; Parquet gives numbers, bigints, dates, objects. */
export type Cell = string | number | bigint | boolean | Date | Record<string, unknown> | null | undefined;

/** Thrown by a value reader; the row reader adds the row and column. */
export class CellError extends Error {}

/** `NULL` (any case) and the empty string are null, as the providers' exports write them. */
export function isNull(cell: Cell): cell is null | undefined | "" {
  if (cell === null || cell === undefined) return true;
  if (typeof cell !== "string") return false;
  const t = cell.trim();
  return t === "" || t.toUpperCase() === "NULL";
}

/** Bounds on one cell (a 400 naming the row and column past them). */
export const TEXT_MAX_BYTES = 64 * 1024;
export const TAGS_MAX_DEPTH = 32;
/** Bounds on a line's tags, as on every way tags enter the ledger (each key is one roll-up row of the line's days). */
const TAGS_MAX_KEYS = LEDGER_TAGS_MAX_KEYS;
const TAG_KEY_MAX_LENGTH = LEDGER_TAG_KEY_MAX_LENGTH;
const TAG_VALUE_MAX_LENGTH = LEDGER_TAG_VALUE_MAX_LENGTH;

const NUL = "\u0000";

export function checkText(value: string): void {
  // A string's UTF-8 form is at least as long as its UTF-16 length and at most three times it.
  if (value.length > TEXT_MAX_BYTES || (value.length * 3 > TEXT_MAX_BYTES && Buffer.byteLength(value) > TEXT_MAX_BYTES))
    throw new CellError(`is longer than ${TEXT_MAX_BYTES / 1024} KiB`);
  // PostgreSQL's text and jsonb cannot hold U+0000.
  if (value.includes(NUL)) throw new CellError("contains a NUL character (U+0000)");
}

// A UTF-16 code unit of a surrogate pair's half outside a pair: JSON's escapes can write one, UTF-8 cannot.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function unstorable(text: string): string | undefined {
  if (text.includes(NUL)) return "contains a NUL character (U+0000)";
  if (LONE_SURROGATE.test(text)) return "contains a lone surrogate (\\uD800-\\uDFFF outside a pair)";
  return undefined;
}

/**
 * Why a parsed JSON value cannot be stored as jsonb, if it cannot: a key or a string holding U+0000
 * or a lone surrogate, which PostgreSQL refuses (walked without recursion).
 */
function unstorableJson(value: unknown): string | undefined {
  const stack = [value];
  while (stack.length) {
    const node = stack.pop();
    if (typeof node === "string") {
      const why = unstorable(node);
      if (why) return why;
    } else if (node !== null && typeof node === "object" && !(node instanceof Date)) {
      for (const [key, child] of Object.entries(node)) {
        const why = unstorable(key);
        if (why) return why;
        stack.push(child);
      }
    }
  }
  return undefined;
}

/** What our export puts before a text that a spreadsheet would run as a formula; read back without it. */
const ESCAPED_FORMULA = /^'[=+\-@\t\r]/;

/** A cell as text; a string cell has passed `checkText` already (the row reader checks every cell). */
export function text(cell: Cell): string | null {
  if (isNull(cell)) return null;
  if (cell instanceof Date) return cell.toISOString();
  const value = typeof cell === "object" ? JSON.stringify(cell) : String(cell).trim();
  if (typeof cell === "object") checkText(value);
  return ESCAPED_FORMULA.test(value) ? value.slice(1) : value;
}

/** An exact decimal string without exponent, within the bounds on decimals; a Parquet double is read through its shortest form. */
export function decimal(cell: Cell): string | null {
  if (isNull(cell)) return null;
  let raw: string;
  if (typeof cell === "number") {
    if (!Number.isFinite(cell)) throw new CellError(`"${cell}" is not a finite decimal`);
    raw = String(cell);
  } else if (typeof cell === "bigint") raw = cell.toString();
  else if (typeof cell === "string") raw = cell.trim();
  else throw new CellError("is not a decimal");
  try {
    return boundedDecimal(raw);
  } catch (err) {
    if (err instanceof DecimalBoundError) throw new CellError(err.message);
    throw err;
  }
}

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?)?\s*(Z|[+-]\d{2}:?\d{2}| ?UTC)?$/i;

const PARSED_TIMES_MAX = 4096;

/**
 * RFC 3339, or `YYYY-MM-DD HH:MM:SS` / `YYYY-MM-DD` without a zone, read as UTC. The reader keeps
 * what it parsed: bills repeat the same few period boundaries on every row, and parsing each
 * distinct string once saves a third of the parse time.
 */
export function timestampReader(): (cell: Cell) => Date | null {
  const parsed = new Map<string, Date>();
  return (cell) => {
    if (isNull(cell)) return null;
    if (cell instanceof Date) {
      if (Number.isNaN(cell.getTime())) throw new CellError("is not a valid timestamp");
      return cell;
    }
    const raw = String(cell).trim();
    let date = parsed.get(raw);
    if (!date) {
      date = parseTimestamp(raw);
      if (parsed.size === PARSED_TIMES_MAX) parsed.clear();
      parsed.set(raw, date);
    }
    return new Date(date.getTime());
  };
}

function parseTimestamp(raw: string): Date {
  const m = DATE_TIME.exec(raw);
  if (!m) throw new CellError(`"${raw.slice(0, 40)}" is not an RFC 3339 or "YYYY-MM-DD HH:MM:SS" timestamp`);
  const [, y, mo, d, h = "00", mi = "00", s = "00", frac = "", zone] = m;
  const millis = frac ? frac.slice(0, 4).padEnd(4, "0") : "";
  let offset = "Z";
  if (zone && !/^ ?UTC$/i.test(zone) && zone.toUpperCase() !== "Z") offset = zone.includes(":") ? zone : `${zone.slice(0, 3)}:${zone.slice(3)}`;
  const iso = `${y}-${mo}-${d}T${h}:${mi}:${s}${millis}${offset}`;
  const date = new Date(iso);
  // Date accepts 2026-02-30 by rolling over; a real timestamp reads back the same day.
  if (Number.isNaN(date.getTime()) || (offset === "Z" && date.toISOString().slice(0, 10) !== `${y}-${mo}-${d}`)) {
    throw new CellError(`"${raw.slice(0, 40)}" is not a valid timestamp`);
  }
  return date;
}

/** The deepest nesting of arrays and objects in JSON text, read once without parsing (strings skipped). */
function jsonTextDepth(json: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < json.length; i++) {
    const c = json.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) deepest = Math.max(deepest, ++depth);
    else if (c === 0x7d || c === 0x5d) depth--;
  }
  return deepest;
}

/** The deepest nesting of a value read from Parquet, walked without recursion; stops past `limit`. */
function valueDepth(value: unknown, limit: number): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length) {
    const [node, depth] = stack.pop() as [unknown, number];
    if (node === null || typeof node !== "object" || node instanceof Date) continue;
    deepest = Math.max(deepest, depth);
    if (deepest > limit) break;
    for (const child of Object.values(node)) stack.push([child, depth + 1]);
  }
  return deepest;
}

function checkTagsBounds(json: string | null, depth: number): void {
  if (depth > TAGS_MAX_DEPTH) throw new CellError(`is nested more than ${TAGS_MAX_DEPTH} levels deep`);
  if (json !== null) checkText(json);
}

/** How the ledger keeps a tag's value: text as it is, anything else as its JSON (a Parquet int64 as its digits). */
export const tagValueText = (value: unknown): string =>
  typeof value === "string"
    ? value
    : typeof value === "bigint"
      ? value.toString()
      : (JSON.stringify(value, (_key, v) => (typeof v === "bigint" ? v.toString() : v)) ?? "null");

/** At most TAGS_MAX_KEYS keys, each of at most TAG_KEY_MAX_LENGTH characters, values of at most TAG_VALUE_MAX_LENGTH (as text). */
function checkTagEntries(tags: Record<string, unknown>): Record<string, unknown> {
  let keys = 0;
  for (const key in tags) {
    if (!Object.hasOwn(tags, key)) continue;
    keys += 1;
    if (key.length > TAG_KEY_MAX_LENGTH) throw new CellError(`a key is longer than ${TAG_KEY_MAX_LENGTH} characters ("${key.slice(0, 40)}…")`);
    if (tagValueText(tags[key]).length > TAG_VALUE_MAX_LENGTH)
      throw new CellError(`the value of ${key.slice(0, 40)} is longer than ${TAG_VALUE_MAX_LENGTH} characters`);
  }
  if (keys > TAGS_MAX_KEYS) throw new CellError(`has ${keys} keys; a line may have at most ${TAGS_MAX_KEYS}`);
  return tags;
}

/**
 * A JSON object (the FOCUS KeyValueFormat) of at most 64 KiB and 32 levels, at most 64 keys of at
 * most 128 characters, values of at most 256 (as text); null or empty is no tags.
 */
export function tags(cell: Cell): Record<string, unknown> {
  if (isNull(cell)) return {};
  if (typeof cell === "object" && !(cell instanceof Date) && !Array.isArray(cell)) {
    checkTagsBounds(null, valueDepth(cell, TAGS_MAX_DEPTH));
    checkTagsBounds(
      JSON.stringify(cell, (_key, value) => (typeof value === "bigint" ? value.toString() : value)),
      0,
    );
    // The serialised form above escapes U+0000: the strings themselves are checked.
    const why = unstorableJson(cell);
    if (why) throw new CellError(why);
    return checkTagEntries(cell as Record<string, unknown>);
  }
  if (typeof cell !== "string") throw new CellError("is not a JSON object");
  checkTagsBounds(null, jsonTextDepth(cell));
  let parsed: unknown;
  try {
    parsed = JSON.parse(cell);
  } catch {
    throw new CellError("is not valid JSON");
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) throw new CellError("is not a JSON object");
  const why = unstorableJson(parsed);
  if (why) throw new CellError(why);
  return checkTagEntries(parsed as Record<string, unknown>);
}
