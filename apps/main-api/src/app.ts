import express, { type Express } from "express";
import type { Logger } from "pino";
import type { Database } from "@cloudcost/db";
import { createMetrics, errorHandler, httpLogger, jsonBody, notFoundHandler, requestId, type Metrics } from "@cloudcost/http";
import { apiDocsRouter, mainApiDocument } from "@cloudcost/openapi";
import type { Config } from "./config";
import type { Prisma } from "./db";
import { renderEnvelopeError } from "./errors";
import { healthRoutes } from "./health/routes";

export interface AppDeps {
  config: Config;
  db: Database;
  prisma: Prisma;
  logger: Logger;
  metrics?: Metrics;
}

export function createApp(deps: AppDeps): Express {
  const app = express();
  app.disable("x-powered-by");
  app.set("query parser", "extended");
  const metrics = deps.metrics ?? createMetrics("main-api");
  app.use(requestId());
  app.use(metrics.middleware());
  app.use(httpLogger(deps.logger));
  app.use(jsonBody());

  app.use(healthRoutes(deps.db));
  app.use(metrics.router());
  app.use(apiDocsRouter(mainApiDocument(), "Cloud cost main API"));

  app.use(notFoundHandler(renderEnvelopeError));
  app.use(errorHandler(renderEnvelopeError, deps.logger));
  return app;
}
