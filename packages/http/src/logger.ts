import pino, { type Logger } from "pino";
import { pinoHttp } from "pino-http";
import type { RequestHandler } from "express";

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

/** One structured line per request: request id, method, route, status and latency. */
const PROBES = new Set(["/healthz", "/readyz"]);

export function httpLogger(logger: Logger): RequestHandler {
  return pinoHttp({
    logger,
    genReqId: (req) => req.id,
    customProps: (req) => ({ requestId: req.id }),
    // Health probes (polled every few seconds, 503 while starting) only at debug level.
    customLogLevel: (req, res, err) =>
      PROBES.has(req.url ?? "") ? "debug" : err || res.statusCode >= 500 ? "error" : res.statusCode >= 400 ? "warn" : "info",
    serializers: {
      // Headers are not logged at all: credentials (Authorization, X-API-Key, cookies) never reach
      // the logs, and the hot path skips serialising them.
      req: (req) => ({ id: req.id, method: req.method, url: req.url, userAgent: req.headers?.["user-agent"] }),
      res: (res) => ({ statusCode: res.statusCode }),
    },
    customSuccessObject: (req, res, val) => ({ ...val, route: routeOf(req) }),
    customErrorObject: (req, res, _err, val) => ({ ...val, route: routeOf(req) }),
  }) as unknown as RequestHandler;
}

function routeOf(req: unknown): string | undefined {
  const r = req as { route?: { path?: string }; baseUrl?: string };
  return r.route?.path ? `${r.baseUrl ?? ""}${r.route.path}` : undefined;
}
