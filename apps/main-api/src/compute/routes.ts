import { Router, type Request, type RequestHandler } from "express";
import {
  HeartbeatsRequest,
  IngestMetricsRequest,
  RecommendationsQuery,
  SummaryQuery,
  UpsertResourcesRequest,
  type AnalyzeResponse,
} from "@cloudcost/contracts";
import { conflict, HttpError, parseOr400 } from "@cloudcost/http";
import type { z } from "zod";
import { authenticate } from "../auth/middleware";
import type { AppDeps } from "../deps";
import { sendData } from "../http/envelope";
import { idempotent } from "../http/idempotency";
import { requireTenant } from "../tenancy/require-tenant";
import { AnalysisBusyError } from "./analysis";
import { ingestMetrics, recordHeartbeats, sampleBatch, upsertResources, type TenantRef } from "./inventory-service";
import { PricingUnavailableError } from "./pricing-client";
import { loadComputeSettings } from "./settings";
import { listRecommendations, recommendationSummary } from "./summary";

/** Validates body or query with a contract schema (400 before any tenant decision) into res.locals.input. */
const validate =
  (schema: z.ZodType, source: "body" | "query"): RequestHandler =>
  (req, res, next) => {
    res.locals.input = parseOr400(schema, source === "body" ? req.body : req.query, source === "body" ? "body" : "query");
    next();
  };

const tenantOf = (req: Request): TenantRef => {
  if (!req.tenant) throw new Error("requireTenant did not run before a compute handler");
  return { id: req.tenant.id, organizationId: req.tenant.organizationId };
};

export function computeRoutes(deps: AppDeps): Router {
  const router = Router();
  const auth = authenticate(deps);
  const idem = idempotent(deps);
  const reader = requireTenant();
  const writer = requireTenant({ write: true });
  const manager = requireTenant({ write: true, roles: ["owner", "admin"] });

  router.put("/api/v1/tenant/compute/resources", auth, validate(UpsertResourcesRequest, "body"), writer, async (req, res) => {
    const { resources } = res.locals.input as UpsertResourcesRequest;
    const upserted = await upsertResources(deps.prisma, tenantOf(req), resources);
    sendData(res, { upserted }, `Upserted ${upserted} resources`);
  });

  router.post("/api/v1/tenant/compute/metrics", auth, idem, validate(IngestMetricsRequest, "body"), writer, async (req, res) => {
    const batch = sampleBatch((res.locals.input as IngestMetricsRequest).samples);
    // Nothing reads the parsed body past this point; dropped, it is not copied by the collections
    // that run while the statement does (SampleBatch says why that matters).
    req.body = res.locals.input = undefined;
    const accepted = await ingestMetrics(deps.db.sql, tenantOf(req), batch);
    sendData(res, { accepted }, `Accepted ${accepted} samples`);
  });

  router.post("/api/v1/tenant/compute/heartbeats", auth, idem, validate(HeartbeatsRequest, "body"), writer, async (req, res) => {
    const accepted = await recordHeartbeats(deps.prisma, tenantOf(req), res.locals.input as HeartbeatsRequest);
    sendData(res, { accepted }, `Recorded ${accepted} heartbeats`);
  });

  router.post("/api/v1/tenant/compute/recommendations/analyze", auth, idem, manager, async (req, res) => {
    const tenant = tenantOf(req);
    try {
      const settings = await loadComputeSettings(deps.prisma, tenant.organizationId);
      const result = await deps.analyzer.analyzeTenant(tenant, settings);
      const data: AnalyzeResponse = { analyzed_resources: result.analyzedResources, duration_ms: result.durationMs };
      sendData(res, data, `Analyzed ${data.analyzed_resources} resources`);
    } catch (err) {
      if (err instanceof AnalysisBusyError) throw conflict("An analysis cycle of this tenant is already running; retry when it has finished");
      if (err instanceof PricingUnavailableError) {
        throw new HttpError(503, "pricing_unavailable", "The pricing API is unavailable, so no analysis ran; the previous recommendations are kept");
      }
      throw err;
    }
  });

  router.get("/api/v1/tenant/compute/recommendations/summary", auth, validate(SummaryQuery, "query"), reader, async (req, res) => {
    const summary = await recommendationSummary(deps.prisma, tenantOf(req), res.locals.input as SummaryQuery);
    sendData(res, summary, "Compute recommendation summary");
  });

  router.get("/api/v1/tenant/compute/recommendations", auth, validate(RecommendationsQuery, "query"), reader, async (req, res) => {
    const page = await listRecommendations(deps.prisma, tenantOf(req), res.locals.input as RecommendationsQuery);
    sendData(res, page, `${page.items.length} recommendations`);
  });

  return router;
}
