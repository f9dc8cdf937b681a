import {
  mainApiAnomalyRoutes,
  mainApiApiKeyRoutes,
  mainApiBudgetRoutes,
  mainApiBusinessMetricRoutes,
  mainApiCommitmentRoutes,
  mainApiComputeRoutes,
  mainApiDimensionRoutes,
  mainApiHealthRoutes,
  mainApiInvitationRoutes,
  mainApiKubernetesRoutes,
  mainApiMeRoutes,
  mainApiOrganizationRoutes,
  mainApiRoutes,
  mainApiSettingsRoutes,
  mainApiSignupRoutes,
  mainApiSpendImportRoutes,
  mainApiSpendRoutes,
  mainApiStatementRoutes,
  mainApiTenantRoutes,
  mainApiUserRoutes,
  mainApiWebhookRoutes,
  type RouteDefinition,
  type RouteTable,
} from "@cloudcost/contracts";
import { admitHook, bindSlice, registerSlices, type RouteHooks, type SliceBinding } from "@cloudcost/http";
import { anomalyHandlers } from "./anomalies/handlers";
import { apiKeyHandlers, keyCreationReplay } from "./api-keys/handlers";
import { bearerAuthentication } from "./auth/authenticate";
import { authorize, checkDeclaredScope } from "./auth/authorize";
import { budgetHandlers } from "./budgets/handlers";
import { statementHandlers } from "./statements/handlers";
import { businessMetricHandlers } from "./business-metrics/handlers";
import { commitmentHandlers } from "./commitments/handlers";
import { computeHandlers } from "./compute/handlers";
import type { AppDeps } from "./deps";
import { healthHandlers } from "./health/handlers";
import { admissionClassOf } from "./http/admission";
import { idempotent } from "./http/idempotency";
import { invitationHandlers } from "./invitations/handlers";
import { kubernetesHandlers } from "./kubernetes/handlers";
import { meHandlers } from "./me/handlers";
import { organizationHandlers } from "./organizations/handlers";
import { settingsHandlers } from "./settings/handlers";
import { signupHandlers } from "./signup/handlers";
import { spendImportHandlers } from "./spend/imports/handlers";
import { spendHandlers } from "./spend/handlers";
import { tenantHeaderValue } from "./tenancy/tenant-header";
import { tenantHandlers } from "./tenants/handlers";
import { userHandlers } from "./users/handlers";
import { dimensionHandlers } from "./dimensions/handlers";
import { webhookCreationReplay, webhookHandlers } from "./webhooks/handlers";

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

type Router = Parameters<typeof registerSlices>[0];

/**
 * Each domain's slice of the route table (`@cloudcost/contracts`, `main/<domain>/routes.ts`) with
 * the handlers of its app folder (`<domain>/handlers.ts`): adding an operation touches those two.
 */
export function mainApiBindings(deps: AppDeps): SliceBinding[] {
  return [
    bindSlice(mainApiSignupRoutes, signupHandlers(deps)),
    bindSlice(mainApiMeRoutes, meHandlers(deps)),
    bindSlice(mainApiOrganizationRoutes, organizationHandlers(deps)),
    bindSlice(mainApiSettingsRoutes, settingsHandlers(deps)),
    bindSlice(mainApiTenantRoutes, tenantHandlers(deps)),
    bindSlice(mainApiUserRoutes, userHandlers(deps)),
    bindSlice(mainApiInvitationRoutes, invitationHandlers(deps)),
    bindSlice(mainApiApiKeyRoutes, apiKeyHandlers(deps)),
    bindSlice(mainApiWebhookRoutes, webhookHandlers(deps)),
    bindSlice(mainApiHealthRoutes, healthHandlers(deps.db)),
    bindSlice(mainApiCommitmentRoutes, commitmentHandlers(deps)),
    bindSlice(mainApiKubernetesRoutes, kubernetesHandlers(deps)),
    bindSlice(mainApiBudgetRoutes, budgetHandlers(deps)),
    bindSlice(mainApiAnomalyRoutes, anomalyHandlers(deps)),
    bindSlice(mainApiDimensionRoutes, dimensionHandlers(deps)),
    bindSlice(mainApiBusinessMetricRoutes, businessMetricHandlers(deps)),
    bindSlice(mainApiStatementRoutes, statementHandlers(deps)),
    bindSlice(mainApiComputeRoutes, computeHandlers(deps)),
    bindSlice(mainApiSpendRoutes, spendHandlers(deps)),
    bindSlice(mainApiSpendImportRoutes, spendImportHandlers(deps)),
  ];
}

/**
 * Every operation of the main API's route table, bound to its handler on `router`: refuses to start
 * unless the bindings bind each operation exactly once, or a declared scope cannot be checked.
 */
export function apiRouter(deps: AppDeps, router: Router, bindings: readonly SliceBinding[] = mainApiBindings(deps), table: RouteTable = mainApiRoutes): Router {
  for (const route of Object.values(table)) checkDeclaredScope(route);
  registerSlices(router, table, bindings, mainApiHooks(deps));
  return router;
}
