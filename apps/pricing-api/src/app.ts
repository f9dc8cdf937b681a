import express, { type Express } from "express";
import type { Logger } from "pino";
import type { Database } from "@cloudcost/db";
import {
  createMetrics,
  errorHandler,
  httpLogger,
  jsonBody,
  notFoundHandler,
  protections,
  requestId,
  type Metrics,
} from "@cloudcost/http";
import { apiDocsRouter, pricingApiDocument } from "@cloudcost/openapi";
import type { ApiKeyStore } from "./auth/api-key-store";
import { requireApiKey } from "./auth/middleware";
import { ComputeCatalogStore } from "./compute/catalog";
import { computeRoutes } from "./compute/routes";
import type { Config } from "./config";
import type { Prisma } from "./db";
import { renderPricingError } from "./errors";
import { healthRoutes } from "./health/routes";
import { idempotent } from "./idempotency";
import { accountRoutes } from "./auth/account-routes";
import { internalRoutes } from "./internal/routes";
import { serviceTokenJtis } from "./internal/service-token";
import { databaseRoutes } from "./marketplace/database-routes";
import { modelRoutes } from "./marketplace/model-routes";
import { pinRoutes, reportRoutes } from "./references/routes";
import { usageBody } from "./usage/body";
import { usageRoutes } from "./usage/routes";

export interface AppDeps {
  config: Config;
  db: Database;
  prisma: Prisma;
  logger: Logger;
  metrics?: Metrics;
  apiKeys: ApiKeyStore;
  serviceSecret: Uint8Array;
  /** The in-process compute catalog (empty until loaded: see compute/catalog-loader.ts). */
  computeCatalog?: ComputeCatalogStore;
}

export function createApp(deps: AppDeps): Express {
  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", deps.config.protection.trustProxy);
  app.set("query parser", "extended");
  const metrics = deps.metrics ?? createMetrics("pricing-api");
  const computeCatalog = deps.computeCatalog ?? new ComputeCatalogStore();
  app.use(requestId());
  app.use(metrics.middleware());
  app.use(httpLogger(deps.logger));
  app.use(protections(deps.config.protection));
  app.use(["/v1/pricing/usage", "/v1/pricing/reports"], usageBody());
  app.use(jsonBody());

  // Each API router is mounted behind the key check, so an unknown path still answers 404.
  const authenticated = requireApiKey(deps.apiKeys);
  const idem = idempotent(deps);
  // The compute price query is the hot path (every right-sizing recommendation): matched first.
  app.use("/v1/pricing/compute", authenticated, idem, computeRoutes(computeCatalog));
  app.use("/v1/pricing/account", authenticated, accountRoutes());
  app.use("/marketplace/providers/models", authenticated, idem, modelRoutes(deps));
  app.use("/marketplace/providers/databases", authenticated, idem, databaseRoutes(deps));
  app.use("/v1/pricing/pins", authenticated, pinRoutes(deps));
  app.use("/v1/pricing/reports", authenticated, idem, reportRoutes({ prisma: deps.prisma, labelPrefix: deps.config.labelPrefix }));
  app.use("/v1/pricing/usage", authenticated, idem, usageRoutes({ prisma: deps.prisma, labelPrefix: deps.config.labelPrefix }));

  // After the API routers (their paths do not overlap), so an API request does not walk these.
  app.use(healthRoutes(deps.db, computeCatalog));
  app.use(apiDocsRouter(pricingApiDocument(), "Cloud cost pricing API"));
  app.use("/internal", internalRoutes(deps.apiKeys, { secret: deps.serviceSecret, jtis: serviceTokenJtis(deps.db.sql) }));

  app.use(notFoundHandler(renderPricingError));
  app.use(errorHandler(renderPricingError, deps.logger));
  return app;
}
