import type { mainApiAnomalyRoutes } from "@cloudcost/contracts";
import type { AppDeps } from "../deps";
import { success } from "../http/envelope";
import type { Handlers } from "../operations";
import { anomalyServiceOver } from "./service";

/** `/api/v1/tenant/spend/anomalies` (authorize selected the tenant and checked the role). */
export function anomalyHandlers(deps: Pick<AppDeps, "prisma" | "outbox">): Handlers<keyof typeof mainApiAnomalyRoutes> {
  const { outbox } = deps;
  const anomalies = anomalyServiceOver(deps.prisma);
  return {
    detectAnomalies: async ({ body }, { tenant }) => {
      const result = await anomalies.detectTenantAnomalies(tenant, body);
      if (result.detected > 0) outbox.kick();
      return success(`${result.detected} new anomalies.`, result);
    },
    listAnomalies: async ({ query }, { tenant }) => success("Anomalies of the tenant.", await anomalies.listAnomalies(tenant, query)),
    updateAnomaly: async ({ params, body }, { tenant }) => success("Feedback recorded.", await anomalies.setAnomalyFeedback(tenant, params.id, body.feedback)),
  };
}
