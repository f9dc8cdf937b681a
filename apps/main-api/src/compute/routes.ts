import type { Request } from "express";
import type { mainApiComputeRoutes } from "@cloudcost/contracts";
import { conflict, HttpError, releaseBody } from "@cloudcost/http";
import type { AppDeps } from "../deps";
import { success as ok } from "../http/envelope";
import type { Handlers } from "../operations";
import { AnalysisBusyError } from "./analysis";
import { ingestMetrics, recordHeartbeats, sampleBatch, upsertResources, type TenantRef } from "./inventory-service";
import { PricingUnavailableError } from "./catalog-prices";
import { loadComputeSettings } from "./settings";
import { listRecommendations, recommendationSummary } from "./summary";

const tenantOf = (req: Request): TenantRef => {
  if (!req.tenant) throw new Error("requireTenant did not run before a compute handler");
  return { id: req.tenant.id, organizationId: req.tenant.organizationId };
};

type ComputeOperations = keyof typeof mainApiComputeRoutes;

/** The compute operations of one tenant (requireTenant, the router's authorize step, selected the tenant). */
export function computeHandlers(deps: Pick<AppDeps, "prisma" | "db" | "analyzer">): Handlers<ComputeOperations> {
  return {
    upsertResources: async ({ body }, req) => {
      const upserted = await upsertResources(deps.prisma, tenantOf(req), body.resources);
      return ok(`Upserted ${upserted} resources`, { upserted });
    },
    ingestMetrics: async (input, req) => {
      const batch = sampleBatch(input.body.samples);
      // Nothing reads the parsed body past this point; dropped, it is not copied by the collections
      // that run while the statement does (SampleBatch says why that matters).
      releaseBody(input, req);
      const accepted = await ingestMetrics(deps.db.sql, tenantOf(req), batch);
      return ok(`Accepted ${accepted} samples`, { accepted });
    },
    recordHeartbeats: async ({ body }, req) => {
      const accepted = await recordHeartbeats(deps.prisma, tenantOf(req), body);
      return ok(`Recorded ${accepted} heartbeats`, { accepted });
    },
    analyzeRecommendations: async (_input, req) => {
      const tenant = tenantOf(req);
      try {
        const settings = await loadComputeSettings(deps.prisma, tenant.organizationId);
        const result = await deps.analyzer.analyzeTenant(tenant, settings);
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
    getRecommendationSummary: async ({ query }, req) => ok("Compute recommendation summary", await recommendationSummary(deps.prisma, tenantOf(req), query)),
    listRecommendations: async ({ query }, req) => {
      const page = await listRecommendations(deps.prisma, tenantOf(req), query);
      return ok(`${page.items.length} recommendations`, page);
    },
  };
}
