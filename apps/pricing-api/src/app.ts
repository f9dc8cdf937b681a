import type { Express } from "express";
import { serviceApp } from "@cloudcost/http";
import { apiDocsRouter, pricingApiDocument } from "@cloudcost/openapi";
import { accountRoutes } from "./auth/account-routes";
import { requireApiKey } from "./auth/middleware";
import { computeRoutes } from "./compute/routes";
import type { AppDeps } from "./deps";
import { renderPricingError } from "./errors";
import { healthRoutes } from "./health/routes";
import { idempotent } from "./idempotency";
import { internalRoutes } from "./internal/routes";
import { databaseRoutes } from "./marketplace/database-routes";
import { modelRoutes } from "./marketplace/model-routes";
import { pinRoutes, reportRoutes } from "./references/routes";
import { usageBody } from "./usage/body";
import { usageRoutes } from "./usage/routes";

/** The pricing API's Express app over `deps` (built once by compose.ts). Metrics are served by serve() on a port of their own. */
export function createApp(deps: AppDeps): Express {
  const { metrics, computeCatalog } = deps;
  const options = {
    logger: deps.logger,
    metrics,
    protection: deps.config.protection,
    renderError: renderPricingError,
    bodyParsers: [{ paths: ["/v1/pricing/usage", "/v1/pricing/reports"], parser: usageBody() }],
  };
  return serviceApp(options, (app) => {
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
    app.use("/internal", internalRoutes(deps.apiKeys, { secret: deps.serviceSecret, jtis: deps.serviceTokenJtis }));
  });
}
