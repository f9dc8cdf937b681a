import { mainApiSpendImportRoutes } from "./spend-imports/routes.js";
import { mainApiSpendRoutes } from "./spend/routes.js";
import { mainApiStatementRoutes } from "./statements/routes.js";
import { mainApiAnomalyRoutes } from "./anomalies/routes.js";
import { mainApiApiKeyRoutes } from "./api-keys/routes.js";
import { mainApiBudgetRoutes } from "./budgets/routes.js";
import { mainApiBusinessMetricRoutes } from "./business-metrics/routes.js";
import { mainApiCommitmentRoutes } from "./commitments/routes.js";
import { mainApiComputeRoutes } from "./compute/routes.js";
import { mainApiDimensionRoutes } from "./dimensions/routes.js";
import { mainApiHealthRoutes } from "./health/routes.js";
import { mainApiInvitationRoutes } from "./invitations/routes.js";
import { mainApiKubernetesRoutes } from "./kubernetes/routes.js";
import { mainApiMeRoutes } from "./me/routes.js";
import { mainApiOrganizationRoutes } from "./organizations/routes.js";
import { mainApiSettingsRoutes } from "./settings/routes.js";
import { mainApiSignupRoutes } from "./signup/routes.js";
import { mainApiTenantRoutes } from "./tenants/routes.js";
import { mainApiUserRoutes } from "./users/routes.js";
import { mainApiWebhookRoutes } from "./webhooks/routes.js";

/**
 * Every operation of the main API: the union of the domains' slices (`main/<domain>/routes.ts`).
 * Registered,
 * documented and tested from here; the order is the order of registration.
 */
export const mainApiRoutes = {
  ...mainApiSignupRoutes,
  ...mainApiMeRoutes,
  ...mainApiOrganizationRoutes,
  ...mainApiSettingsRoutes,
  ...mainApiTenantRoutes,
  ...mainApiUserRoutes,
  ...mainApiInvitationRoutes,
  ...mainApiApiKeyRoutes,
  ...mainApiComputeRoutes,
  ...mainApiSpendRoutes,
  ...mainApiSpendImportRoutes,
  ...mainApiHealthRoutes,
  ...mainApiWebhookRoutes,
  ...mainApiBudgetRoutes,
  ...mainApiAnomalyRoutes,
  ...mainApiCommitmentRoutes,
  ...mainApiKubernetesRoutes,
  ...mainApiDimensionRoutes,
  ...mainApiBusinessMetricRoutes,
  ...mainApiStatementRoutes,
} as const;
