import express, { type Express, type RequestHandler } from "express";
import type { Logger } from "pino";
import { jsonBody } from "./json-body";
import { httpLogger } from "./logger";
import type { Metrics } from "./metrics";
import { errorHandler, notFoundHandler, type ErrorRenderer } from "./middlewares";
import { protections, type protectionConfig, type RateLimitStore } from "./protection";
import { requestId } from "./request-id";

export interface ServiceAppOptions {
  logger: Logger;
  metrics: Metrics;
  protection: ReturnType<typeof protectionConfig>;
  /** Shared rate-limit counts (with REDIS_URL); absent: counted in this process. */
  rateLimitStore?: RateLimitStore;
  /** Writes errors (the 404 of an unknown path included) in the API's own shape. */
  renderError: ErrorRenderer;
  /** Parsers for particular paths' bodies, run before the JSON parser (which leaves a parsed body alone). */
  bodyParsers?: { paths: string[]; parser: RequestHandler }[];
}

/**
 * An Express app with the stack both services share: request id, metrics, request log,
 * protections (headers, CORS, rate limits), JSON bodies; then what `mount` registers; then the
 * not-found and error handlers.
 */
export function serviceApp(options: ServiceAppOptions, mount: (app: Express) => void): Express {
  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", options.protection.trustProxy);
  app.set("query parser", "extended");
  app.use(requestId());
  app.use(options.metrics.middleware());
  app.use(httpLogger(options.logger));
  app.use(protections(options.protection, options.rateLimitStore));
  for (const { paths, parser } of options.bodyParsers ?? []) app.use(paths, parser);
  app.use(jsonBody());
  mount(app);
  app.use(notFoundHandler(options.renderError));
  app.use(errorHandler(options.renderError, options.logger));
  return app;
}
