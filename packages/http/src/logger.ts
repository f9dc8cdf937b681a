import pino, { type Logger } from "pino";
import type { RequestHandler } from "express";
import { matchedRoute } from "./routes";

/** Field names whose values are secrets wherever they appear in a log line's object. */
const SECRET_FIELDS = ["token", "key", "secret", "password", "authorization", "apiKey", "api_key", "cookie"];

/** Redacted at the top level (`logger.info({ token })`) and one level down (`{ session: { token } }`). */
export const REDACTED_PATHS = [
  "req.headers.authorization",
  "req.headers['x-api-key']",
  "req.headers.cookie",
  "res.headers['set-cookie']",
  ...SECRET_FIELDS,
  ...SECRET_FIELDS.map((field) => `*.${field}`),
];

export type LogFormat = "json" | "pretty";

export interface LogOutput {
  format: LogFormat;
  colorize: boolean;
  /** A LOG_FORMAT value that is neither `json` nor `pretty` (JSON is written, and a warning). */
  unknown?: string;
}

/**
 * How logs are written: LOG_FORMAT (`json` or `pretty`) when set; otherwise readable lines on a
 * terminal and JSON anywhere else (a pipe, a file, a log collector). `pnpm start` reads its
 * services' output through pipes, so it passes its own terminal's choice down as LOG_FORMAT and
 * FORCE_COLOR. Colours on a terminal or with FORCE_COLOR, never with NO_COLOR.
 */
export function logOutput(env: NodeJS.ProcessEnv = process.env, isTTY = Boolean(process.stdout.isTTY)): LogOutput {
  const requested = env.LOG_FORMAT?.trim().toLowerCase() || undefined;
  const known = requested === "json" || requested === "pretty";
  const format: LogFormat = known ? requested : !requested && isTTY ? "pretty" : "json";
  const forced = env.FORCE_COLOR !== undefined && !["0", "false"].includes(env.FORCE_COLOR);
  const colorize = format === "pretty" && !env.NO_COLOR && (isTTY || forced);
  return { format, colorize, ...(requested && !known ? { unknown: env.LOG_FORMAT } : {}) };
}

type Destination = { write(line: string): unknown };

/** One line per request (method, URL, status, latency), the other fields after it on the same line. */
function prettyLines(colorize: boolean, destination: Destination): Destination & { flush(cb: () => void): void } {
  // Loaded only for a terminal: JSON output (services in containers, tests) never loads it.
  const { prettyFactory } = require("pino-pretty") as typeof import("pino-pretty");
  const prettify = prettyFactory({
    colorize,
    singleLine: true,
    translateTime: "SYS:HH:MM:ss.l",
    ignore: "pid,hostname,req,res,responseTime",
    messageFormat: (log, messageKey) => {
      const req = log.req as { method?: string; url?: string } | undefined;
      const res = log.res as { statusCode?: number } | undefined;
      const message = String(log[messageKey] ?? "");
      if (!req?.method || !res) return message;
      return `${req.method} ${req.url} ${res.statusCode} ${log.responseTime} ms${message === "request completed" ? "" : ` (${message})`}`;
    },
  });
  return { write: (line) => destination.write(prettify(line)), flush: (cb) => cb() };
}

/**
 * Logs to stdout. JSON writes are asynchronous (sonic-boom) so a request never waits on a log
 * collector; `serve` flushes them on shutdown before it exits. Readable lines (a terminal, see logOutput) are written
 * synchronously, so nothing is left to flush. `destination` replaces stdout (tests).
 */
export function createLogger(name: string, level = process.env.LOG_LEVEL ?? "info", output: LogOutput = logOutput(), destination?: Destination): Logger {
  const options = { name, level, redact: { paths: REDACTED_PATHS, censor: "[redacted]" } };
  const logger =
    output.format === "pretty"
      ? pino(options, prettyLines(output.colorize, destination ?? pino.destination({ dest: 1, sync: true })))
      : // minLength 1 makes flush(cb) wait for the writes (with 0 it calls back at once). Else what
        // is left is written on exit by a synchronous flush that retries a failed write forever:
        // with stdout's reader gone (EPIPE), a stopping service would never exit.
        pino(options, destination ?? pino.destination({ dest: 1, sync: false, minLength: 1 }));
  if (output.unknown !== undefined) logger.warn(`LOG_FORMAT=${output.unknown} is neither json nor pretty: writing JSON`);
  return logger;
}

const PROBES = new Set(["/healthz", "/readyz"]);

type Level = "debug" | "info" | "warn" | "error";

/** Health probes (polled every few seconds, 503 while starting) only at debug level. */
function levelOf(url: string, status: number, aborted: boolean): Level {
  if (PROBES.has(url)) return "debug";
  if (status >= 500) return "error";
  return status >= 400 || aborted ? "warn" : "info";
}

/**
 * One structured line per request when its response is done (or the client went away): request
 * id, method, URL, matched route, status and latency. Headers are not logged at all: credentials
 * (Authorization, X-API-Key, cookies) never reach the logs.
 *
 * Written on pino directly rather than through pino-http: pino-http builds a child logger per
 * request (serialising the request into its bindings) even when the line is not written, a large
 * share of a cheap request's cost (docs/performance.md, "Request handling on the hot path").
 */
export function httpLogger(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const started = performance.now();
    res.once("close", () => {
      const aborted = !res.writableFinished;
      const level = levelOf(req.originalUrl, res.statusCode, aborted);
      if (!logger.isLevelEnabled(level)) return;
      logger[level](
        {
          requestId: req.id,
          req: { id: req.id, method: req.method, url: req.originalUrl, userAgent: req.headers["user-agent"] },
          res: { statusCode: res.statusCode },
          route: matchedRoute(req),
          responseTime: Math.round(performance.now() - started),
        },
        aborted ? "request aborted" : "request completed",
      );
    });
    next();
  };
}
