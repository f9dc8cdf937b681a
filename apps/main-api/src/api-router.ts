import { Router } from "express";
import { mainApiRoutes, type RouteDefinition } from "@cloudcost/contracts";
import { registerRoutes, type RouteHooks } from "@cloudcost/http";
import { apiKeyHandlers, keyCreationReplay } from "./api-keys/routes";
import { authenticate } from "./auth/middleware";
import { computeHandlers } from "./compute/routes";
import type { AppDeps } from "./deps";
import { healthHandlers } from "./health/routes";
import { idempotent } from "./http/idempotency";
import { invitationHandlers, receivedInvitationHandlers } from "./invitations/routes";
import { meHandlers } from "./organizations/me-routes";
import { organizationHandlers } from "./organizations/routes";
import { signupHandlers } from "./signup/routes";
import { spendHandlers } from "./spend/routes";
import { spendImportHandlers } from "./spend/imports/routes";
import { requireTenant } from "./tenancy/require-tenant";
import { userHandlers } from "./users/routes";
import { webhookCreationReplay, webhookHandlers } from "./webhooks/routes";
import { budgetHandlers } from "./budgets/routes";
import { anomalyHandlers } from "./anomalies/routes";

/**
 * How the main API runs a declared operation's auth mode, scope and idempotency. Organization- and
 * caller-scoped operations have no authorize step: their services take the caller's Principal and
 * decide (principalOf answers an identity without an active user 403, after validation).
 */
function hooks(deps: AppDeps): RouteHooks {
  // `authenticate` refuses no verified identity: "bearer" and "identity" differ in what the handler
  // then asks for (principalOf, or the identity itself).
  const authenticated = authenticate(deps);
  const byCaller = idempotent(deps);
  const byIdentity = idempotent(deps, "identity");
  const secret = idempotent(deps, "principal", {
    secretResponse: (req) => (req.path.endsWith("/webhooks") ? webhookCreationReplay() : keyCreationReplay()),
  });
  return {
    authenticate: { bearer: authenticated, identity: authenticated },
    authorize: (route: RouteDefinition) =>
      route.scope === "tenant" ? requireTenant({ write: route.write, roles: route.roles ? [...route.roles] : undefined }) : undefined,
    // Identity-token operations key by the identity: after sign-up or an acceptance it resolves to a user, and a repeat must still replay.
    idempotency: (route: RouteDefinition) => (route.idempotent === "secret" ? secret : route.auth === "identity" ? byIdentity : byCaller),
  };
}

/** Every operation of the main API's route table, bound to its handler. */
export function apiRouter(deps: AppDeps): Router {
  const router = Router();
  registerRoutes(
    router,
    mainApiRoutes,
    {
      ...healthHandlers(deps.db),
      ...signupHandlers(deps),
      ...meHandlers(deps),
      ...organizationHandlers(deps),
      ...userHandlers(deps),
      ...invitationHandlers(deps),
      ...receivedInvitationHandlers(deps),
      ...apiKeyHandlers(deps),
      ...computeHandlers(deps),
      ...spendHandlers(deps),
      ...spendImportHandlers(deps),
      ...webhookHandlers(deps),
      ...budgetHandlers(deps),
      ...anomalyHandlers(deps),
    },
    hooks(deps),
  );
  return router;
}
