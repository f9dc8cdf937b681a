import { brotliDecompressSync, gunzipSync } from "node:zlib";
import {
  type AsyncBuffer,
  type Compressors,
  type FileMetaData,
  parquetMetadataAsync,
  parquetReadObjects,
  type SchemaElement,
  snappyUncompress,
} from "hyparquet";
import { FocusFormatError, type FocusLine, FocusTooLargeError } from "./line";
import { type FocusReadInfo, rowReader } from "./rows";
import type { Cell } from "./values";

const CHUNK_ROWS = 5000;

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
 * Reads a FOCUS Parquet file chunk by chunk (Parquet needs random access: the caller gives a file),
 * its decompressed size bounded by `maxBytes`. The reader's own messages never reach the client.
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
  const compressors = boundedCompressors(maxBytes);
  const header = columns.map((c) => c.name);
  const reader = rowReader(header);
  info.reader = reader;
  const scales = exactDecimals(columns);
  const total = Number(metadata.num_rows);
  let row = 0;
  for (let start = 0; start < total; start += CHUNK_ROWS) {
    let rows: Record<string, unknown>[];
    try {
      rows = await parquetReadObjects({
        file,
        metadata,
        rowStart: start,
        rowEnd: Math.min(total, start + CHUNK_ROWS),
        compressors,
        parsers: { uuidFromBytes: (bytes: Uint8Array) => bytes },
      });
    } catch (err) {
      if (err instanceof FocusTooLargeError) throw err;
      throw new FocusFormatError(`${UNREADABLE} (rows ${start + 1} to ${Math.min(total, start + CHUNK_ROWS)})`);
    }
    for (const object of rows) {
      yield reader.read(
        header.map((name) => cellOf(object[name], scales.get(name))),
        ++row,
      );
    }
  }
}
