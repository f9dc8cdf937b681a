import { Router, type Express } from "express";
import { serviceApp } from "@cloudcost/http";
import { apiDocsRouter, mainApiDocument } from "@cloudcost/openapi";
import { apiRouter } from "./api-router";
import { devTokenRoutes } from "./auth/dev-token-routes";
import { jwksRoutes } from "./auth/jwks-routes";
import type { AppDeps } from "./deps";
import { renderEnvelopeError } from "./errors";
import { largeJsonBodies } from "./http/large-body";

/** The main API's Express app over `deps` (built once by compose.ts): the route table's operations, then tooling. */
export function createApp(deps: AppDeps): Express {
  const options = {
    logger: deps.logger,
    metrics: deps.metrics,
    protection: deps.config.protection,
    rateLimitStore: deps.redis && { redis: deps.redis, keyPrefix: "rl:main-api" },
    renderError: renderEnvelopeError,
    bodyParsers: largeJsonBodies(),
  };
  return serviceApp(options, (app) => {
    app.use(apiRouter(deps, Router()));
    app.use(deps.metrics.router());
    app.use(apiDocsRouter(mainApiDocument(), "Cloud cost main API"));
    app.use(jwksRoutes(deps.devIssuerKey));
    app.use(devTokenRoutes(deps.devIssuerKey));
  });
}
