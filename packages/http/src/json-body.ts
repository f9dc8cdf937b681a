import type { IncomingMessage } from "node:http";
import express, { type RequestHandler } from "express";
import { HttpError } from "./http-error";

export const JSON_BODY_LIMIT = "1mb";
const JSON_BODY_LIMIT_BYTES = 1024 * 1024;

export const NUL_IN_BODY = "String values in the request body must not contain NUL (\\u0000) characters.";
export const LONE_SURROGATE_IN_BODY =
  "String values in the request body must be well-formed Unicode: a \\uD800-\\uDBFF escape must be followed by a \\uDC00-\\uDFFF one, and only such a pair may hold the latter.";

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const LETTER_U = 0x75;

/** Whether the byte at `at` is escaped: an odd number of backslashes leads up to it. */
function escaped(buf: Buffer, at: number): boolean {
  let slashes = 0;
  while (at - slashes - 1 >= 0 && buf[at - slashes - 1] === BACKSLASH) slashes += 1;
  return slashes % 2 === 1;
}

const hexAt = (buf: Buffer, at: number) => (at + 4 <= buf.length ? Number.parseInt(buf.toString("latin1", at, at + 4), 16) : Number.NaN);
const isHigh = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLow = (code: number) => code >= 0xdc00 && code <= 0xdfff;

/**
 * The `\u` escapes a body's strings cannot be stored with, refused once for every route: `\u0000`
 * (PostgreSQL's text and JSON cannot hold NUL), and a `\uD800`-`\uDFFF` escape outside a surrogate
 * pair (not Unicode: PostgreSQL's JSON refuses it, and as UTF-8 text it would silently become
 * U+FFFD). Either would pass validation and fail in the database (a 500). UTF-8 bytes themselves
 * cannot encode a lone surrogate, and a raw NUL byte is not valid JSON inside a string.
 */
export function rejectUnstorableEscapes(buf: Buffer): void {
  for (let at = buf.indexOf("\\u"); at !== -1; at = buf.indexOf("\\u", at + 2)) {
    if (escaped(buf, at)) continue; // an escaped backslash followed by a letter u
    const code = hexAt(buf, at + 2);
    if (code === 0) throw new HttpError("invalid_request", NUL_IN_BODY);
    if (isHigh(code)) {
      if (buf[at + 6] !== BACKSLASH || buf[at + 7] !== LETTER_U || !isLow(hexAt(buf, at + 8))) throw new HttpError("invalid_request", LONE_SURROGATE_IN_BODY);
      at += 6; // the pair's second half
    } else if (isLow(code)) {
      throw new HttpError("invalid_request", LONE_SURROGATE_IN_BODY);
    }
  }
}

/**
 * How deep a request body may nest. No route's body comes near it (a free-form object, limited to
 * 32 levels by the contracts, sits 3 levels below the top); anything deeper is refused before it
 * is parsed, so nothing that walks a body recursively (fingerprints, logs, serialisation for
 * storage) can overflow the stack.
 */
export const JSON_BODY_MAX_DEPTH = 64;

/** Throws a 400 when the JSON text in `buf` opens more than JSON_BODY_MAX_DEPTH objects or arrays at once (strings skipped). */
export function rejectDeepNesting(buf: Buffer): void {
  let depth = 0;
  for (let i = 0; i < buf.length; i++) {
    const c = buf[i];
    if (c === QUOTE) {
      // Jump to the closing quote: one not escaped.
      let end = i;
      do {
        end = buf.indexOf(QUOTE, end + 1);
        if (end === -1) return; // unterminated: the parser answers it
      } while (escaped(buf, end));
      i = end;
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > JSON_BODY_MAX_DEPTH) {
        throw new HttpError("invalid_request", `The request body is nested more than ${JSON_BODY_MAX_DEPTH} levels deep.`);
      }
    } else if (c === 0x7d || c === 0x5d) {
      depth -= 1;
    }
  }
}

