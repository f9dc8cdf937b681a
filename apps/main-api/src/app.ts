import type { Express } from "express";
import { serviceApp } from "@cloudcost/http";
import { apiDocsRouter, mainApiDocument } from "@cloudcost/openapi";
import { apiKeyRoutes, keyCreationReplay } from "./api-keys/routes";
import { jwksRoutes } from "./auth/jwks-routes";
import { authenticate } from "./auth/middleware";
import { computeRoutes } from "./compute/routes";
import type { AppDeps } from "./deps";
import { renderEnvelopeError } from "./errors";
import { healthRoutes } from "./health/routes";
import { idempotent } from "./http/idempotency";
import { receivedInvitationRoutes } from "./invitations/routes";
import { meRoutes } from "./organizations/me-routes";
import { organizationRoutes } from "./organizations/routes";
import { signupRoutes } from "./signup/routes";

/** The main API's Express app over `deps` (built once by compose.ts). Metrics are served by serve() on a port of their own. */
export function createApp(deps: AppDeps): Express {
  return serviceApp({ logger: deps.logger, metrics: deps.metrics, protection: deps.config.protection, renderError: renderEnvelopeError }, (app) => {
    app.use(healthRoutes(deps.db));
    app.use(deps.metrics.router());
    app.use(apiDocsRouter(mainApiDocument(), "Cloud cost main API"));
    app.use(jwksRoutes(deps.devIssuerKey));

    // Identity and organization management. Each router sits behind its own authenticate, so an
    // unknown path elsewhere still answers 404.
    app.use("/api/v1/signup", signupRoutes(deps));
    app.use("/api/v1/organizations", authenticate(deps), idempotent(deps), organizationRoutes(deps));
    app.use("/api/v1/invitations", authenticate(deps), idempotent(deps, "identity"), receivedInvitationRoutes(deps));
    app.use("/api/v1/me", authenticate(deps), meRoutes(deps));
    app.use("/api/v1/settings/api-keys", authenticate(deps), idempotent(deps, "principal", { secretResponse: keyCreationReplay }), apiKeyRoutes(deps));
    app.use(computeRoutes(deps));
  });
}
