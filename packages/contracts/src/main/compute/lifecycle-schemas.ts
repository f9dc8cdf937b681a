import { z } from "zod";
import { CustomerId, Timestamp, TimestampOutput } from "../../common.js";
import { Action, RecommendationState } from "./schemas.js";

// Recommendations over time: retiring a resource, deciding about a recommendation, and what a
// followed (or ignored) recommendation saved.

export const ComputeResourcePathParams = z
  .object({ resource_id: CustomerId })
  .meta({ id: "ComputeResourcePathParams", description: "Path parameters naming one resource of the inventory (URL-encoded `resource_id`)." });
export type ComputeResourcePathParams = z.output<typeof ComputeResourcePathParams>;

export const MAX_STATE_REASON_LENGTH = 1000;
/** How far ahead a snooze may reach. */
export const MAX_SNOOZE_DAYS = 366;

export const UpdateRecommendationStateRequest = z
  .object({
    state: RecommendationState,
    reason: z.string().trim().min(1).max(MAX_STATE_REASON_LENGTH).optional(),
    snoozed_until: Timestamp.optional(),
  })
  .superRefine((body, ctx) => {
    if (body.state !== "snoozed") {
      if (body.snoozed_until !== undefined) ctx.addIssue({ code: "custom", path: ["snoozed_until"], message: "is only allowed with state 'snoozed'" });
      return;
    }
    if (body.snoozed_until === undefined) {
      ctx.addIssue({ code: "custom", path: ["snoozed_until"], message: "is required with state 'snoozed'" });
      return;
    }
    const until = Date.parse(body.snoozed_until);
    if (until <= Date.now()) ctx.addIssue({ code: "custom", path: ["snoozed_until"], message: "must be in the future" });
    else if (until > Date.now() + MAX_SNOOZE_DAYS * 86_400_000)
      ctx.addIssue({ code: "custom", path: ["snoozed_until"], message: `must be at most ${MAX_SNOOZE_DAYS} days ahead` });
  })
  .meta({
    id: "UpdateRecommendationStateRequest",
    description: `The new state; \`snoozed\` needs \`snoozed_until\` (in the future, at most ${MAX_SNOOZE_DAYS} days ahead), which the other states refuse; \`reason\` at most ${MAX_STATE_REASON_LENGTH} characters.`,
  });
export type UpdateRecommendationStateRequest = z.output<typeof UpdateRecommendationStateRequest>;

export const RecommendationStateView = z
  .object({
    resource_id: z.string(),
    action: Action.nullable(),
    recommended_instance_type: z.string().nullable(),
    state: RecommendationState,
    state_reason: z.string().nullable(),
    snoozed_until: TimestampOutput.nullable(),
  })
  .meta({ id: "RecommendationStateView", description: "A recommendation's state after the change." });
export type RecommendationStateView = z.infer<typeof RecommendationStateView>;

const Day = z.iso.date().transform((day) => `${day}T00:00:00.000Z`);
const RangeBound = z.union([Day, Timestamp]).meta({ override: { type: "string", description: "RFC 3339 timestamp, or YYYY-MM-DD (UTC midnight)." } });
const MAX_SAVINGS_RANGE_DAYS = 400;

/** The first instant of the current UTC month. */
const startOfMonth = (now: Date) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString();

export const SavingsQuery = z
  .object({ start: RangeBound.optional(), end: RangeBound.optional() })
  .transform((query, ctx) => {
    const now = new Date();
    const end = query.end ?? now.toISOString();
    const start = query.start ?? startOfMonth(query.end ? new Date(Date.parse(end) - 1) : now);
    const span = Date.parse(end) - Date.parse(start);
    if (span <= 0) ctx.addIssue({ code: "custom", path: ["end"], message: "must be after start" });
    else if (span > MAX_SAVINGS_RANGE_DAYS * 86_400_000)
      ctx.addIssue({ code: "custom", path: ["end"], message: `the range may span at most ${MAX_SAVINGS_RANGE_DAYS} days` });
    return { start, end };
  })
  .meta({
    id: "SavingsQuery",
    description: `Changes at or after \`start\` and before \`end\` (default: the current calendar month to now; at most ${MAX_SAVINGS_RANGE_DAYS} days).`,
  });
export type SavingsQuery = z.output<typeof SavingsQuery>;

export const ResourceShape = z
  .object({ instance_type: z.string().nullable(), cpu_cores: z.number().nullable(), ram_gb: z.number().nullable() })
  .meta({ id: "ResourceShape", description: "A resource's type and size." });
export type ResourceShape = z.infer<typeof ResourceShape>;

export const RealizedSavingsBasis = z.enum(["bill", "catalog"]).meta({
  id: "RealizedSavingsBasis",
  description:
    "`bill`: median daily cost of the resource's spend lines before and after the change; `catalog`: effective prices (fewer than 3 days of lines on a side).",
});

export const RealizedSavingsItem = z
  .object({
    resource_id: z.string(),
    recommendation: z.object({
      action: Action,
      recommended_instance_type: z.string().nullable(),
      savings_monthly_usd: z.number(),
      analyzed_at: TimestampOutput,
    }),
    change: z.object({ at: TimestampOutput, from: ResourceShape, to: ResourceShape.nullable() }),
    followed: z.boolean(),
    before_monthly_usd: z.number().nullable(),
    after_monthly_usd: z.number().nullable(),
    realized_savings_monthly_usd: z.number().nullable(),
    reason: z
      .enum(["commitment_covered"])
      .optional()
      .describe(
        "`commitment_covered`: the resource was under a commitment when it changed, or its lines after are; it realizes 0 (the commitment is paid either way).",
      ),
    basis: RealizedSavingsBasis,
    days_observed: z.number().int().nonnegative(),
  })
  .meta({
    id: "RealizedSavingsItem",
    description:
      "A resource resized or retired after a recommendation, with the monthly cost before and after; `days_observed`: the days with spend lines after the change (at most 14); amounts null only where the catalog could not price a type.",
  });
export type RealizedSavingsItem = z.infer<typeof RealizedSavingsItem>;

export const RealizedSavings = z
  .object({
    items: z.array(RealizedSavingsItem),
    totals: z
      .object({ estimated: z.number(), realized: z.number(), projected: z.number() })
      .describe("estimated: the recommendations' monthly savings; realized: the sum of basis `bill` figures; projected: the sum of basis `catalog` figures."),
  })
  .meta({
    id: "RealizedSavings",
    description:
      "Per change in the range made after its recommendation was analyzed (ordered by time, then resource_id); totals: estimated, realized (bill) and projected (catalog) monthly savings.",
  });
export type RealizedSavings = z.infer<typeof RealizedSavings>;
