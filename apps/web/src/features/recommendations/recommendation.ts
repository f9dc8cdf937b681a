import type { FindingReason, PriceProvenance, RecommendationItem, RecommendationOption } from "@cloudcost/contracts";

export type { PriceProvenance, RecommendationOption };
export type Recommendation = RecommendationItem;

export const ACTIONS = ["DOWNSIZE", "UPSIZE", "TERMINATE", "NOOP", "NO_RECOMMENDATION", "PENDING"] as const;

export const ACTION_LABELS: Record<(typeof ACTIONS)[number], string> = {
  DOWNSIZE: "Downsize",
  UPSIZE: "Upsize",
  TERMINATE: "Terminate",
  NOOP: "No change",
  NO_RECOMMENDATION: "No recommendation",
  PENDING: "Pending",
};

/** Every reason the analysis gives, in words (a new reason without its words does not compile). */
export const REASON_LABELS: Record<FindingReason, string> = {
  idle: "Idle: CPU p95 under 3 % and maximum under 10 %",
  cpu_over_provisioned: "More vCPU than the CPU need",
  memory_over_provisioned: "More memory than the memory need",
  cpu_under_provisioned: "Fewer vCPU than the CPU need",
  memory_under_provisioned: "Less memory than the memory need",
  insufficient_data: "Not enough samples in the window (at least 12 over 24 hours)",
  memory_unknown: "No memory samples: memory need taken as the current memory",
  no_candidate: "No instance type satisfies the need",
  unpriced_type: "The current type has no price",
  recently_resized: "Resized recently: waiting for 12 samples over 24 hours of the new shape",
  commitment_covered: "Covered by a commitment (reserved or committed usage): paid whether it runs or not, so no savings",
  burst_credits_exhausted:
    "A burstable type would run out of CPU credits: hour by hour over the window, from a full balance capped at 24 hours of earnings, the load spends credits faster than the type earns them at its baseline, so it would be throttled",
};

export const STATE_LABELS: Record<Recommendation["state"], string> = {
  open: "Open",
  accepted: "Accepted",
  dismissed: "Dismissed",
  snoozed: "Snoozed",
};

export const actionOf = (item: Recommendation) => item.action ?? "PENDING";
