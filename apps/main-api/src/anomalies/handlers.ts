import type { mainApiAnomalyRoutes } from "@cloudcost/contracts";
import type { AppDeps } from "../deps";
import { success } from "../http/envelope";
import type { Handlers } from "../operations";
import { detectTenantAnomalies, listAnomalies, setAnomalyFeedback } from "./service";

/** `/api/v1/tenant/spend/anomalies` (authorize selected the tenant and checked the role). */
export function anomalyHandlers(deps: Pick<AppDeps, "prisma" | "outbox">): Handlers<keyof typeof mainApiAnomalyRoutes> {
  const { prisma, outbox } = deps;
  return {
    detectAnomalies: async ({ body }, { tenant }) => {
      const result = await detectTenantAnomalies(prisma, tenant, body);
      if (result.detected > 0) outbox.kick();
      return success(`${result.detected} new anomalies.`, result);
    },
    listAnomalies: async ({ query }, { tenant }) => success("Anomalies of the tenant.", await listAnomalies(prisma, tenant, query)),
    updateAnomaly: async ({ params, body }, { tenant }) => success("Feedback recorded.", await setAnomalyFeedback(prisma, tenant, params.id, body.feedback)),
  };
}
