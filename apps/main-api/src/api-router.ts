import { mainApiRoutes, type RouteDefinition } from "@cloudcost/contracts";
import { admitHook, registerRoutes, type RouteHooks } from "@cloudcost/http";
import { apiKeyHandlers, keyCreationReplay } from "./api-keys/routes";
import { bearerAuthentication } from "./auth/authenticate";
import { authorize, checkDeclaredScope } from "./auth/authorize";
import { computeHandlers } from "./compute/routes";
import type { AppDeps } from "./deps";
import { healthHandlers } from "./health/routes";
import { admissionClassOf } from "./http/admission";
import { idempotent } from "./http/idempotency";
import { invitationHandlers, receivedInvitationHandlers } from "./invitations/routes";
import { meHandlers } from "./organizations/me-routes";
import { organizationHandlers } from "./organizations/routes";
import { signupHandlers } from "./signup/routes";
import { spendHandlers } from "./spend/routes";
import { spendImportHandlers } from "./spend/imports/routes";
import { tenantHeaderValue } from "./tenancy/tenant-header";
import { userHandlers } from "./users/routes";
import { webhookCreationReplay, webhookHandlers } from "./webhooks/routes";
import { budgetHandlers } from "./budgets/routes";
import { commitmentHandlers } from "./commitments/routes";
import { anomalyHandlers } from "./anomalies/routes";
import { kubernetesHandlers } from "./kubernetes/routes";

/**
 * How the main API runs a declared operation's auth mode, scope and idempotency (what the binder
 * calls with the request). Handlers get the context authorize builds, never the request.
 */
export function mainApiHooks(deps: AppDeps): RouteHooks {
  const authenticated = bearerAuthentication(deps);
  const byCaller = idempotent(deps);
  const byIdentity = idempotent(deps, "identity");
  // A raw body (a FOCUS file) is fingerprinted by its handler once received; its JSON alternative (a manifest) as any JSON body.
  const byCallerRawBody = idempotent(deps, "principal", { rawBody: (req) => !req.is("application/json"), withQuery: true });
  // What a repeat of each operation whose answer holds a secret is told (the answer is never stored); one for each such operation.
  const withheld: Record<string, string> = { createApiKey: keyCreationReplay(), createWebhook: webhookCreationReplay() };
  const secret = (route: RouteDefinition) => {
    const message = withheld[route.operationId];
    if (!message) throw new Error(`${route.operationId}: an answer with a secret needs the message its repeat is told`);
    return idempotent(deps, "principal", { secretResponse: () => message });
  };
  return {
    authenticate: { bearer: authenticated, identity: authenticated },
    authorize: (route, req, input) => authorize(route, req.caller, tenantHeaderValue(req.headers), input.params),
    // Identity-token operations key by the identity: after sign-up or an acceptance it resolves to a user, and a repeat must still replay.
    idempotency: (route: RouteDefinition) =>
      route.idempotent === "secret" ? secret(route) : route.auth === "identity" ? byIdentity : route.rawBody ? byCallerRawBody : byCaller,
    // Per class of operations: a bounded number at once, a bounded wait, then 503 (http/admission.ts).
    admit: admitHook(deps.admission, admissionClassOf),
  };
}

type Router = Parameters<typeof registerRoutes>[0];

/** Every operation of the main API's route table, bound to its handler on `router`. */
export function apiRouter(deps: AppDeps, router: Router): Router {
  // A scope authorize could not check refuses to start.
  for (const route of Object.values(mainApiRoutes)) checkDeclaredScope(route);
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
      ...commitmentHandlers(deps),
      ...anomalyHandlers(deps),
      ...kubernetesHandlers(deps),
    },
    mainApiHooks(deps),
  );
  return router;
}
