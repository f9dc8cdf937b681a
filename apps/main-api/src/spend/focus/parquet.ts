import { brotliDecompressSync, gunzipSync } from "node:zlib";
import {
  type AsyncBuffer,
  type Compressors,
  type FileMetaData,
  type DecodedArray,
  parquetMetadataAsync,
  parquetRead,
  type SchemaElement,
  snappyUncompress,
} from "hyparquet";
import { FocusFormatError, type FocusLine, FocusTooLargeError } from "./line";
import { type FocusReadInfo, rowReader } from "./rows";
import { turnTaker } from "./turns";
import type { Cell } from "./values";

/** The most rows a row group may hold: a row group is decoded whole, so this bounds what one holds in memory. */
export const MAX_ROW_GROUP_ROWS = 1_000_000;

const UNREADABLE = "The body is not a readable Parquet file";

/**
 * Decompressors that never produce more than a page's declared size, nor a page larger than the
 * import's bound (the declared size is the file's word; a lie is caught, not believed).
 */
function boundedCompressors(maxBytes: number): Compressors {
  const declared = (size: number) => {
    if (size > maxBytes) throw new FocusTooLargeError(maxBytes);
    return size;
  };
  return {
    GZIP: (input, size) => gunzipSync(input, { maxOutputLength: Math.max(1, declared(size)) }),
    BROTLI: (input, size) => brotliDecompressSync(input, { maxOutputLength: Math.max(1, declared(size)) }),
    SNAPPY: (input, size) => {
      const page = new Uint8Array(declared(size));
      snappyUncompress(input, page);
      return page;
    },
  };
}

/** The file's declared size once decompressed, every column chunk of every row group. */
function uncompressedSize(metadata: FileMetaData): bigint {
  let total = 0n;
  for (const group of metadata.row_groups) for (const chunk of group.columns) total += BigInt(chunk.meta_data?.total_uncompressed_size ?? 0n);
  return total;
}

/** The top-level columns of the file (the root's direct children, nested groups skipped over). */
function topLevel(schema: SchemaElement[]): SchemaElement[] {
  const out: SchemaElement[] = [];
  let i = 1;
  const skip = (): void => {
    const children = schema[i++].num_children ?? 0;
    for (let c = 0; c < children; c++) skip();
  };
  for (let c = 0; c < (schema[0].num_children ?? 0); c++) {
    out.push(schema[i]);
    skip();
  }
  return out;
}

/** 123 with scale 2 → "1.23": exact, where the reader's default would divide a float. */
function scaled(unscaled: bigint, scale: number): string {
  const negative = unscaled < 0n;
  const digits = (negative ? -unscaled : unscaled).toString().padStart(scale + 1, "0");
  const whole = scale ? `${digits.slice(0, -scale)}.${digits.slice(-scale)}` : digits;
  return negative ? `-${whole}` : whole;
}

function unscaledOf(value: unknown): bigint {
  if (typeof value === "bigint") return value;
  if (typeof value === "number") return BigInt(value);
  const bytes = value as Uint8Array;
  let n = 0n;
  for (const b of bytes) n = (n << 8n) | BigInt(b);
  // Big-endian two's complement.
  if (bytes.length && bytes[0] & 0x80) n -= 1n << BigInt(bytes.length * 8);
  return n;
}

/**
 * Makes DECIMAL columns come back unscaled (an integer, or the bytes through the UUID hook, which
 * no FOCUS column uses) so that they are read exactly; returns each such column's scale.
 */
function exactDecimals(columns: SchemaElement[]): Map<string, number> {
  const scales = new Map<string, number>();
  for (const element of columns) {
    if (element.converted_type !== "DECIMAL" && element.logical_type?.type !== "DECIMAL") continue;
    scales.set(element.name, element.scale ?? 0);
    element.converted_type = undefined;
    element.logical_type = element.type === "BYTE_ARRAY" || element.type === "FIXED_LEN_BYTE_ARRAY" ? { type: "UUID" } : undefined;
  }
  return scales;
}

function cellOf(value: unknown, scale: number | undefined): Cell {
  if (value === null || value === undefined) return null;
  if (scale !== undefined) return scaled(unscaledOf(value), scale);
  if (value instanceof Uint8Array) return Buffer.from(value).toString("utf8");
  return value as Cell;
}

/**
 * What a decoded cell counts against the import's size bound: a text's UTF-8 bytes (a dictionary
 * value at every row that uses it), 8 for a number or a time, a nested value as its JSON.
 */
function cellBytes(cell: Cell): number {
  if (cell === null || cell === undefined) return 0;
  if (typeof cell === "string") return Buffer.byteLength(cell);
  if (typeof cell === "boolean") return 1;
  if (typeof cell === "object" && !(cell instanceof Date))
    return Buffer.byteLength(JSON.stringify(cell, (_key, value) => (typeof value === "bigint" ? value.toString() : value)) ?? "");
  return 8;
}

