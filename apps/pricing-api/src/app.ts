import { Router, type Express } from "express";
import {
  pricingAccountRoutes,
  pricingApiRoutes,
  pricingCommitmentRateRoutes,
  pricingComputePriceRoutes,
  pricingComputeRoutes,
  pricingDatabaseRoutes,
  pricingHealthRoutes,
  pricingInternalRoutes,
  pricingModelRoutes,
  pricingReferenceRoutes,
  pricingUsageRoutes,
  type RouteDefinition,
} from "@cloudcost/contracts";
import { bindSlice, expressPath, largeJsonBody, registerSlices, serviceApp, type SliceBinding } from "@cloudcost/http";
import { apiDocsRouter, pricingApiDocument } from "@cloudcost/openapi";
import { accountHandlers } from "./account/handlers";
import { authorize } from "./auth/authorize";
import { requireApiKey } from "./auth/authenticate";
import { commitmentRateHandlers } from "./commitment-rates/handlers";
import { commitmentRateRepository } from "./commitment-rates/repository";
import { createCommitmentRateService } from "./commitment-rates/service";
import { computeHandlers } from "./compute/handlers";
import { computePriceHandlers } from "./compute-prices/handlers";
import { databaseHandlers } from "./databases/handlers";
import type { AppDeps } from "./deps";
import { renderPricingError } from "./errors";
import { healthHandlers } from "./health/handlers";
import { idempotent } from "./idempotency";
import { internalHandlers } from "./internal/handlers";
import { requireServiceToken } from "./internal/service-token";
import { modelHandlers } from "./models/handlers";
import { referenceHandlers } from "./references/handlers";
import { usageHandlers } from "./usage/handlers";

const operations: RouteDefinition[] = Object.values(pricingApiRoutes);
/**
 * Paths of the operations that accept more than the 1 MiB default body: usage bodies (POST
 * /v1/pricing/usage and /v1/pricing/reports) may carry 10000 lines, which do not fit in 1 MiB (a
 * labelled line is ~170 bytes); they get 8 MiB, parsed before the app-wide parser, which then skips them.
 */
const LARGE_BODY_PATHS = operations.filter((route) => route.bodyLimit).map((route) => expressPath(route.path));
const USAGE_BODY_LIMIT_BYTES = 8 * 1024 * 1024;

/**
 * Each domain's slice of the route table (`@cloudcost/contracts`, `pricing/<domain>/routes.ts`) with
 * the handlers of its folder (`<domain>/handlers.ts`): adding an operation touches those two.
 */
export function pricingApiBindings(deps: AppDeps): SliceBinding[] {
  const labelled = { prisma: deps.prisma, labelPrefix: deps.config.labelPrefix };
  const { negotiated } = deps;
  // The public operations and the internal listing (the main API's) share one service.
  const commitmentRates = createCommitmentRateService({ prisma: deps.prisma, rates: commitmentRateRepository });
  return [
    bindSlice(pricingComputeRoutes, computeHandlers(deps.computeCatalog, negotiated)),
    bindSlice(pricingAccountRoutes, accountHandlers()),
    bindSlice(pricingModelRoutes, modelHandlers(deps)),
    bindSlice(pricingDatabaseRoutes, databaseHandlers(deps)),
    bindSlice(pricingComputePriceRoutes, computePriceHandlers({ prisma: deps.prisma, negotiated })),
    bindSlice(pricingCommitmentRateRoutes, commitmentRateHandlers(commitmentRates)),
    bindSlice(pricingReferenceRoutes, referenceHandlers(labelled)),
    bindSlice(pricingUsageRoutes, usageHandlers(labelled)),
    bindSlice(pricingHealthRoutes, healthHandlers(deps.db, deps.computeCatalog)),
    bindSlice(
      pricingInternalRoutes,
      internalHandlers({ apiKeys: deps.apiKeys, computeCatalog: deps.computeCatalog, negotiated, commitmentRates, ...labelled }),
    ),
  ];
}

/**
 * Every declared operation of the pricing API (the public ones and /internal), bound to its handler:
 * refuses to start unless the bindings bind each operation of the table exactly once.
 */
function apiRouter(deps: AppDeps, bindings: readonly SliceBinding[]): Router {
  const router = Router();
  const idempotency = idempotent(deps);
  registerSlices(router, pricingApiRoutes, bindings, {
    // A service token is signed for the one request (method and path) and accepted once.
    authenticate: { api_key: requireApiKey(deps.apiKeys), service: requireServiceToken({ secret: deps.serviceSecret, jtis: deps.serviceTokenJtis }) },
    authorize: (route, req) => authorize(route, req.auth),
    idempotency: () => idempotency,
  });
  return router;
}

/** The pricing API's Express app over `deps` (built once by compose.ts). */
export function createApp(deps: AppDeps, bindings: readonly SliceBinding[] = pricingApiBindings(deps)): Express {
  const options = {
    logger: deps.logger,
    metrics: deps.metrics,
    protection: deps.config.protection,
    rateLimitStore: deps.redis && { redis: deps.redis, keyPrefix: "rl:pricing-api" },
    renderError: renderPricingError,
    bodyParsers: [{ paths: LARGE_BODY_PATHS, parser: largeJsonBody(USAGE_BODY_LIMIT_BYTES, "8 MiB") }],
  };
  return serviceApp(options, (app) => {
    app.use(apiRouter(deps, bindings));
    app.use(deps.metrics.router());
    app.use(apiDocsRouter(pricingApiDocument(), "Cloud cost pricing API"));
  });
}
