import pino, { type Logger } from "pino";
import type { RequestHandler } from "express";
import { matchedRoute } from "./routes";

export const REDACTED_PATHS = [
  "req.headers.authorization",
  "req.headers['x-api-key']",
  "req.headers.cookie",
  "res.headers['set-cookie']",
  "*.token",
  "*.key",
  "*.password",
];

/**
 * Structured logs to stdout. Writes are asynchronous (sonic-boom) so a request never waits on the
 * terminal or a log collector; `serve` flushes on shutdown.
 */
export function createLogger(name: string, level = process.env.LOG_LEVEL ?? "info"): Logger {
  return pino(
    { name, level, redact: { paths: REDACTED_PATHS, censor: "[redacted]" } },
    pino.destination({ dest: 1, sync: false }),
  );
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
 * request (serialising the request into its bindings) even when the line is not written, which
 * measured at about a quarter of a cached compute price query's cost (bench/compute-query.ts).
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
