import type { RecommendationItem } from "@cloudcost/contracts";

/** Right-sizing v2 (decisions.md section 4.8): optional here until the contracts carry them. */
export interface RecommendationOption {
  instance_type: string;
  cpu_cores: number | null;
  ram_gb: number | null;
  monthly_cost_usd: number | string | null;
  savings_monthly_usd: number | string | null;
  projected_cpu_p95: number | null;
  projected_memory_p95: number | null;
  performance_risk: "low" | "medium" | "high";
  migration_effort: "none" | "low" | "medium" | "high";
}

export interface PriceProvenance {
  basis: "list" | "effective";
  source: string;
  price_date: string | null;
}

export type Recommendation = RecommendationItem & {
  finding_reasons?: string[];
  options?: RecommendationOption[];
  price?: PriceProvenance | null;
  purchase_option?: string;
};

export const ACTIONS = ["DOWNSIZE", "UPSIZE", "TERMINATE", "NOOP", "NO_RECOMMENDATION", "PENDING"] as const;

export const ACTION_LABELS: Record<(typeof ACTIONS)[number], string> = {
  DOWNSIZE: "Downsize",
  UPSIZE: "Upsize",
  TERMINATE: "Terminate",
  NOOP: "No change",
  NO_RECOMMENDATION: "No recommendation",
  PENDING: "Pending",
};

export const REASON_LABELS: Record<string, string> = {
  idle: "Idle: CPU p95 under 3 % and maximum under 10 %",
  cpu_over_provisioned: "More vCPU than the CPU need",
  memory_over_provisioned: "More memory than the memory need",
  cpu_under_provisioned: "Fewer vCPU than the CPU need",
  memory_under_provisioned: "Less memory than the memory need",
  insufficient_data: "Not enough samples in the window (at least 12 over 24 hours)",
  memory_unknown: "No memory samples: memory need taken as the current memory",
  no_candidate: "No instance type satisfies the need",
  unpriced_type: "The current type has no price",
};

export const actionOf = (item: Recommendation) => item.action ?? "PENDING";
