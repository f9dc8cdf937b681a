import { Router, type Request, type RequestHandler, type Response } from "express";
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
import type { AppDeps } from "../app";
import { authenticate } from "../auth/middleware";
import { idempotent } from "../http/idempotency";
import { requireTenant } from "../tenancy/require-tenant";
import { AnalysisBusyError, createAnalyzer, type Analyzer } from "./analysis";
import { ingestMetrics, recordHeartbeats, sampleBatch, upsertResources, type TenantRef } from "./inventory-service";
import { createPricingClient, PricingUnavailableError } from "./pricing-client";
import { resolvePricingKey } from "./pricing-key";
import { instrumentAnalyzer, instrumentPricing } from "./instrumentation";
import { loadComputeSettings } from "./settings";
import { listRecommendations, recommendationSummary } from "./summary";

const analyzers = new WeakMap<AppDeps["prisma"], Analyzer>();

/** One analyzer per app (its in-process guard and pricing cache are shared with the schedule). */
export function analyzerFor(deps: Pick<AppDeps, "prisma" | "db" | "logger" | "config" | "metrics">): Analyzer {
  let analyzer = analyzers.get(deps.prisma);
  if (!analyzer) {
    const pricingKey = resolvePricingKey(deps.config);
    const pricing = createPricingClient({
      baseUrl: deps.config.pricingApiUrl,
      apiKey: pricingKey.key,
      onUnauthorized: () => pricingKey.provision(),
      timeoutMs: deps.config.pricingApiTimeoutMs,
      logger: deps.logger,
    });
    const measured = deps.metrics ? instrumentPricing(pricing, deps.metrics) : pricing;
    analyzer = createAnalyzer({
      prisma: deps.prisma,
      db: deps.db,
      logger: deps.logger,
      pricing: measured,
      tailMarginMs: deps.config.analysisTailMarginMs,
    });
    if (deps.metrics) analyzer = instrumentAnalyzer(analyzer, deps.metrics);
    analyzers.set(deps.prisma, analyzer);
  }
  return analyzer;
}

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
const ok = (res: Response, message: string, data: unknown) => res.status(200).json({ message, status: "success", data });

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
    ok(res, `Upserted ${upserted} resources`, { upserted });
  });

  router.post("/api/v1/tenant/compute/metrics", auth, idem, validate(IngestMetricsRequest, "body"), writer, async (req, res) => {
    const batch = sampleBatch((res.locals.input as IngestMetricsRequest).samples);
    // Nothing reads the parsed body past this point; dropped, it is not copied by the collections
    // that run while the statement does (SampleBatch says why that matters).
    req.body = res.locals.input = undefined;
    const accepted = await ingestMetrics(deps.db.sql, tenantOf(req), batch);
    ok(res, `Accepted ${accepted} samples`, { accepted });
  });

  router.post("/api/v1/tenant/compute/heartbeats", auth, idem, validate(HeartbeatsRequest, "body"), writer, async (req, res) => {
    const accepted = await recordHeartbeats(deps.prisma, tenantOf(req), res.locals.input as HeartbeatsRequest);
    ok(res, `Recorded ${accepted} heartbeats`, { accepted });
  });

  router.post("/api/v1/tenant/compute/recommendations/analyze", auth, idem, manager, async (req, res) => {
    const tenant = tenantOf(req);
    try {
      const settings = await loadComputeSettings(deps.prisma, tenant.organizationId);
      const result = await analyzerFor(deps).analyzeTenant(tenant, settings);
      const data: AnalyzeResponse = { analyzed_resources: result.analyzedResources, duration_ms: result.durationMs };
      ok(res, `Analyzed ${data.analyzed_resources} resources`, data);
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
    ok(res, "Compute recommendation summary", summary);
  });

  router.get("/api/v1/tenant/compute/recommendations", auth, validate(RecommendationsQuery, "query"), reader, async (req, res) => {
    const page = await listRecommendations(deps.prisma, tenantOf(req), res.locals.input as RecommendationsQuery);
    ok(res, `${page.items.length} recommendations`, page);
  });

  return router;
}