/**
 * Columns of one row group, decoded once: each column's values in row order (the reader hands a
 * column over in runs of rows). `group` is the file's metadata narrowed to that row group (its column
 * chunks keep their offsets in the file), so that planning the read never walks the other groups.
 */
async function readGroupColumns(file: AsyncBuffer, group: FileMetaData, names: string[], compressors: Compressors): Promise<ArrayLike<unknown>[]> {
  const rows = Number(group.num_rows);
  const runs = new Map<string, { rowStart: number; data: DecodedArray }[]>(names.map((name) => [name, []]));
  await parquetRead({
    file,
    metadata: group,
    columns: names,
    rowStart: 0,
    rowEnd: rows,
    compressors,
    parsers: { uuidFromBytes: (bytes: Uint8Array) => bytes },
    onChunk: (chunk) => runs.get(chunk.columnName)?.push({ rowStart: chunk.rowStart, data: chunk.columnData }),
  });
  return names.map((name) => {
    const column = runs.get(name) ?? [];
    if (column.length === 1 && column[0].rowStart === 0 && column[0].data.length === rows) return column[0].data;
    const values: unknown[] = new Array(rows);
    let filled = 0;
    for (const run of column.sort((a, b) => a.rowStart - b.rowStart)) {
      for (let i = 0; i < run.data.length; i++) {
        const at = run.rowStart + i;
        if (at < 0 || at >= rows) continue;
        values[at] = run.data[i];
        filled += 1;
      }
    }
    if (filled !== rows) throw new Error(`column ${name} holds ${filled} of the row group's ${rows} rows`);
    return values;
  });
}

/** A row group of at most this many rows is decoded in one go; a larger one a column per turn of the event loop. */
const SMALL_GROUP_ROWS = 20_000;

/**
 * Reads a FOCUS Parquet file (Parquet needs random access: the caller gives a file) one row group at
 * a time: each column of the group decoded once (its pages never again; a large group a column per
 * turn of the event loop), then its rows handed on, the event loop handed back after every TURN_MS of
 * work (the consumer's included). A row group holds at most MAX_ROW_GROUP_ROWS rows; the file's
 * declared size and the bytes of its decoded cells (a dictionary value counted at every row that uses
 * it) are bounded by `maxBytes`. The reader's own messages never reach the client.
 */
export async function* readFocusParquet(file: AsyncBuffer, info: FocusReadInfo = {}, maxBytes = Number.MAX_SAFE_INTEGER): AsyncGenerator<FocusLine> {
  let metadata: FileMetaData;
  let columns: SchemaElement[];
  let declaredSize: bigint;
  try {
    metadata = await parquetMetadataAsync(file);
    columns = topLevel(metadata.schema);
    declaredSize = uncompressedSize(metadata);
  } catch {
    throw new FocusFormatError(UNREADABLE);
  }
  if (declaredSize > BigInt(maxBytes)) throw new FocusTooLargeError(maxBytes);
  metadata.row_groups.forEach((group, i) => {
    const rows = Number(group.num_rows);
    if (rows > MAX_ROW_GROUP_ROWS)
      throw new FocusFormatError(
        `Row group ${i + 1} holds ${rows} rows: a row group may hold at most ${MAX_ROW_GROUP_ROWS} (write the file with smaller row groups)`,
      );
  });
  const compressors = boundedCompressors(maxBytes);
  const header = columns.map((c) => c.name);
  const reader = rowReader(header);
  info.reader = reader;
  const scaleOf = exactDecimals(columns);
  const scales = header.map((name) => scaleOf.get(name));
  let row = 0;
  let bytes = 0;
  let groupStart = 0;
  const turns = turnTaker();
  for (const group of metadata.row_groups) {
    const range = { start: groupStart, end: groupStart + Number(group.num_rows) };
    groupStart = range.end;
    if (range.end === range.start) continue;
    const only: FileMetaData = { ...metadata, row_groups: [group], num_rows: group.num_rows };
    const data: ArrayLike<unknown>[] = [];
    const batches = range.end - range.start <= SMALL_GROUP_ROWS ? [header] : header.map((name) => [name]);
    for (const names of batches) {
      try {
        data.push(...(await readGroupColumns(file, only, names, compressors)));
      } catch (err) {
        if (err instanceof FocusTooLargeError) throw err;
        throw new FocusFormatError(`${UNREADABLE} (rows ${range.start + 1} to ${range.end})`);
      }
      await turns.next();
    }
    const cells: Cell[] = new Array(header.length);
    for (let i = 0; i < range.end - range.start; i++) {
      const turn = turns.due();
      if (turn) await turn;
      for (let c = 0; c < header.length; c++) {
        const cell = cellOf(data[c][i], scales[c]);
        bytes += cellBytes(cell);
        cells[c] = cell;
      }
      if (bytes > maxBytes) throw new FocusTooLargeError(maxBytes);
      info.bytes = bytes;
      yield reader.read(cells, ++row);
    }
  }
}
