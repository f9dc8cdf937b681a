import { Router, type Express } from "express";
import { pricingApiRoutes, type RouteDefinition } from "@cloudcost/contracts";
import { expressPath, largeJsonBody, registerRoutes, serviceApp } from "@cloudcost/http";
import { apiDocsRouter, pricingApiDocument } from "@cloudcost/openapi";
import { accountHandlers } from "./auth/account-routes";
import { authorize } from "./auth/authorize";
import { requireApiKey } from "./auth/authenticate";
import { computeHandlers } from "./compute/routes";
import type { AppDeps } from "./deps";
import { renderPricingError } from "./errors";
import { healthHandlers } from "./health/routes";
import { idempotent } from "./idempotency";
import { internalPricingHandlers } from "./internal/pricing-routes";
import { internalHandlers } from "./internal/routes";
import { requireServiceToken } from "./internal/service-token";
import { commitmentRateHandlers } from "./marketplace/commitment-routes";
import { computePriceHandlers } from "./marketplace/compute-routes";
import { databaseHandlers } from "./marketplace/database-routes";
import { modelHandlers } from "./marketplace/model-routes";
import { pinHandlers, reportHandlers } from "./references/routes";
import { usageHandlers } from "./usage/routes";

const operations: RouteDefinition[] = Object.values(pricingApiRoutes);
/**
 * Paths of the operations that accept more than the 1 MiB default body: usage bodies (POST
 * /v1/pricing/usage and /v1/pricing/reports) may carry 10000 lines, which do not fit in 1 MiB (a
 * labelled line is ~170 bytes); they get 8 MiB, parsed before the app-wide parser, which then skips them.
 */
const LARGE_BODY_PATHS = operations.filter((route) => route.bodyLimit).map((route) => expressPath(route.path));
const USAGE_BODY_LIMIT_BYTES = 8 * 1024 * 1024;

/** Every declared operation of the pricing API (the public ones and /internal), bound to its handler. */
function apiRouter(deps: AppDeps): Router {
  const router = Router();
  const labelled = { prisma: deps.prisma, labelPrefix: deps.config.labelPrefix };
  const idempotency = idempotent(deps);
  const { negotiated } = deps;
  registerRoutes(
    router,
    pricingApiRoutes,
    {
      ...computeHandlers(deps.computeCatalog, negotiated),
      ...computePriceHandlers({ prisma: deps.prisma, negotiated }),
      ...commitmentRateHandlers(deps),
      ...accountHandlers(),
      ...modelHandlers(deps),
      ...databaseHandlers(deps),
      ...pinHandlers(deps),
      ...reportHandlers(labelled),
      ...usageHandlers(labelled),
      ...healthHandlers(deps.db, deps.computeCatalog),
      ...internalHandlers(deps.apiKeys),
      ...internalPricingHandlers({ computeCatalog: deps.computeCatalog, negotiated, ...labelled }),
    },
    {
      // A service token is signed for the one request (method and path) and accepted once.
      authenticate: { api_key: requireApiKey(deps.apiKeys), service: requireServiceToken({ secret: deps.serviceSecret, jtis: deps.serviceTokenJtis }) },
      authorize: (route, req) => authorize(route, req.auth),
      idempotency: () => idempotency,
    },
  );
  return router;
}

/** The pricing API's Express app over `deps` (built once by compose.ts). */
export function createApp(deps: AppDeps): Express {
  const options = {
    logger: deps.logger,
    metrics: deps.metrics,
    protection: deps.config.protection,
    rateLimitStore: deps.redis && { redis: deps.redis, keyPrefix: "rl:pricing-api" },
    renderError: renderPricingError,
    bodyParsers: [{ paths: LARGE_BODY_PATHS, parser: largeJsonBody(USAGE_BODY_LIMIT_BYTES, "8 MiB") }],
  };
  return serviceApp(options, (app) => {
    app.use(apiRouter(deps));
    app.use(deps.metrics.router());
    app.use(apiDocsRouter(pricingApiDocument(), "Cloud cost pricing API"));
  });
}
