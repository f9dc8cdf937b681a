import { Writable } from "node:stream";
import express from "express";
import pino from "pino";
import request from "supertest";
import { createLogger, httpLogger, logOutput, REDACTED_PATHS, requestId } from "../src";

/** A log destination that keeps each written line. */
function captureLines() {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { lines, sink };
}

describe("request logging", () => {
  it("logs request id, method, route, status and latency, and never a credential", async () => {
    const { lines, sink } = captureLines();
    const logger = pino({ redact: { paths: REDACTED_PATHS, censor: "[redacted]" } }, sink);
    const app = express().use(requestId()).use(httpLogger(logger));
    app.get("/things/:id", (_req, res) => res.json({ ok: true }));
    app.use(
      "/mounted",
      express.Router().post("/", (_req, res) => res.json({ ok: true })),
    );
    await request(app)
      .get("/things/42")
      .set("X-Request-Id", "req-log-1")
      .set("Authorization", "Bearer eyJhbGciOiJFZERTQSJ9.secret-token.sig")
      .set("X-API-Key", "bl_supersecretkeyvalue")
      .set("Cookie", "session=cookie-secret")
      .expect(200);
    const text = lines.join("");
    expect(text).not.toMatch(/secret-token|bl_supersecretkeyvalue|cookie-secret/);
    const entry = JSON.parse(lines.at(-1)!);
    expect(entry).toMatchObject({ requestId: "req-log-1", route: "/things/:id", res: { statusCode: 200 }, req: { method: "GET" } });
    expect(typeof entry.responseTime).toBe("number");
    // A router's root route is logged as its mount path, the same label the metrics use.
    await request(app).post("/mounted").expect(200);
    expect(JSON.parse(lines.at(-1)!)).toMatchObject({ route: "/mounted" });
  });
});

describe("health probe logging", () => {
  it("logs /healthz and /readyz at debug level, even a 503, and other 5xx at error", async () => {
    const { lines, sink } = captureLines();
    const app = express()
      .use(requestId())
      .use(httpLogger(pino({ level: "debug" }, sink)));
    app.get("/readyz", (_req, res) => res.status(503).json({ error: "not ready" }));
    app.get("/boom", (_req, res) => res.status(503).json({ error: "down" }));
    await request(app).get("/readyz").expect(503);
    await request(app).get("/boom").expect(503);
    const levels = lines.map((line) => JSON.parse(line)).map((e) => [e.req.url, e.level]);
    expect(levels).toEqual([
      ["/readyz", 20],
      ["/boom", 50],
    ]);
  });
});

