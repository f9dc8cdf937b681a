import express, { type Express } from "express";
import type { Logger } from "pino";
import type { Database } from "@cloudcost/db";
import { errorHandler, httpLogger, jsonBody, notFoundHandler, requestId } from "@cloudcost/http";
import { ComputeCatalogStore } from "./compute/catalog";
import { computeRoutes } from "./compute/routes";
import type { Config } from "./config";
import type { Prisma } from "./db";
import { renderPricingError } from "./errors";
import { healthRoutes } from "./health/routes";

export interface AppDeps {
  config: Config;
  db: Database;
  prisma: Prisma;
  logger: Logger;
  /** The in-process compute catalog (empty until loaded: see compute/catalog-loader.ts). */
  computeCatalog?: ComputeCatalogStore;
}

export function createApp(deps: AppDeps): Express {
  const app = express();
  app.disable("x-powered-by");
  app.set("query parser", "extended");
  app.use(requestId());
  app.use(httpLogger(deps.logger));
  app.use(jsonBody());

  app.use(healthRoutes(deps.db));
  app.use("/v1/pricing/compute", computeRoutes(deps.computeCatalog ?? new ComputeCatalogStore()));

  app.use(notFoundHandler(renderPricingError));
  app.use(errorHandler(renderPricingError, deps.logger));
  return app;
}
