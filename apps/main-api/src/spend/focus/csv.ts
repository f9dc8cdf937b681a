import type { Readable } from "node:stream";
import { createGunzip } from "node:zlib";
import { CsvError, parse } from "csv-parse";
import { Transform } from "node:stream";
import { FocusFormatError, type FocusLine, FocusTooLargeError } from "./line";
import { type FocusReadInfo, type FocusRowReader, rowReader } from "./rows";
import { turnTaker } from "./turns";

/**
 * One row's text is bounded before it is split into cells (a cell's own bound, 64 KiB, is checked
 * after): room for every FOCUS column at that bound, and no 300 MB field held whole in memory.
 */
const MAX_ROW_BYTES = 4 * 1024 * 1024;

/**
 * The most the parser is given at once: it parses a chunk in one go, so a 5 MB chunk was one turn of
 * the event loop of about a second; at 64 KiB (what a file stream reads) a chunk is a few ms.
 */
const PARSE_CHUNK_BYTES = 64 * 1024;

/** Counts what passes (into `info.bytes`), fails past `maxBytes`, and hands it on in pieces of at most PARSE_CHUNK_BYTES. */
function byteLimit(maxBytes: number, info: FocusReadInfo | undefined): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      if (info) info.bytes = seen;
      if (seen > maxBytes) return done(new FocusTooLargeError(maxBytes));
      for (let at = 0; at < chunk.length; at += PARSE_CHUNK_BYTES) this.push(chunk.subarray(at, at + PARSE_CHUNK_BYTES));
      done();
    },
  });
}

/**
 * Streams the lines of a FOCUS CSV file (optionally gzip-compressed), its size once decompressed
 * bounded by `maxBytes` and counted into `info.bytes`, failing on the first bad row.
 */
export async function* readFocusCsv(body: Readable, options: { gzip?: boolean; maxBytes?: number; info?: FocusReadInfo } = {}): AsyncGenerator<FocusLine> {
  const parser = parse({ bom: true, relax_column_count: true, skip_empty_lines: true, max_record_size: MAX_ROW_BYTES });
  const limit = byteLimit(options.maxBytes ?? Number.POSITIVE_INFINITY, options.info);
  limit.on("error", (err) => parser.destroy(err));
  if (options.gzip) {
    const gunzip = createGunzip();
    body.on("error", (err) => gunzip.destroy(err));
    gunzip.on("error", (err: NodeJS.ErrnoException) => parser.destroy(err.code?.startsWith("Z_") ? new FocusFormatError("The body is not valid gzip") : err));
    body.pipe(gunzip).pipe(limit);
  } else {
    body.on("error", (err) => limit.destroy(err));
    body.pipe(limit);
  }
  limit.pipe(parser);

  let reader: FocusRowReader | undefined;
  let row = 0;
  // A body handed over in large chunks is parsed and consumed without returning to the event loop
  // (the parser's records come through promises alone): a 5 MB chunk held it for the whole file.
  const turns = turnTaker();
  try {
    for await (const record of parser as AsyncIterable<string[]>) {
      if (!reader) {
        reader = rowReader(record);
        if (options.info) options.info.reader = reader;
        continue;
      }
      yield reader.read(record, ++row);
      const turn = turns.due();
      if (turn) await turn;
    }
  } catch (err) {
    if (err instanceof CsvError && err.code === "CSV_MAX_RECORD_SIZE") {
      const limit = `${MAX_ROW_BYTES / 1024 / 1024} MiB`;
      if (!reader) throw new FocusFormatError(`The header row is longer than ${limit}`);
      const column = typeof err.column === "number" ? reader.header[err.column] : undefined;
      throw new FocusFormatError(`the row is longer than ${limit}`, row + 1, column ?? "?");
    }
    if (err instanceof CsvError) throw new FocusFormatError(`Malformed CSV: ${err.message}`);
    throw err;
  } finally {
    if (!parser.destroyed) parser.destroy();
  }
  if (!reader) throw new FocusFormatError("The file is empty: a FOCUS file starts with a header row");
}
