import express, { Router, type Express } from "express";
import type { Logger } from "pino";
import { pricingApiRoutes, type RouteDefinition } from "@cloudcost/contracts";
import type { Database } from "@cloudcost/db";
import {
  createMetrics,
  errorHandler,
  httpLogger,
  jsonBody,
  notFoundHandler,
  protections,
  registerRoutes,
  requestId,
  sqlIdempotencyStore,
  type IdempotencyStore,
  type Metrics,
} from "@cloudcost/http";
import { apiDocsRouter, pricingApiDocument } from "@cloudcost/openapi";
import { accountHandlers } from "./auth/account-routes";
import type { ApiKeyStore } from "./auth/api-key-store";
import { keyRoleAtLeast } from "./auth/key-role";
import { requireApiKey } from "./auth/middleware";
import { ComputeCatalogStore } from "./compute/catalog";
import { computeHandlers } from "./compute/routes";
import type { Config } from "./config";
import type { Prisma } from "./db";
import { renderPricingError } from "./errors";
import { healthHandlers } from "./health/routes";
import { idempotent } from "./idempotency";
import { internalRoutes } from "./internal/routes";
import { databaseHandlers } from "./marketplace/database-routes";
import { modelHandlers } from "./marketplace/model-routes";
import { pinHandlers, reportHandlers } from "./references/routes";
import { usageBody } from "./usage/body";
import { usageHandlers } from "./usage/routes";

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
  /** Where Idempotency-Key answers are kept (default: the app's database). */
  idempotencyStore?: IdempotencyStore;
}

const operations: RouteDefinition[] = Object.values(pricingApiRoutes);
/** Paths of the operations that accept more than the 1 MiB default body. */
const LARGE_BODY_PATHS = operations.filter((route) => route.bodyLimit).map((route) => route.path);

/** Every declared operation of the pricing API, bound to its handler. */
function apiRouter(deps: AppDeps, computeCatalog: ComputeCatalogStore): Router {
  const router = Router();
  const labelled = { prisma: deps.prisma, labelPrefix: deps.config.labelPrefix };
  const idempotency = idempotent(deps.idempotencyStore ?? sqlIdempotencyStore(deps.db.sql), deps.logger);
  registerRoutes(
    router,
    pricingApiRoutes,
    {
      ...computeHandlers(computeCatalog),
      ...accountHandlers(),
      ...modelHandlers(deps),
      ...databaseHandlers(deps),
      ...pinHandlers(deps),
      ...reportHandlers(labelled),
      ...usageHandlers(labelled),
      ...healthHandlers(deps.db, computeCatalog),
    },
    {
      authenticate: { api_key: requireApiKey(deps.apiKeys) },
      // Every key may do what a viewer may: only stronger requirements cost a check.
      authorize: (route) => (route.minKeyRole && route.minKeyRole !== "viewer" ? keyRoleAtLeast(route.minKeyRole) : undefined),
      idempotency: () => idempotency,
    },
  );
  return router;
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
  app.use(LARGE_BODY_PATHS, usageBody());
  app.use(jsonBody());

  app.use(apiRouter(deps, computeCatalog));
  app.use(metrics.router());
  app.use(apiDocsRouter(pricingApiDocument(), "Cloud cost pricing API"));
  app.use("/internal", internalRoutes(deps.apiKeys, deps.serviceSecret));

  app.use(notFoundHandler(renderPricingError));
  app.use(errorHandler(renderPricingError, deps.logger));
  return app;
}
