import { z } from "zod";

export const PricingHealth = z
  .object({ status: z.literal("ok"), service: z.literal("pricing-api") })
  .meta({ id: "PricingHealth", description: "The process is up." });
export const PricingReady = z.object({ status: z.literal("ready") }).meta({ id: "PricingReady", description: "Ready to serve." });