/** body-parser `verify` for every JSON body: no NUL or lone surrogate escapes, no nesting deeper than JSON_BODY_MAX_DEPTH. */
export function verifyJsonBody(_req: unknown, _res: unknown, buf: Buffer): void {
  rejectUnstorableEscapes(buf);
  rejectDeepNesting(buf);
}

/**
 * The body of a plain JSON request when Node has already received all of it: a `Content-Length`
 * body of `application/json` (UTF-8), not compressed, whose declared bytes are all buffered in the
 * request stream (the usual case for a small request: it arrives in the packet of its headers, and
 * the middlewares before this one let a tick pass). Anything else returns undefined and takes
 * body-parser's path.
 */
function bufferedJsonBody(req: IncomingMessage): Buffer | undefined {
  if (req.readableFlowing !== null || req.headers["content-encoding"] !== undefined) return undefined;
  const type = req.headers["content-type"];
  if (type !== "application/json" && type?.toLowerCase().replace(/\s+/g, "") !== "application/json;charset=utf-8") return undefined;
  const declared = req.headers["content-length"];
  if (declared === undefined) return undefined;
  const length = Number(declared);
  if (!(length > 0 && length <= JSON_BODY_LIMIT_BYTES) || req.readableLength !== length) return undefined;
  const buf = req.read() as Buffer | null;
  return buf !== null && buf.length === length ? buf : undefined;
}

const UTF8_BOM = [0xef, 0xbb, 0xbf];

/** What body-parser's strict JSON parser does with a buffered body (BOM stripped, top level `{` or `[`). */
function parseStrictJson(buf: Buffer): unknown {
  const start = buf[0] === UTF8_BOM[0] && buf[1] === UTF8_BOM[1] && buf[2] === UTF8_BOM[2] ? 3 : 0;
  const text = buf.toString("utf8", start);
  if (text.length === 0) return {};
  // biome-ignore lint/suspicious/noControlCharactersInRegex: JSON's whitespace (RFC 8259) includes tab, LF and CR.
  const first = text[0] === "{" || text[0] === "[" ? text[0] : /^[\x20\x09\x0a\x0d]*([^\x20\x09\x0a\x0d]|$)/.exec(text)?.[1];
  if (first !== "{" && first !== "[")
    throw Object.assign(new SyntaxError("Unexpected token in JSON: the body must be an object or an array"), { type: "entity.parse.failed" });
  try {
    return JSON.parse(text);
  } catch (err) {
    throw Object.assign(err as Error, { type: "entity.parse.failed" });
  }
}

/**
 * JSON bodies up to 1 MiB; parse failures reach the error handler as 400/413/415.
 *
 * A body Node already holds whole is parsed here synchronously, with body-parser's rules (strict
 * top level, UTF-8, BOM stripped, the NUL and depth checks); every other request (streamed, compressed, other
 * charsets or types, oversized) goes through express.json. The fast path exists because
 * body-parser's stream machinery (five listeners, a decoder, a tick for `end`) is a large share of a
 * cheap request's cost (docs/performance.md, "Request handling on the hot path").
 */
export function jsonBody(): RequestHandler {
  const parser = express.json({ limit: JSON_BODY_LIMIT, type: ["application/json", "application/*+json"], verify: verifyJsonBody });
  return (req, res, next) => {
    const buf = bufferedJsonBody(req);
    if (buf === undefined) return parser(req, res, next);
    try {
      verifyJsonBody(req, res, buf);
      req.body = parseStrictJson(buf);
    } catch (err) {
      return next(err);
    }
    next();
  };
}

/**
 * JSON bodies up to `limitBytes` (shown as `shown` in the 413), for the operations declared with a
 * larger `bodyLimit`: mounted on their paths before the app-wide parser, which then skips them.
 */
export function largeJsonBody(limitBytes: number, shown: string): RequestHandler {
  const parse = express.json({ limit: limitBytes, type: ["application/json", "application/*+json"], verify: verifyJsonBody });
  return (req, res, next) =>
    parse(req, res, (err?: unknown) => {
      if ((err as { type?: string } | undefined)?.type === "entity.too.large")
        return next(new HttpError("payload_too_large", `The request body is larger than ${shown}.`));
      next(err);
    });
}
