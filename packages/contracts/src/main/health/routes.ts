import { z } from "zod";
import { defineRoute } from "../../api/route.js";
import { ErrorEnvelope, SuccessEnvelope } from "../envelope.js";

const MainHealth = SuccessEnvelope(z.object({ service: z.literal("main-api") })).meta({ id: "MainHealth", description: "The process is up." });
const MainReady = SuccessEnvelope(z.object({ database: z.literal("ok"), migrations: z.literal("applied") })).meta({
  id: "MainReady",
  description: "Database reachable, migrations applied.",
});

/** `/healthz` and `/readyz`: for load balancers and orchestrators, no credential. */
export const mainApiHealthRoutes = {
  mainHealthz: defineRoute({
    operationId: "mainHealthz",
    method: "get",
    path: "/healthz",
    tags: ["Operations"],
    summary: "Process up",
    errors: "envelope",
    auth: "none",
    scope: "none",
    responses: { 200: { description: "Up", schema: MainHealth } },
  }),
  mainReadyz: defineRoute({
    operationId: "mainReadyz",
    method: "get",
    path: "/readyz",
    tags: ["Operations"],
    summary: "Database reachable and migrations applied",
    errors: "envelope",
    auth: "none",
    scope: "none",
    responses: {
      200: { description: "Ready", schema: MainReady },
      503: { description: "Not ready: database unreachable or migrations not applied", schema: ErrorEnvelope },
    },
  }),
} as const;