describe("aborted requests", () => {
  it("logs a request whose client went away before the answer as aborted, at warn", async () => {
    const { lines, sink } = captureLines();
    const app = express()
      .use(requestId())
      .use(httpLogger(pino({ level: "info" }, sink)));
    // Event-driven, no fixed delays: the client goes away only once the handler holds the request,
    // and the handler answers only once the server has seen the connection close.
    let arrived!: () => void;
    const inHandler = new Promise<void>((resolve) => (arrived = resolve));
    let answered!: () => void;
    const handled = new Promise<void>((resolve) => (answered = resolve));
    app.get("/slow", (_req, res) => {
      res.on("close", () =>
        setImmediate(() => {
          res.json({ late: true });
          answered();
        }),
      );
      arrived();
    });
    const server = app.listen(0);
    try {
      await new Promise<void>((resolve) => server.once("listening", resolve));
      const { port } = server.address() as import("node:net").AddressInfo;
      const client = require("node:http").get({ port, path: "/slow", headers: { "x-request-id": "req-abort-1" } });
      client.on("error", () => undefined);
      await inHandler;
      client.destroy();
      await handled;
      const entry = lines.map((line) => JSON.parse(line)).find((e) => e.requestId === "req-abort-1");
      expect(entry).toMatchObject({ level: 40, msg: "request aborted", req: { url: "/slow" } });
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe("log format", () => {
  it("writes readable lines on a terminal and JSON anywhere else, unless LOG_FORMAT says which", () => {
    expect(logOutput({}, true)).toEqual({ format: "pretty", colorize: true });
    expect(logOutput({}, false)).toEqual({ format: "json", colorize: false });
    expect(logOutput({ LOG_FORMAT: "json" }, true)).toEqual({ format: "json", colorize: false });
    expect(logOutput({ LOG_FORMAT: "pretty" }, false)).toEqual({ format: "pretty", colorize: false });
    expect(logOutput({ LOG_FORMAT: "" }, false)).toEqual({ format: "json", colorize: false });
  });

  it("colours readable lines on a terminal or with FORCE_COLOR, never with NO_COLOR", () => {
    expect(logOutput({ LOG_FORMAT: "pretty", FORCE_COLOR: "1" }, false).colorize).toBe(true);
    expect(logOutput({ LOG_FORMAT: "pretty", FORCE_COLOR: "0" }, false).colorize).toBe(false);
    expect(logOutput({ NO_COLOR: "1" }, true)).toEqual({ format: "pretty", colorize: false });
    expect(logOutput({ LOG_FORMAT: "json", FORCE_COLOR: "1" }, true).colorize).toBe(false);
  });

  it("writes JSON, with a warning, for a LOG_FORMAT it does not know", () => {
    const output = logOutput({ LOG_FORMAT: "yaml" }, true);
    expect(output).toEqual({ format: "json", colorize: false, unknown: "yaml" });
    const { lines, sink } = captureLines();
    createLogger("svc", "info", output, sink);
    expect(JSON.parse(lines[0])).toMatchObject({ level: 40, name: "svc", msg: "LOG_FORMAT=yaml is neither json nor pretty: writing JSON" });
  });

  it("pretty: one readable line per request, credentials still redacted, nothing left to flush", async () => {
    const { lines, sink } = captureLines();
    const logger = createLogger("svc", "info", logOutput({ LOG_FORMAT: "pretty" }, false), sink);
    const app = express().use(requestId()).use(httpLogger(logger));
    app.get("/things/:id", (_req, res) => res.json({ ok: true }));
    await request(app).get("/things/42").set("X-Request-Id", "req-pretty-1").expect(200);
    logger.info({ session: { token: "tok-secret-value" } }, "started");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO \(svc\): GET \/things\/42 200 \d+ ms \{"requestId":"req-pretty-1","route":"\/things\/:id"\}\n$/);
    expect(lines[1]).toMatch(/INFO \(svc\): started \{"session":\{"token":"\[redacted\]"\}\}\n$/);
    expect(lines.join("")).not.toContain("\u001b[");
    // Written synchronously: by the time flush calls back (serve's shutdown), every line is out.
    await new Promise<void>((resolve) => logger.flush(() => resolve()));
    expect(lines).toHaveLength(2);
  });

  it("json: the structured line, as before", async () => {
    const { lines, sink } = captureLines();
    const logger = createLogger("svc", "info", logOutput({}, false), sink);
    logger.info({ session: { token: "tok-secret-value" } }, "started");
    expect(JSON.parse(lines[0])).toMatchObject({ name: "svc", msg: "started", session: { token: "[redacted]" } });
  });
});

describe("secret redaction", () => {
  const SECRETS = ["token", "key", "secret", "password", "authorization", "apiKey", "api_key", "cookie"];

  it("redacts a secret-named field at the top level of a log line and one level down", () => {
    const { lines, sink } = captureLines();
    const logger = createLogger("svc", "info", logOutput({}, false), sink);
    for (const field of SECRETS) {
      logger.info({ [field]: `top-${field}-value` }, "top");
      logger.info({ nested: { [field]: `nested-${field}-value` } }, "nested");
    }
    const text = lines.join("");
    for (const field of SECRETS) {
      expect(text).not.toContain(`top-${field}-value`);
      expect(text).not.toContain(`nested-${field}-value`);
    }
    expect(JSON.parse(lines[0])).toMatchObject({ msg: "top", token: "[redacted]" });
  });
});
