import { Router, type Express } from "express";
import { serviceApp } from "@cloudcost/http";
import { apiDocsRouter, mainApiDocument } from "@cloudcost/openapi";
import { apiRouter } from "./api-router";
import { DEV_TOKEN_PATH, devJwks, devSignIn } from "./auth/dev-sign-in";
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
    const devKey = deps.devIssuerKey;
    // Development tooling outside the route table (absent when the development issuer is off).
    if (devKey) {
      app.get("/.well-known/jwks.json", (_req, res) => {
        res.set("Cache-Control", "public, max-age=300").json(devJwks(devKey));
      });
      app.post(DEV_TOKEN_PATH, async (req, res) => {
        const data = await devSignIn(devKey, { remoteAddress: req.socket.remoteAddress, headers: req.headers, body: req.body });
        res.set("Cache-Control", "no-store").json({ message: "Development token minted", status: "success", data });
      });
    }
  });
}
