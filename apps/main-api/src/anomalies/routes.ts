import { tenantOf } from "../budgets/routes";
import type { AppDeps } from "../deps";
import { success } from "../http/envelope";
import type { Handlers } from "../operations";
import { detectTenantAnomalies, listAnomalies, setAnomalyFeedback } from "./service";

/** `/api/v1/tenant/spend/anomalies` (requireTenant selected the tenant and checked the role). */
export function anomalyHandlers(deps: Pick<AppDeps, "prisma" | "outbox">): Handlers<"detectAnomalies" | "listAnomalies" | "updateAnomaly"> {
  const { prisma, outbox } = deps;
  return {
    detectAnomalies: async ({ body }, req) => {
      const result = await detectTenantAnomalies(prisma, tenantOf(req), body);
      if (result.detected > 0) outbox.kick();
      return success(`${result.detected} new anomalies.`, result);
    },
    listAnomalies: async ({ query }, req) => success("Anomalies of the tenant.", await listAnomalies(prisma, tenantOf(req), query)),
    updateAnomaly: async ({ params, body }, req) => success("Feedback recorded.", await setAnomalyFeedback(prisma, tenantOf(req), params.id, body.feedback)),
  };
}
