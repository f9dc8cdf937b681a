import { defineRoute, error } from "../declare.js";
import { PricingHealth, PricingReady } from "./schemas.js";

/** `/healthz` and `/readyz`: for load balancers and orchestrators, no credential. */
export const pricingHealthRoutes = {
  pricingHealthz: defineRoute({
    operationId: "pricingHealthz",
    method: "get",
    path: "/healthz",
    tags: ["Operations"],
    summary: "Process up",
    errors: "marketplace",
    auth: "none",
    scope: "none",
    responses: { 200: { description: "Up", schema: PricingHealth } },
  }),
  pricingReadyz: defineRoute({
    operationId: "pricingReadyz",
    method: "get",
    path: "/readyz",
    tags: ["Operations"],
    summary: "Database reachable, migrations applied, catalog loaded",
    errors: "marketplace",
    auth: "none",
    scope: "none",
    responses: { 200: { description: "Ready", schema: PricingReady }, 503: error("Not ready: what is missing") },
  }),
} as const;
