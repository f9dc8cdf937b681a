import { gzipSync } from "node:zlib";
import express, { type RequestHandler } from "express";
import pino from "pino";
import { z } from "zod";
import { errorHandler, jsonBody, parseOr400, type ErrorRenderer } from "../src";

const render: ErrorRenderer = (_req, res, error) => res.status(error.status).json({ code: error.code, message: error.message });

/** A tick before the parser, as the rate limiter gives in both services: the body is then buffered. */
const tick: RequestHandler = (_req, _res, next) => void Promise.resolve().then(() => next());

/** The parser wrapped so the answer says whether it finished synchronously (the buffered-body path). */
function app(withTick: boolean) {
  const a = express();
  if (withTick) a.use(tick);
  const parse = jsonBody();
  a.use((req, res, next) => {
    let returned = false;
    parse(req, res, (err?: unknown) => {
      res.locals.sync = !returned;
      next(err);
    });
    returned = true;
  });
  a.post("/items", (req, res) => {
    const body = parseOr400(z.object({ name: z.string(), count: z.number() }), req.body, "item");
    res.status(201).json({ ...body, sync: res.locals.sync });
  });
  a.use(errorHandler(render, pino({ level: "silent" })));
  return a;
}

/** Sent with fetch: supertest would JSON-encode a Buffer body sent as application/json. */
async function post(a: express.Express, type: string | undefined, body: string | Buffer, headers: Record<string, string> = {}) {
  const server = a.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  try {
    const { port } = server.address() as { port: number };
    const res = await fetch(`http://127.0.0.1:${port}/items`, {
      method: "POST",
      headers: { ...(type === undefined ? {} : { "content-type": type }), ...headers, connection: "close" },
      body,
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  } finally {
    server.close();
  }
}

const item = '{"name":"a","count":2}';

// (every row has all six columns: jest passes a done callback for a missing last argument)
// Every case answers the same through the buffered-body path and through body-parser's stream path.
const cases: [string, string | undefined, string | Buffer, number, string | undefined, Record<string, string>][] = [
  ["an object", "application/json", item, 201, undefined, {}],
  ["an object with a charset", "Application/JSON; charset=UTF-8", item, 201, undefined, {}],
  ["a UTF-8 byte order mark", "application/json", Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(item)]), 201, undefined, {}],
  ["leading whitespace", "application/json", ` \n\t${item}`, 201, undefined, {}],
  ["a top-level string (strict mode)", "application/json", '"a"', 400, "malformed_json", {}],
  ["a top-level number (strict mode)", "application/json", "12", 400, "malformed_json", {}],
  ["a top-level array", "application/json", "[1]", 400, "invalid_request", {}],
  ["malformed JSON", "application/json", '{"name":', 400, "malformed_json", {}],
  ["a NUL escape", "application/json", '{"name":"a\\u0000","count":1}', 400, "invalid_request", {}],
  ["an escaped backslash before u0000", "application/json", '{"name":"a\\\\u0000","count":1}', 201, undefined, {}],
  ["a lone high surrogate escape", "application/json", '{"name":"a\\ud800","count":1}', 400, "invalid_request", {}],
  ["a high surrogate escape before a non-surrogate", "application/json", '{"name":"a\\uD83D\\u0041","count":1}', 400, "invalid_request", {}],
  ["a high surrogate escape at the body's end", "application/json", '{"name":"a","count":1,"x":"\\ud83d', 400, undefined, {}],
  ["a lone low surrogate escape", "application/json", '{"name":"a\\uDC00","count":1}', 400, "invalid_request", {}],
  ["two high surrogate escapes", "application/json", '{"name":"a\\ud83d\\ud83d\\ude00","count":1}', 400, "invalid_request", {}],
  ["a surrogate pair escape", "application/json", '{"name":"a\\ud83d\\ude00","count":1}', 201, undefined, {}],
  ["an escaped backslash before ud800", "application/json", '{"name":"a\\\\ud800","count":1}', 201, undefined, {}],
  ["another charset", "application/json; charset=latin1", item, 415, "unsupported_media_type", {}],
  ["a +json type", "application/vnd.api+json", item, 201, undefined, {}],
  ["a text type (not parsed)", "text/plain", item, 400, "invalid_request", {}],
  ["a body over 1 MiB", "application/json", `{"name":"${"x".repeat(1024 * 1024)}","count":1}`, 413, "payload_too_large", {}],
  ["a gzip body", "application/json", gzipSync(item), 201, undefined, { "Content-Encoding": "gzip" }],
  ["nesting 5000 levels deep", "application/json", `{"name":"a","count":1,"x":${"[".repeat(5000)}${"]".repeat(5000)}}`, 400, "invalid_request", {}],
  ["nesting 64 levels deep", "application/json", `{"name":"a","count":1,"x":${"[".repeat(63)}${"]".repeat(63)}}`, 201, undefined, {}],
  ["nesting 65 levels deep", "application/json", `{"name":"a","count":1,"x":${"[".repeat(64)}${"]".repeat(64)}}`, 400, "invalid_request", {}],
  ["brackets and escaped quotes inside strings", "application/json", JSON.stringify({ name: `a\\"${"{[".repeat(100)}\\`, count: 1 }), 201, undefined, {}],
  ["a deep gzip body", "application/json", gzipSync(`{"x":${"[".repeat(100)}${"]".repeat(100)}}`), 400, "invalid_request", { "Content-Encoding": "gzip" }],
];

describe("jsonBody", () => {
  for (const withTick of [true, false]) {
    describe(withTick ? "after a tick (buffered body)" : "first in the chain (streamed body)", () => {
      it.each(cases)("%s", async (_name, type, body, status, code, headers) => {
        const res = await post(app(withTick), type, body, headers);
        expect(res).toMatchObject({ status });
        if (code) expect(res.body.code).toBe(code);
        if (status === 201) expect(res.body).toMatchObject({ name: expect.stringMatching(/^a/), count: expect.any(Number) });
      });
    });
  }

  it("parses a small buffered body synchronously and streams the rest through body-parser", async () => {
    expect(await post(app(true), "application/json", item)).toEqual({ status: 201, body: { name: "a", count: 2, sync: true } });
    expect(await post(app(false), "application/json", item)).toEqual({ status: 201, body: { name: "a", count: 2, sync: false } });
    const gzip = await post(app(true), "application/json", gzipSync(item), { "Content-Encoding": "gzip" });
    expect(gzip).toEqual({ status: 201, body: { name: "a", count: 2, sync: false } });
  });

  it("keeps the connection usable for the next request after a buffered body", async () => {
    const server = app(true).listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    const { port } = server.address() as { port: number };
    try {
      for (let i = 0; i < 5; i++) {
        const res = await fetch(`http://127.0.0.1:${port}/items`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: `{"name":"a${i}","count":${i}}`,
        });
        expect(await res.json()).toEqual({ name: `a${i}`, count: i, sync: true });
      }
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
