import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pipeline } from "node:stream/promises";
import { createWriteStream } from "node:fs";
import { Transform, type Readable } from "node:stream";
import type { Request } from "express";
import { asyncBufferFromFile } from "hyparquet";
import { HttpError } from "@cloudcost/http";
import { type FocusLine, type FocusReadInfo, readFocusCsv, readFocusParquet } from "../focus";

export type FocusBodyFormat = "csv" | "parquet";

/** The file format of an import request from its Content-Type and Content-Encoding; 415 for anything else. */
export function focusFormatOf(req: Request): { format: FocusBodyFormat; gzip: boolean } {
  const type = (req.headers["content-type"] ?? "").split(";")[0].trim().toLowerCase();
  const encoding = (req.headers["content-encoding"] ?? "identity").trim().toLowerCase();
  if (encoding !== "identity" && encoding !== "gzip")
    throw new HttpError("unsupported_media_type", `Content-Encoding ${encoding} is not supported: send gzip or none.`);
  if (type === "text/csv") return { format: "csv", gzip: encoding === "gzip" };
  if (type === "application/vnd.apache.parquet" && encoding === "identity") return { format: "parquet", gzip: false };
  throw new HttpError(
    "unsupported_media_type",
    "A FOCUS import is a text/csv body (optionally Content-Encoding: gzip) or an application/vnd.apache.parquet body.",
  );
}

const tooLarge = (max: number) => new HttpError("payload_too_large", `The file is larger than ${max} bytes (SPEND_IMPORT_MAX_BYTES).`);

/** Passes the body through, failing with a 413 past `max` bytes (as received, before decompression). */
function limited(body: Readable, max: number): Readable {
  let seen = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      done(seen > max ? tooLarge(max) : null, chunk);
    },
  });
  body.on("error", (err) => counter.destroy(err));
  return body.pipe(counter);
}

/**
 * The lines of the request's FOCUS file. CSV is parsed as it arrives; Parquet keeps its index at the
 * end, so it is spooled to a temporary file first (removed when the lines are done).
 */
export async function* focusLinesOf(req: Request, maxBytes: number, info: FocusReadInfo): AsyncGenerator<FocusLine> {
  const { format, gzip } = focusFormatOf(req);
  const declared = Number(req.headers["content-length"]);
  if (declared > maxBytes) throw tooLarge(maxBytes);
  const body = limited(req, maxBytes);
  if (format === "csv") {
    yield* readFocusCsv(body, { gzip, info });
    return;
  }
  const dir = await mkdtemp(join(tmpdir(), "focus-import-"));
  try {
    const path = join(dir, "body.parquet");
    await pipeline(body, createWriteStream(path));
    yield* readFocusParquet(await asyncBufferFromFile(path), info);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
