import type { mainApiComputeRoutes } from "@cloudcost/contracts";
import { conflict, HttpError, releaseBody } from "@cloudcost/http";
import type { AppDeps } from "../deps";
import { success as ok } from "../http/envelope";
import type { Handlers } from "../operations";
import { AnalysisBusyError } from "./analysis";
import { PricingUnavailableError } from "./catalog-prices";
import { sampleBatch } from "./inventory-service";
import { createComputeServices } from "./services";
import { loadComputeSettings } from "./settings";

/** `/api/v1/tenant/compute` (authorize selected the tenant and checked the role). */
export function computeHandlers(deps: Pick<AppDeps, "prisma" | "db" | "analyzer" | "vacuum">): Handlers<keyof typeof mainApiComputeRoutes> {
  const { prisma } = deps;
  const { inventory, recommendations, lifecycle, savings } = createComputeServices({ prisma, sql: deps.db.sql });
  return {
    upsertResources: async ({ body }, { tenant }) => {
      const upserted = await inventory.upsertResources(tenant, body.resources);
      deps.vacuum.noteWrites(upserted);
      return ok(`Upserted ${upserted} resources`, { upserted });
    },
    ingestMetrics: async (input, { tenant }) => {
      const batch = sampleBatch(input.body.samples);
      // Nothing reads the parsed body past this point; dropped, it is not copied by the collections
      // that run while the statement does (SampleBatch says why that matters).
      releaseBody(input);
      const accepted = await inventory.ingestMetrics(tenant, batch);
      // Each sample batch moves its resources' heartbeats (rows updated in place): where the database
      // has no autovacuum, a vacuum pass follows once enough of them add up (maintenance.ts).
      deps.vacuum.noteWrites(accepted);
      return ok(`Accepted ${accepted} samples`, { accepted });
    },
    recordHeartbeats: async ({ body }, { tenant }) => {
      const accepted = await inventory.recordHeartbeats(tenant, body);
      deps.vacuum.noteWrites(accepted);
      return ok(`Recorded ${accepted} heartbeats`, { accepted });
    },
    analyzeRecommendations: async (_input, { tenant }) => {
      try {
        const settings = await loadComputeSettings(prisma, tenant.organizationId);
        const result = await deps.analyzer.analyzeTenant(tenant, settings);
        // A cycle rewrites every resource's results row (and tail row).
        deps.vacuum.noteWrites(result.analyzedResources);
        return ok(`Analyzed ${result.analyzedResources} resources`, { analyzed_resources: result.analyzedResources, duration_ms: result.durationMs });
      } catch (err) {
        if (err instanceof AnalysisBusyError)
          throw conflict("An analysis cycle of this tenant is already running; retry when it has finished", "analysis_running");
        if (err instanceof PricingUnavailableError) {
          throw new HttpError("pricing_unavailable", "The pricing API is unavailable, so no analysis ran; the previous recommendations are kept");
        }
        throw err;
      }
    },
    getRecommendationSummary: async ({ query }, { tenant }) => ok("Compute recommendation summary", await recommendations.recommendationSummary(tenant, query)),
    listRecommendations: async ({ query }, { tenant }) => {
      const page = await recommendations.listRecommendations(tenant, query);
      return ok(`${page.items.length} recommendations`, page);
    },
    retireResource: async ({ params }, { tenant }) => {
      await lifecycle.retireResource(tenant, params.resource_id);
      return { status: 204 };
    },
    updateRecommendationState: async ({ params, body }, { tenant }) =>
      ok("Recommendation state recorded", await lifecycle.updateRecommendationState(tenant, params.resource_id, body)),
    getRealizedSavings: async ({ query }, { tenant }) => {
      const realized = await savings.realizedSavings(tenant, query);
      return ok(`${realized.items.length} changes after recommendations`, realized);
    },
  };
}
