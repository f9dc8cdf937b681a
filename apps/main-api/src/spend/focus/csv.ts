import type { Readable } from "node:stream";
import { createGunzip } from "node:zlib";
import { CsvError, parse } from "csv-parse";
import { FocusFormatError, type FocusLine } from "./line";
import { type FocusReadInfo, type FocusRowReader, rowReader } from "./rows";

/** Streams the lines of a FOCUS CSV file (optionally gzip-compressed), failing on the first bad row. */
export async function* readFocusCsv(body: Readable, options: { gzip?: boolean; info?: FocusReadInfo } = {}): AsyncGenerator<FocusLine> {
  const parser = parse({ bom: true, relax_column_count: true, skip_empty_lines: true });
  let source: Readable = body;
  if (options.gzip) {
    const gunzip = createGunzip();
    body.on("error", (err) => gunzip.destroy(err));
    gunzip.on("error", (err: NodeJS.ErrnoException) => parser.destroy(err.code?.startsWith("Z_") ? new FocusFormatError("The body is not valid gzip") : err));
    source = body.pipe(gunzip);
  } else {
    body.on("error", (err) => parser.destroy(err));
  }
  source.pipe(parser);

  let reader: FocusRowReader | undefined;
  let row = 0;
  try {
    for await (const record of parser as AsyncIterable<string[]>) {
      if (!reader) {
        reader = rowReader(record);
        if (options.info) options.info.reader = reader;
        continue;
      }
      yield reader.read(record, ++row);
    }
  } catch (err) {
    if (err instanceof CsvError) throw new FocusFormatError(`Malformed CSV: ${err.message}`);
    throw err;
  } finally {
    if (!parser.destroyed) parser.destroy();
  }
  if (!reader) throw new FocusFormatError("The file is empty: a FOCUS file starts with a header row");
}
