import { createHash } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { finished, pipeline } from "node:stream/promises";
import { createReadStream, createWriteStream } from "node:fs";
import { Transform } from "node:stream";
import { asyncBufferFromFile } from "hyparquet";
import { HttpError, type RawBody } from "@cloudcost/http";
import { type FocusLine, type FocusReadInfo, readFocusCsv, readFocusParquet } from "../focus";

export type FocusBodyFormat = "csv" | "parquet";

/** The file format of an import request from its Content-Type and Content-Encoding; 415 for anything else. */
export function focusFormatOf(raw: Pick<RawBody, "contentType" | "contentEncoding">): { format: FocusBodyFormat; gzip: boolean } {
  const { contentType: type, contentEncoding: encoding } = raw;
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

/** A request's FOCUS file, received whole into a private temporary file. */
export interface ReceivedFocusBody {
  format: FocusBodyFormat;
  gzip: boolean;
  path: string;
  /** The hex SHA-256 of the body as received (an `Idempotency-Key`'s request fingerprint holds it). */
  digest: string;
  /** Removes the file (idempotent). */
  remove(): Promise<void>;
}

/**
 * Receives the request's body into a temporary file (mode 0600, as received: gzip stays compressed),
 * failing with a 413 past `maxBytes`. The file is removed if the body fails or the client goes away;
 * otherwise the caller removes it. An import parses from the file only once it is whole, so that no
 * database connection waits for a slow uploader.
 */
export async function receiveFocusBody(raw: RawBody, maxBytes: number): Promise<ReceivedFocusBody> {
  const { format, gzip } = focusFormatOf(raw);
  if (raw.contentLength !== undefined && raw.contentLength > maxBytes) throw tooLarge(maxBytes);
  const { stream } = raw;
  const dir = await mkdtemp(join(tmpdir(), "focus-import-"));
  const body: ReceivedFocusBody = { format, gzip, path: join(dir, "body"), digest: "", remove: () => rm(dir, { recursive: true, force: true }) };
  try {
    let seen = 0;
    const hash = createHash("sha256");
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        seen += chunk.length;
        if (seen > maxBytes) return done(tooLarge(maxBytes));
        hash.update(chunk);
        done(null, chunk);
      },
    });
    const written = pipeline(counter, createWriteStream(body.path, { flags: "wx", mode: 0o600 }));
    // Piped rather than part of the pipeline: a failure must not destroy the request, whose socket
    // still carries the error answer (the caller drains the rest of a refused body).
    stream.pipe(counter);
    try {
      await Promise.all([finished(stream), written]);
    } catch (err) {
      stream.unpipe(counter);
      counter.destroy();
      await written.catch(() => undefined);
      throw err;
    }
    body.digest = hash.digest("hex");
    return body;
  } catch (err) {
    await body.remove();
    throw err;
  }
}

/** The lines of a received FOCUS file (at most `maxBytes` once decompressed): CSV streamed from the file, Parquet read by random access. */
export async function* focusLinesOf(body: ReceivedFocusBody, info: FocusReadInfo, maxBytes: number): AsyncGenerator<FocusLine> {
  if (body.format === "parquet") {
    yield* readFocusParquet(await asyncBufferFromFile(body.path), info, maxBytes);
    return;
  }
  const file = createReadStream(body.path);
  try {
    yield* readFocusCsv(file, { gzip: body.gzip, maxBytes, info });
  } finally {
    file.destroy();
  }
}
