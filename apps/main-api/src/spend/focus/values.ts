import { Decimal } from "decimal.js";

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

export function text(cell: Cell): string | null {
  if (isNull(cell)) return null;
  if (cell instanceof Date) return cell.toISOString();
  if (typeof cell === "object") return JSON.stringify(cell);
  return String(cell).trim();
}

const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
/** Already in Decimal#toFixed's form (no sign but a minus, no leading or trailing zeros, no exponent): kept as is. */
const CANONICAL = /^-?(?:0|[1-9]\d*)(?:\.\d*[1-9])?$/;

/** An exact decimal string without exponent; a Parquet double is read through its shortest form. */
export function decimal(cell: Cell): string | null {
  if (isNull(cell)) return null;
  let raw: string;
  if (typeof cell === "number") {
    if (!Number.isFinite(cell)) throw new CellError(`"${cell}" is not a finite decimal`);
    raw = String(cell);
  } else if (typeof cell === "bigint") raw = cell.toString();
  else if (typeof cell === "string") raw = cell.trim();
  else throw new CellError("is not a decimal");
  // Most cells are written canonically: no Decimal to build for them (a negative zero goes the long way).
  if (CANONICAL.test(raw) && !raw.startsWith("-0")) return raw;
  if (!DECIMAL.test(raw)) throw new CellError(`"${raw.slice(0, 40)}" is not a decimal`);
  return new Decimal(raw).toFixed();
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

/** A JSON object (the FOCUS KeyValueFormat); null or empty is no tags. */
export function tags(cell: Cell): Record<string, unknown> {
  if (isNull(cell)) return {};
  if (typeof cell === "object" && !(cell instanceof Date) && !Array.isArray(cell)) return cell as Record<string, unknown>;
  if (typeof cell !== "string") throw new CellError("is not a JSON object");
  let parsed: unknown;
  try {
    parsed = JSON.parse(cell);
  } catch {
    throw new CellError("is not valid JSON");
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) throw new CellError("is not a JSON object");
  return parsed as Record<string, unknown>;
}
