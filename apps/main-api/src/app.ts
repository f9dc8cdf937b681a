import express, { type Express } from "express";
import type { Logger } from "pino";
import type { Database } from "@cloudcost/db";
import { errorHandler, httpLogger, jsonBody, notFoundHandler, requestId } from "@cloudcost/http";
import type { Config } from "./config";
import type { Prisma } from "./db";
import { renderEnvelopeError } from "./errors";
import { healthRoutes } from "./health/routes";

export interface AppDeps {
  config: Config;
  db: Database;
  prisma: Prisma;
  logger: Logger;
}

export function createApp(deps: AppDeps): Express {
  const app = express();
  app.disable("x-powered-by");
  app.set("query parser", "extended");
  app.use(requestId());
  app.use(httpLogger(deps.logger));
  app.use(jsonBody());

  app.use(healthRoutes(deps.db));

  app.use(notFoundHandler(renderEnvelopeError));
  app.use(errorHandler(renderEnvelopeError, deps.logger));
  return app;
}
