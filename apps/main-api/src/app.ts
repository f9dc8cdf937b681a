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
import { apiDocsRouter, mainApiDocument } from "@cloudcost/openapi";
import type { Config } from "./config";
import type { Prisma } from "./db";
import { renderEnvelopeError } from "./errors";
import { computeRoutes } from "./compute/routes";
import { healthRoutes } from "./health/routes";
import { jwksRoutes } from "./auth/jwks-routes";
import { authenticate } from "./auth/middleware";
import { idempotent } from "./http/idempotency";
import { signupRoutes } from "./signup/routes";
import { receivedInvitationRoutes } from "./invitations/routes";
import { apiKeyRoutes, keyCreationReplay } from "./api-keys/routes";
import { meRoutes } from "./organizations/me-routes";
import { organizationRoutes } from "./organizations/routes";
import { createOutboxWorker, type OutboxWorker } from "./outbox";

export interface AppDeps {
  config: Config;
  db: Database;
  prisma: Prisma;
  logger: Logger;
  metrics?: Metrics;
  /** Delivers outbox messages (pricing API key sync); built here when not given, started by the server (routes only kick it). */
  outbox?: OutboxWorker;
}

export function createApp(appDeps: AppDeps): Express {
  // One registry for the app and everything it builds (routes, analyzer), unless the caller gave one.
  // One outbox worker for every route that writes messages (key changes, user changes).
  const deps = { ...appDeps, metrics: appDeps.metrics ?? createMetrics("main-api"), outbox: appDeps.outbox ?? createOutboxWorker(appDeps) };
  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", deps.config.protection.trustProxy);
  app.set("query parser", "extended");
  const { metrics } = deps;
  app.use(requestId());
  app.use(metrics.middleware());
  app.use(httpLogger(deps.logger));
  app.use(protections(deps.config.protection));
  app.use(jsonBody());

  app.use(healthRoutes(deps.db));
  app.use(apiDocsRouter(mainApiDocument(), "Cloud cost main API"));
  app.use(jwksRoutes(deps.config.auth));

  // Identity and organization management. Each router sits behind its own authenticate, so an
  // unknown path elsewhere still answers 404.
  app.use("/api/v1/signup", signupRoutes(deps));
  app.use("/api/v1/organizations", authenticate(deps), idempotent(deps), organizationRoutes(deps));
  app.use("/api/v1/invitations", authenticate(deps, { allowIdentityOnly: true }), idempotent(deps, "identity"), receivedInvitationRoutes(deps));
  app.use("/api/v1/me", authenticate(deps), meRoutes(deps));
  app.use("/api/v1/settings/api-keys", authenticate(deps), idempotent(deps, "principal", { secretResponse: keyCreationReplay }), apiKeyRoutes(deps, deps.outbox));
  app.use(computeRoutes(deps));

  app.use(notFoundHandler(renderEnvelopeError));
  app.use(errorHandler(renderEnvelopeError, deps.logger));
  return app;
}
