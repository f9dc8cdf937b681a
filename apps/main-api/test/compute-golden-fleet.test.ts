import request from "supertest";
import type { MetricSample, RecommendationItem, RecommendationOption } from "@cloudcost/contracts";
import { signServiceToken } from "@cloudcost/credentials";
import { samplesFor, shaped } from "./helpers/compute-fleet";
import { createTestContext, TEST_SERVICE_TOKEN_SECRET, type TestContext } from "./helpers/context";
import { signUp } from "./helpers/identity";
import { startPricingApi, type RunningPricingApi } from "./helpers/pricing-api";

/**
 * The golden fleet: ~40 resources across AWS (us-east-1), Azure (eastus) and GCP (us-central1),
 * each built to hit one branch of the right-sizing rule (docs/api.md, "The right-sizing rule"),
 * analyzed by the real app against the real pricing API with its seed catalog (real public prices)
 * and one negotiated price of the organization (m5.xlarge on demand, Linux, 30 % off:
 * 0.192 x 0.7 = 0.1344 per hour). Every expected item below was worked out by hand from the
 * catalog rows named in its comments: hourly price x 730 rounded half-up to cents, savings = the
 * difference of the two rounded costs, needs = vCPU x p95 / 70 and GB x memory p95 / 80, Windows on
 * AWS/Azure = Linux + 0.046 x vCPU per hour; nothing here calls the engine.
 */

interface Vm {
  id: string;
  provider: "aws" | "azure" | "gcp";
  type: string;
  /** p95 and maximum of 48 hourly samples (helpers/compute-fleet.ts `shaped`). */
  cpu?: [number, number];
  memory?: number;
  os?: "windows";
  arch?: "arm64" | null;
  purchase?: "spot" | "reserved";
  cores?: number;
  ram?: number;
  /** Only 11 samples at this value. */
  few?: number;
  /** 330 samples, every 10 minutes, all at this value. */
  constant330?: number;
  /** Memory on one sample only. */
  memoryOnce?: number;
  /** Network in and out (bytes per second) on every sample. */
  network?: [number, number];
  /** 336 hourly samples (14 days): the first value for 288 hours, the second for the last 48. */
  fortnight?: [number, number];
}

const REGION = { aws: "us-east-1", azure: "eastus", gcp: "us-central1" } as const;

const FLEET: Vm[] = [
  { id: "a01-idle-negotiated", provider: "aws", type: "m5.xlarge", cpu: [1.5, 4], memory: 20 },
  { id: "a02-idle-330", provider: "aws", type: "m5a.large", constant330: 1.5 },
  { id: "a03-idle-cpu-busy-network", provider: "aws", type: "c5.large", cpu: [1.5, 4], memory: 40, network: [8000, 1000] },
  { id: "a04-idle-quiet-network", provider: "aws", type: "c5.large", cpu: [1.5, 4], memory: 40, network: [1000, 1000] },
  { id: "a05-idle-unknown-type", provider: "aws", type: "x9.huge", cpu: [1, 2], cores: 4, ram: 16 },
  { id: "a06-busy-unknown-type", provider: "aws", type: "x9.huge", cpu: [40, 60], memory: 50, cores: 4, ram: 16 },
  { id: "a07-few-samples", provider: "aws", type: "m5.large", few: 50 },
  { id: "a08-memory-one-sample", provider: "aws", type: "m5a.2xlarge", cpu: [20, 30], memoryOnce: 10 },
  { id: "a09-exact-p95-boundary", provider: "aws", type: "m5a.2xlarge", cpu: [35.9, 50], memory: 70 },
  { id: "a10-negotiated-light", provider: "aws", type: "m5.2xlarge", cpu: [20, 35], memory: 30 },
  { id: "a11-burstable-at-baseline", provider: "aws", type: "t3.large", cpu: [20, 60], memory: 40 },
  { id: "a12-burstable-above-baseline", provider: "aws", type: "t3.large", cpu: [50, 90], memory: 40 },
  { id: "a13-burstable-small", provider: "aws", type: "t3.medium", cpu: [10, 30], memory: 50 },
  { id: "a14-arch-from-catalog", provider: "aws", type: "m6g.large", cpu: [10, 20], memory: 30, arch: null },
  { id: "a15-arm", provider: "aws", type: "m6g.xlarge", cpu: [30, 40], memory: 50, arch: "arm64" },
  { id: "a16-previous-generation", provider: "aws", type: "m4.xlarge", cpu: [20, 30], memory: 30 },
  { id: "a17-gpu-upsize", provider: "aws", type: "g5.xlarge", cpu: [80, 95], memory: 50 },
  { id: "a18-gpu-local-storage", provider: "aws", type: "g5.2xlarge", cpu: [20, 30], memory: 20 },
  { id: "a19-inferentia", provider: "aws", type: "inf2.xlarge", cpu: [20, 30], memory: 30 },
  { id: "a20-no-candidate", provider: "aws", type: "g5.48xlarge", cpu: [90, 100], memory: 50 },
  { id: "a21-local-nvme", provider: "aws", type: "m5d.xlarge", cpu: [10, 20], memory: 20 },
  { id: "a22-hot", provider: "aws", type: "c5.large", cpu: [95, 100], memory: 50 },
  { id: "a23-memory-under", provider: "aws", type: "r5.large", cpu: [30, 40], memory: 95 },
  { id: "a24-fit", provider: "aws", type: "m5a.large", cpu: [60, 80], memory: 70 },
  { id: "a25-spot", provider: "aws", type: "m5.xlarge", cpu: [20, 30], memory: 30, purchase: "spot" },
  { id: "a26-reserved", provider: "aws", type: "m5.xlarge", cpu: [20, 30], memory: 30, purchase: "reserved" },
  { id: "a27-windows", provider: "aws", type: "m5.xlarge", cpu: [20, 30], memory: 30, os: "windows" },
  { id: "a28-windows-idle", provider: "aws", type: "c5.large", cpu: [1, 3], memory: 20, os: "windows" },
  { id: "a29-spot-idle", provider: "aws", type: "c5.large", cpu: [1, 3], memory: 20, purchase: "spot" },
  { id: "a30-burst-credits-exhausted", provider: "aws", type: "t3.large", fortnight: [10, 60], memory: 40 },
  { id: "z01-azure-light", provider: "azure", type: "Standard_D4s_v5", cpu: [15, 30], memory: 25 },
  { id: "z02-azure-windows", provider: "azure", type: "Standard_D4s_v5", cpu: [15, 30], memory: 25, os: "windows" },
  { id: "z03-azure-spot", provider: "azure", type: "Standard_D2s_v5", cpu: [30, 40], memory: 50, purchase: "spot" },
  { id: "z04-azure-b-series", provider: "azure", type: "Standard_B2ms", cpu: [10, 50], memory: 30 },
  { id: "z05-azure-confidential", provider: "azure", type: "Standard_DC2s_v3", cpu: [10, 20], memory: 20 },
  { id: "z06-azure-idle", provider: "azure", type: "Standard_D2s_v5", cpu: [2, 5], memory: 30 },
  { id: "g01-e2-medium-above-baseline", provider: "gcp", type: "e2-medium", cpu: [40, 60], memory: 50 },
  { id: "g02-e2-medium-at-baseline", provider: "gcp", type: "e2-medium", cpu: [30, 60], memory: 50 },
  { id: "g03-gcp-light", provider: "gcp", type: "n2-standard-4", cpu: [15, 25], memory: 30 },
  { id: "g04-gcp-windows", provider: "gcp", type: "n2-standard-4", cpu: [15, 25], memory: 30, os: "windows" },
  { id: "g05-gcp-spot", provider: "gcp", type: "n2-standard-4", cpu: [15, 25], memory: 30, purchase: "spot" },
  { id: "g06-gcp-spot-idle", provider: "gcp", type: "e2-standard-2", cpu: [1, 2], memory: 10, purchase: "spot" },
];

const opt = (
  instance_type: string,
  cpu_cores: number,
  ram_gb: number,
  monthly_cost_usd: number,
  savings_monthly_usd: number,
  projected_cpu_p95: number,
  projected_memory_p95: number | null,
  performance_risk: RecommendationOption["performance_risk"],
  migration_effort: RecommendationOption["migration_effort"],
): RecommendationOption => ({
  instance_type,
  cpu_cores,
  ram_gb,
  monthly_cost_usd,
  savings_monthly_usd,
  projected_cpu_p95,
  projected_memory_p95,
  performance_risk,
  migration_effort,
});

const EXPECTED: Record<string, Partial<RecommendationItem>> = {
  // a01-idle-negotiated
  "a01-idle-negotiated": {
    action: "TERMINATE",
    recommended_instance_type: "",
    current_monthly_cost_usd: 98.11,
    recommended_monthly_cost_usd: 0,
    savings_monthly_usd: 98.11,
    finding_reasons: ["idle"],
    price: { basis: "effective", source: "negotiated", price_date: "2026-07-20" },
    options: [],
  },
  // a02-idle-330
  "a02-idle-330": {
    action: "TERMINATE",
    recommended_instance_type: "",
    current_monthly_cost_usd: 62.78,
    recommended_monthly_cost_usd: 0,
    savings_monthly_usd: 62.78,
    finding_reasons: ["idle", "memory_unknown"],
    price: { basis: "effective", source: "catalog", price_date: "2026-07-20" },
    options: [],
  },
  // a03-idle-cpu-busy-network
  "a03-idle-cpu-busy-network": {
    action: "DOWNSIZE",
    recommended_instance_type: "c7a.medium",
    current_monthly_cost_usd: 62.05,
    recommended_monthly_cost_usd: 37.46,
    savings_monthly_usd: 24.59,
    finding_reasons: ["cpu_over_provisioned", "memory_over_provisioned"],
    price: { basis: "effective", source: "catalog", price_date: "2026-07-20" },
    options: [
      // c7a.medium: 0.05132 x 730 = 37.46
      opt("c7a.medium", 1, 2, 37.46, 24.59, 3, 80, "low", "medium"),
      // c8a.medium: 0.05389 x 730 = 39.34
      opt("c8a.medium", 1, 2, 39.34, 22.71, 3, 80, "low", "medium"),
      // m7a.medium: 0.05796 x 730 = 42.31
      opt("m7a.medium", 1, 4, 42.31, 19.74, 3, 40, "low", "medium"),
    ],
  },
  // a04-idle-quiet-network
  "a04-idle-quiet-network": {
    action: "TERMINATE",
    recommended_instance_type: "",
    current_monthly_cost_usd: 62.05,
    recommended_monthly_cost_usd: 0,
    savings_monthly_usd: 62.05,
    finding_reasons: ["idle"],
    price: { basis: "effective", source: "catalog", price_date: "2026-07-20" },
    options: [],
  },
  // a05-idle-unknown-type
  "a05-idle-unknown-type": {
    action: "TERMINATE",
    recommended_instance_type: "",
    current_monthly_cost_usd: null,
    recommended_monthly_cost_usd: 0,
    savings_monthly_usd: 0,
    finding_reasons: ["idle", "memory_unknown"],
    price: { basis: "effective", source: null, price_date: null },
    options: [],
  },
  // a06-busy-unknown-type
  "a06-busy-unknown-type": {
    action: "NO_RECOMMENDATION",
    recommended_instance_type: null,
    current_monthly_cost_usd: null,
    recommended_monthly_cost_usd: null,
    savings_monthly_usd: 0,
    finding_reasons: ["unpriced_type"],
    price: { basis: "effective", source: null, price_date: null },
    options: [],
  },
  // a07-few-samples
  "a07-few-samples": {
    action: "NO_RECOMMENDATION",
    recommended_instance_type: null,
    current_monthly_cost_usd: null,
    recommended_monthly_cost_usd: null,
    savings_monthly_usd: 0,
    finding_reasons: ["insufficient_data"],
    price: { basis: "effective", source: null, price_date: null },
    options: [],
  },
  // a08-memory-one-sample
  "a08-memory-one-sample": {
    action: "DOWNSIZE",
    recommended_instance_type: "r5a.xlarge",
    current_monthly_cost_usd: 251.12,
    recommended_monthly_cost_usd: 164.98,
    savings_monthly_usd: 86.14,
    finding_reasons: ["cpu_over_provisioned", "memory_unknown"],
    price: { basis: "effective", source: "catalog", price_date: "2026-07-20" },
    options: [
      // r5a.xlarge: 0.226 x 730 = 164.98
      opt("r5a.xlarge", 4, 32, 164.98, 86.14, 40, null, "low", "medium"),
      // r6a.xlarge: 0.2268 x 730 = 165.56
      opt("r6a.xlarge", 4, 32, 165.56, 85.56, 40, null, "low", "medium"),
      // r5.xlarge: 0.252 x 730 = 183.96
      opt("r5.xlarge", 4, 32, 183.96, 67.16, 40, null, "low", "medium"),
    ],
  },
  // a09-exact-p95-boundary
  "a09-exact-p95-boundary": {
    action: "NOOP",
    recommended_instance_type: "m5a.2xlarge",
    current_monthly_cost_usd: 251.12,
    recommended_monthly_cost_usd: 251.12,
    savings_monthly_usd: 0,
    finding_reasons: [],
    price: { basis: "effective", source: "catalog", price_date: "2026-07-20" },
    options: [
      // m5a.2xlarge: 0.344 x 730 = 251.12
      opt("m5a.2xlarge", 8, 32, 251.12, 0, 35.9, 70, "low", "none"),
      // m6a.2xlarge: 0.3456 x 730 = 252.29
      opt("m6a.2xlarge", 8, 32, 252.29, -1.17, 35.9, 70, "low", "medium"),
      // m7i-flex.2xlarge: 0.38304 x 730 = 279.62
      opt("m7i-flex.2xlarge", 8, 32, 279.62, -28.5, 35.9, 70, "low", "medium"),
    ],
  },
  // a10-negotiated-light
  "a10-negotiated-light": {
    action: "DOWNSIZE",
    recommended_instance_type: "m5.xlarge",
    current_monthly_cost_usd: 280.32,
    recommended_monthly_cost_usd: 98.11,
    savings_monthly_usd: 182.21,
    finding_reasons: ["cpu_over_provisioned", "memory_over_provisioned"],
    price: { basis: "effective", source: "negotiated", price_date: "2026-07-20" },
    options: [
      // m5.xlarge: 0.1344 x 730 = 98.11
      opt("m5.xlarge", 4, 16, 98.11, 182.21, 40, 60, "low", "low"),
      // m5a.xlarge: 0.172 x 730 = 125.56
      opt("m5a.xlarge", 4, 16, 125.56, 154.76, 40, 60, "low", "medium"),
      // m6a.xlarge: 0.1728 x 730 = 126.14
      opt("m6a.xlarge", 4, 16, 126.14, 154.18, 40, 60, "low", "medium"),
    ],
  },
  // a11-burstable-at-baseline (rule version 3, burstable credits: mean CPU (45 x 10 + 2 x 20 + 60) / 48 = 11.46;
  // a 2-vCPU type with a 20 % baseline fits: 2 x 11.46 <= 2 x 20 and need 2 x 20 / 70 = 0.57 <= 2 vCPU; memory 8 x 40 / 80 = 4 GB)
  "a11-burstable-at-baseline": {
    action: "DOWNSIZE",
    recommended_instance_type: "t3a.medium",
    current_monthly_cost_usd: 60.74,
    recommended_monthly_cost_usd: 27.45,
    savings_monthly_usd: 33.29,
    finding_reasons: ["cpu_over_provisioned", "memory_over_provisioned"],
    price: { basis: "effective", source: "catalog", price_date: "2026-07-20" },
    options: [
      // t3a.medium: 0.0376 x 730 = 27.45 (60.74 - 27.45 = 33.29); p95 20 on its 2 vCPUs, target 70 on all of them: low risk
      opt("t3a.medium", 2, 4, 27.45, 33.29, 20, 80, "low", "medium"),
      // t3.medium: 0.0416 x 730 = 30.37 (60.74 - 30.37 = 30.37)
      opt("t3.medium", 2, 4, 30.37, 30.37, 20, 80, "low", "low"),
      // m7a.medium: 0.05796 x 730 = 42.31
      opt("m7a.medium", 1, 4, 42.31, 18.43, 40, 80, "low", "medium"),
    ],
  },
  // a12-burstable-above-baseline: p95 50 is above t3.large's 30 % baseline, but under rule version 3 the
  // credits decide: mean CPU (45 x 25 + 2 x 50 + 90) / 48 = 27.40 <= 30 and need 2 x 50 / 70 = 1.43 <= 2 vCPU,
  // so the current size fits and the same size of the cheaper t3a family wins (t3a.medium's
  // 2 x 27.40 > 2 x 20 does not fit). Nothing is over-provisioned: same vCPUs, same memory.
  "a12-burstable-above-baseline": {
    action: "DOWNSIZE",
    recommended_instance_type: "t3a.large",
    current_monthly_cost_usd: 60.74,
    recommended_monthly_cost_usd: 54.9,
    savings_monthly_usd: 5.84,
    finding_reasons: [],
    price: { basis: "effective", source: "catalog", price_date: "2026-07-20" },
    options: [
      // t3a.large: 0.0752 x 730 = 54.9 (60.74 - 54.9 = 5.84)
      opt("t3a.large", 2, 8, 54.9, 5.84, 50, 40, "low", "medium"),
      // c6a.large: 0.0765 x 730 = 55.85
      opt("c6a.large", 2, 4, 55.85, 4.89, 50, 80, "low", "medium"),
      // c5a.large: 0.077 x 730 = 56.21
      opt("c5a.large", 2, 4, 56.21, 4.53, 50, 80, "low", "medium"),
    ],
  },
  // a30-burst-credits-exhausted (rule version 4): 10 % for 288 hours, 60 % for the last 48. Mean
  // (288 x 10 + 48 x 60) / 336 = 17.14, p95 60 (rank 320 of 336 is among the 48), need 2 x 60 / 70 =
  // 1.71 vCPU, memory 8 x 40 / 80 = 4 GB. Version 3 downsized it to t3a.medium (2 x 17.14 <= 2 x 20).
  // Version 4 simulates the credits hour by hour from a full balance: t3a.medium / t3.medium (20 %, 2
  // vCPUs) earn 0.2 x 2 x 60 = 24 an hour, cap 576, and spend 0.6 x 2 x 60 = 72 at 60 %: out after 12
  // of the 48 hours; t3a.large and the t3.large itself (30 %) earn 36, cap 864: out after 24. The
  // current type does not meet the need: the cheapest type that does is c6a.large (2 vCPUs sustained,
  // 4 GB), cheaper than the t3.large: 0.0832 x 730 = 60.74 -> 0.0765 x 730 = 55.85, 4.89 a month.
  "a30-burst-credits-exhausted": {
    action: "UPSIZE",
    recommended_instance_type: "c6a.large",
    current_monthly_cost_usd: 60.74,
    recommended_monthly_cost_usd: 55.85,
    savings_monthly_usd: 4.89,
    finding_reasons: ["cpu_under_provisioned", "burst_credits_exhausted"],
    price: { basis: "effective", source: "catalog", price_date: "2026-07-20" },
    options: [
      // c6a.large: p95 60 x 2 / 2 = 60 under 70; memory 40 x 8 / 4 = 80 at its target: low risk
      opt("c6a.large", 2, 4, 55.85, 4.89, 60, 80, "low", "medium"),
      // c5a.large: 0.077 x 730 = 56.21 (60.74 - 56.21 = 4.53)
      opt("c5a.large", 2, 4, 56.21, 4.53, 60, 80, "low", "medium"),
      // c7i-flex.large: 0.08479 x 730 = 61.8967 -> 61.90 (60.74 - 61.90 = -1.16)
      opt("c7i-flex.large", 2, 4, 61.9, -1.16, 60, 80, "low", "medium"),
    ],
  },
  // a13-burstable-small
  "a13-burstable-small": {
    action: "DOWNSIZE",
    recommended_instance_type: "t3a.medium",
    current_monthly_cost_usd: 30.37,
    recommended_monthly_cost_usd: 27.45,
    savings_monthly_usd: 2.92,
    finding_reasons: [],
    price: { basis: "effective", source: "catalog", price_date: "2026-07-20" },
    options: [
      // t3a.medium: 0.0376 x 730 = 27.45
      opt("t3a.medium", 2, 4, 27.45, 2.92, 10, 50, "low", "medium"),
      // t3.medium: 0.0416 x 730 = 30.37
      opt("t3.medium", 2, 4, 30.37, 0, 10, 50, "low", "none"),
      // m7a.medium: 0.05796 x 730 = 42.31
      opt("m7a.medium", 1, 4, 42.31, -11.94, 20, 50, "low", "medium"),
    ],
  },
  // a14-arch-from-catalog
  "a14-arch-from-catalog": {
    action: "DOWNSIZE",
    recommended_instance_type: "m6g.medium",
    current_monthly_cost_usd: 56.21,
    recommended_monthly_cost_usd: 28.11,
    savings_monthly_usd: 28.1,
    finding_reasons: ["cpu_over_provisioned", "memory_over_provisioned"],
    price: { basis: "effective", source: "catalog", price_date: "2026-07-20" },
    options: [
      // m6g.medium: 0.0385 x 730 = 28.11
      opt("m6g.medium", 1, 4, 28.11, 28.1, 20, 60, "low", "low"),
      // m7g.medium: 0.0408 x 730 = 29.78
      opt("m7g.medium", 1, 4, 29.78, 26.43, 20, 60, "low", "medium"),
      // m8g.medium: 0.04488 x 730 = 32.76
      opt("m8g.medium", 1, 4, 32.76, 23.45, 20, 60, "low", "medium"),
    ],
  },
  // a15-arm
  "a15-arm": {
    action: "DOWNSIZE",
    recommended_instance_type: "r6g.large",
    current_monthly_cost_usd: 112.42,
    recommended_monthly_cost_usd: 73.58,
    savings_monthly_usd: 38.84,
    finding_reasons: ["cpu_over_provisioned"],
    price: { basis: "effective", source: "catalog", price_date: "2026-07-20" },
    options: [
      // r6g.large: 0.1008 x 730 = 73.58
      opt("r6g.large", 2, 16, 73.58, 38.84, 60, 50, "low", "medium"),
      // r7g.large: 0.1071 x 730 = 78.18
      opt("r7g.large", 2, 16, 78.18, 34.24, 60, 50, "low", "medium"),
      // r8g.large: 0.11782 x 730 = 86.01
      opt("r8g.large", 2, 16, 86.01, 26.41, 60, 50, "low", "medium"),
    ],
  },
  // a16-previous-generation
  "a16-previous-generation": {
    action: "DOWNSIZE",
    recommended_instance_type: "m5a.large",
    current_monthly_cost_usd: 146,
    recommended_monthly_cost_usd: 62.78,
    savings_monthly_usd: 83.22,
    finding_reasons: ["cpu_over_provisioned", "memory_over_provisioned"],
    price: { basis: "effective", source: "catalog", price_date: "2026-07-20" },
    options: [
      // m5a.large: 0.086 x 730 = 62.78
      opt("m5a.large", 2, 8, 62.78, 83.22, 40, 60, "low", "medium"),
      // m6a.large: 0.0864 x 730 = 63.07
      opt("m6a.large", 2, 8, 63.07, 82.93, 40, 60, "low", "medium"),
      // m7i-flex.large: 0.09576 x 730 = 69.9
      opt("m7i-flex.large", 2, 8, 69.9, 76.1, 40, 60, "low", "medium"),
    ],
  },
  // a17-gpu-upsize
  "a17-gpu-upsize": {
    action: "UPSIZE",
    recommended_instance_type: "g5.2xlarge",
    current_monthly_cost_usd: 734.38,
    recommended_monthly_cost_usd: 884.76,
    savings_monthly_usd: -150.38,
    finding_reasons: ["cpu_under_provisioned"],
    price: { basis: "effective", source: "catalog", price_date: "2026-07-20" },
    options: [
      // g5.2xlarge: 1.212 x 730 = 884.76
      opt("g5.2xlarge", 8, 32, 884.76, -150.38, 40, 25, "low", "low"),
      // g5.4xlarge: 1.624 x 730 = 1185.52
      opt("g5.4xlarge", 16, 64, 1185.52, -451.14, 20, 12.5, "low", "low"),
      // g5.8xlarge: 2.448 x 730 = 1787.04
      opt("g5.8xlarge", 32, 128, 1787.04, -1052.66, 10, 6.25, "low", "low"),
    ],
  },
  // a18-gpu-local-storage
  "a18-gpu-local-storage": {
    action: "NOOP",
    recommended_instance_type: "g5.2xlarge",
    current_monthly_cost_usd: 884.76,
    recommended_monthly_cost_usd: 884.76,
    savings_monthly_usd: 0,
    finding_reasons: [],
    price: { basis: "effective", source: "catalog", price_date: "2026-07-20" },
    options: [
      // g5.2xlarge: 1.212 x 730 = 884.76
      opt("g5.2xlarge", 8, 32, 884.76, 0, 20, 20, "low", "none"),
      // g5.4xlarge: 1.624 x 730 = 1185.52
      opt("g5.4xlarge", 16, 64, 1185.52, -300.76, 10, 10, "low", "low"),
      // g5.8xlarge: 2.448 x 730 = 1787.04
      opt("g5.8xlarge", 32, 128, 1787.04, -902.28, 5, 5, "low", "low"),
    ],
  },
  // a19-inferentia
  "a19-inferentia": {
    action: "NOOP",
    recommended_instance_type: "inf2.xlarge",
    current_monthly_cost_usd: 553.49,
    recommended_monthly_cost_usd: 553.49,
    savings_monthly_usd: 0,
    finding_reasons: [],
    price: { basis: "effective", source: "catalog", price_date: "2026-07-20" },
    options: [
      // inf2.xlarge: 0.7582 x 730 = 553.49
      opt("inf2.xlarge", 4, 16, 553.49, 0, 20, 30, "low", "none"),
      // inf2.8xlarge: 1.96786 x 730 = 1436.54
      opt("inf2.8xlarge", 32, 128, 1436.54, -883.05, 2.5, 3.75, "low", "low"),
    ],
  },
  // a20-no-candidate
  "a20-no-candidate": {
    action: "NO_RECOMMENDATION",
    recommended_instance_type: null,
    current_monthly_cost_usd: 11890.24,
    recommended_monthly_cost_usd: null,
    savings_monthly_usd: 0,
    finding_reasons: ["cpu_under_provisioned", "no_candidate"],
    price: { basis: "effective", source: "catalog", price_date: "2026-07-20" },
    options: [],
  },
  // a21-local-nvme
  "a21-local-nvme": {
    action: "DOWNSIZE",
    recommended_instance_type: "m7a.medium",
    current_monthly_cost_usd: 164.98,
    recommended_monthly_cost_usd: 42.31,
    savings_monthly_usd: 122.67,
    finding_reasons: ["cpu_over_provisioned", "memory_over_provisioned"],
    price: { basis: "effective", source: "catalog", price_date: "2026-07-20" },
    options: [
      // m7a.medium: 0.05796 x 730 = 42.31
      opt("m7a.medium", 1, 4, 42.31, 122.67, 40, 80, "low", "medium"),
      // m8a.medium: 0.06086 x 730 = 44.43
      opt("m8a.medium", 1, 4, 44.43, 120.55, 40, 80, "low", "medium"),
      // r7a.medium: 0.07608 x 730 = 55.54
      opt("r7a.medium", 1, 8, 55.54, 109.44, 40, 40, "low", "medium"),
    ],
  },
  // a22-hot
  "a22-hot": {
    action: "UPSIZE",
    recommended_instance_type: "m5.xlarge",
    current_monthly_cost_usd: 62.05,
    recommended_monthly_cost_usd: 98.11,
    savings_monthly_usd: -36.06,
    finding_reasons: ["cpu_under_provisioned"],
    price: { basis: "effective", source: "negotiated", price_date: "2026-07-20" },
    options: [
      // m5.xlarge: 0.1344 x 730 = 98.11
      opt("m5.xlarge", 4, 16, 98.11, -36.06, 47.5, 12.5, "low", "medium"),
      // c6a.xlarge: 0.153 x 730 = 111.69
      opt("c6a.xlarge", 4, 8, 111.69, -49.64, 47.5, 25, "low", "medium"),
      // c5a.xlarge: 0.154 x 730 = 112.42
      opt("c5a.xlarge", 4, 8, 112.42, -50.37, 47.5, 25, "low", "medium"),
    ],
  },
  // a23-memory-under
  "a23-memory-under": {
    action: "UPSIZE",
    recommended_instance_type: "x8i.large",
    current_monthly_cost_usd: 91.98,
    recommended_monthly_cost_usd: 159.75,
    savings_monthly_usd: -67.77,
    finding_reasons: ["memory_under_provisioned"],
    price: { basis: "effective", source: "catalog", price_date: "2026-07-20" },
    options: [
      // x8i.large: 0.21883 x 730 = 159.75
      opt("x8i.large", 2, 32, 159.75, -67.77, 30, 47.5, "low", "medium"),
      // r5a.xlarge: 0.226 x 730 = 164.98
      opt("r5a.xlarge", 4, 32, 164.98, -73, 15, 47.5, "low", "medium"),
      // r6a.xlarge: 0.2268 x 730 = 165.56
      opt("r6a.xlarge", 4, 32, 165.56, -73.58, 15, 47.5, "low", "medium"),
    ],
  },
  // a24-fit
  "a24-fit": {
    action: "NOOP",
    recommended_instance_type: "m5a.large",
    current_monthly_cost_usd: 62.78,
    recommended_monthly_cost_usd: 62.78,
    savings_monthly_usd: 0,
    finding_reasons: [],
    price: { basis: "effective", source: "catalog", price_date: "2026-07-20" },
    options: [
      // m5a.large: 0.086 x 730 = 62.78
      opt("m5a.large", 2, 8, 62.78, 0, 60, 70, "low", "none"),
      // m6a.large: 0.0864 x 730 = 63.07
      opt("m6a.large", 2, 8, 63.07, -0.29, 60, 70, "low", "medium"),
      // m7i-flex.large: 0.09576 x 730 = 69.9
      opt("m7i-flex.large", 2, 8, 69.9, -7.12, 60, 70, "low", "medium"),
    ],
  },
  // a25-spot
  "a25-spot": {
    action: "DOWNSIZE",
    recommended_instance_type: "m6a.large",
    current_monthly_cost_usd: 51.86,
    recommended_monthly_cost_usd: 24.6,
    savings_monthly_usd: 27.26,
    finding_reasons: ["cpu_over_provisioned", "memory_over_provisioned"],
    price: { basis: "effective", source: "catalog", price_date: "2024-04-04" },
    options: [
      // m6a.large: 0.033696 x 730 = 24.6
      opt("m6a.large", 2, 8, 24.6, 27.26, 40, 60, "low", "medium"),
      // m5.large: 0.0384 x 730 = 28.03
      opt("m5.large", 2, 8, 28.03, 23.83, 40, 60, "low", "low"),
      // m6i.large: 0.03936 x 730 = 28.73
      opt("m6i.large", 2, 8, 28.73, 23.13, 40, 60, "low", "medium"),
    ],
  },
  // a26-reserved
  "a26-reserved": {
    action: "DOWNSIZE",
    recommended_instance_type: "m5a.large",
    current_monthly_cost_usd: 98.11,
    recommended_monthly_cost_usd: 62.78,
    // Rule version 3: a reserved resource is paid for whether it runs or not: the action stays, the savings are 0.
    savings_monthly_usd: 0,
    finding_reasons: ["cpu_over_provisioned", "memory_over_provisioned", "commitment_covered"],
    price: { basis: "effective", source: "negotiated", price_date: "2026-07-20" },
    options: [
      // m5a.large: 0.086 x 730 = 62.78
      opt("m5a.large", 2, 8, 62.78, 35.33, 40, 60, "low", "medium"),
      // m6a.large: 0.0864 x 730 = 63.07
      opt("m6a.large", 2, 8, 63.07, 35.04, 40, 60, "low", "medium"),
      // m7i-flex.large: 0.09576 x 730 = 69.9
      opt("m7i-flex.large", 2, 8, 69.9, 28.21, 40, 60, "low", "medium"),
    ],
  },
  // a27-windows
  "a27-windows": {
    action: "DOWNSIZE",
    recommended_instance_type: "m5a.large",
    current_monthly_cost_usd: 274.48,
    recommended_monthly_cost_usd: 129.94,
    savings_monthly_usd: 144.54,
    finding_reasons: ["cpu_over_provisioned", "memory_over_provisioned"],
    price: { basis: "effective", source: "estimate", price_date: "2026-07-20" },
    options: [
      // m5a.large: 0.178 x 730 = 129.94
      opt("m5a.large", 2, 8, 129.94, 144.54, 40, 60, "low", "medium"),
      // m6a.large: 0.1784 x 730 = 130.23
      opt("m6a.large", 2, 8, 130.23, 144.25, 40, 60, "low", "medium"),
      // m7i-flex.large: 0.18776 x 730 = 137.06
      opt("m7i-flex.large", 2, 8, 137.06, 137.42, 40, 60, "low", "medium"),
    ],
  },
  // a28-windows-idle
  "a28-windows-idle": {
    action: "TERMINATE",
    recommended_instance_type: "",
    current_monthly_cost_usd: 129.21,
    recommended_monthly_cost_usd: 0,
    savings_monthly_usd: 129.21,
    finding_reasons: ["idle"],
    price: { basis: "effective", source: "estimate", price_date: "2026-07-20" },
    options: [],
  },
  // a29-spot-idle
  "a29-spot-idle": {
    action: "TERMINATE",
    recommended_instance_type: "",
    current_monthly_cost_usd: 28.54,
    recommended_monthly_cost_usd: 0,
    savings_monthly_usd: 28.54,
    finding_reasons: ["idle"],
    price: { basis: "effective", source: "catalog", price_date: "2024-04-04" },
    options: [],
  },
  // z01-azure-light
  "z01-azure-light": {
    action: "DOWNSIZE",
    recommended_instance_type: "Standard_F1ams_v7",
    current_monthly_cost_usd: 140.16,
    recommended_monthly_cost_usd: 65.34,
    savings_monthly_usd: 74.82,
    finding_reasons: ["cpu_over_provisioned", "memory_over_provisioned"],
    price: { basis: "effective", source: "catalog", price_date: "2026-06-18" },
    options: [
      // Standard_F1ams_v7: 0.0895 x 730 = 65.34
      opt("Standard_F1ams_v7", 1, 8, 65.34, 74.82, 60, 50, "low", "medium"),
      // Standard_D2as_v6: 0.0908 x 730 = 66.28
      opt("Standard_D2as_v6", 2, 8, 66.28, 73.88, 30, 50, "low", "medium"),
      // Standard_D2as_v7: 0.0908 x 730 = 66.28
      opt("Standard_D2as_v7", 2, 8, 66.28, 73.88, 30, 50, "low", "medium"),
    ],
  },
  // z02-azure-windows
  "z02-azure-windows": {
    action: "DOWNSIZE",
    recommended_instance_type: "Standard_F1ams_v7",
    current_monthly_cost_usd: 274.48,
    recommended_monthly_cost_usd: 98.92,
    savings_monthly_usd: 175.56,
    finding_reasons: ["cpu_over_provisioned", "memory_over_provisioned"],
    price: { basis: "effective", source: "estimate", price_date: "2026-06-18" },
    options: [
      // Standard_F1ams_v7: 0.1355 x 730 = 98.92
      opt("Standard_F1ams_v7", 1, 8, 98.92, 175.56, 60, 50, "low", "medium"),
      // Standard_F1amds_v7: 0.155 x 730 = 113.15
      opt("Standard_F1amds_v7", 1, 8, 113.15, 161.33, 60, 50, "low", "medium"),
      // Standard_D2as_v6: 0.1828 x 730 = 133.44
      opt("Standard_D2as_v6", 2, 8, 133.44, 141.04, 30, 50, "low", "medium"),
    ],
  },
  // z03-azure-spot
  "z03-azure-spot": {
    action: "NO_RECOMMENDATION",
    recommended_instance_type: null,
    current_monthly_cost_usd: null,
    recommended_monthly_cost_usd: null,
    savings_monthly_usd: 0,
    finding_reasons: ["unpriced_type"],
    price: { basis: "effective", source: null, price_date: null },
    options: [],
  },
  // z04-azure-b-series
  "z04-azure-b-series": {
    action: "DOWNSIZE",
    recommended_instance_type: "Standard_B2als_v2",
    current_monthly_cost_usd: 60.74,
    recommended_monthly_cost_usd: 27.45,
    savings_monthly_usd: 33.29,
    finding_reasons: ["memory_over_provisioned"],
    price: { basis: "effective", source: "catalog", price_date: "2026-06-18" },
    options: [
      // Standard_B2als_v2: 0.0376 x 730 = 27.45
      opt("Standard_B2als_v2", 2, 4, 27.45, 33.29, 10, 60, "low", "medium"),
      // Standard_B2ls_v2: 0.0416 x 730 = 30.37
      opt("Standard_B2ls_v2", 2, 4, 30.37, 30.37, 10, 60, "low", "medium"),
      // Standard_F1as_v7: 0.0683 x 730 = 49.86
      opt("Standard_F1as_v7", 1, 4, 49.86, 10.88, 20, 60, "low", "medium"),
    ],
  },
  // z05-azure-confidential
  "z05-azure-confidential": {
    action: "DOWNSIZE",
    recommended_instance_type: "Standard_F1as_v7",
    current_monthly_cost_usd: 140.16,
    recommended_monthly_cost_usd: 49.86,
    savings_monthly_usd: 90.3,
    finding_reasons: ["cpu_over_provisioned", "memory_over_provisioned"],
    price: { basis: "effective", source: "catalog", price_date: "2026-06-18" },
    options: [
      // Standard_F1as_v7: 0.0683 x 730 = 49.86
      opt("Standard_F1as_v7", 1, 4, 49.86, 90.3, 20, 80, "low", "medium"),
      // Standard_D2als_v6: 0.0804 x 730 = 58.69
      opt("Standard_D2als_v6", 2, 4, 58.69, 81.47, 10, 80, "low", "medium"),
      // Standard_D2als_v7: 0.0804 x 730 = 58.69
      opt("Standard_D2als_v7", 2, 4, 58.69, 81.47, 10, 80, "low", "medium"),
    ],
  },
  // z06-azure-idle
  "z06-azure-idle": {
    action: "TERMINATE",
    recommended_instance_type: "",
    current_monthly_cost_usd: 70.08,
    recommended_monthly_cost_usd: 0,
    savings_monthly_usd: 70.08,
    finding_reasons: ["idle"],
    price: { basis: "effective", source: "catalog", price_date: "2026-06-18" },
    options: [],
  },
  // g01-e2-medium-above-baseline: p95 40 is above e2-medium's baseline, but under rule version 3 the credits
  // decide: mean CPU (45 x 20 + 2 x 40 + 60) / 48 = 21.67 is within it and need 2 x 40 / 70 = 1.14 <= 2 vCPU,
  // so the current type fits and, being the cheapest that does, stays.
  "g01-e2-medium-above-baseline": {
    action: "NOOP",
    recommended_instance_type: "e2-medium",
    current_monthly_cost_usd: 24.46,
    recommended_monthly_cost_usd: 24.46,
    savings_monthly_usd: 0,
    finding_reasons: [],
    price: { basis: "effective", source: "catalog", price_date: "2026-07-30" },
    options: [
      // e2-medium: 0.033503 x 730 = 24.46
      opt("e2-medium", 2, 4, 24.46, 0, 40, 50, "low", "none"),
      // e2-standard-2: 0.067011 x 730 = 48.92
      opt("e2-standard-2", 2, 8, 48.92, -24.46, 40, 25, "low", "low"),
      // n4d-highcpu-2: 0.07146 x 730 = 52.17
      opt("n4d-highcpu-2", 2, 4, 52.17, -27.71, 40, 50, "low", "medium"),
    ],
  },
  // g02-e2-medium-at-baseline
  "g02-e2-medium-at-baseline": {
    action: "NOOP",
    recommended_instance_type: "e2-medium",
    current_monthly_cost_usd: 24.46,
    recommended_monthly_cost_usd: 24.46,
    savings_monthly_usd: 0,
    finding_reasons: [],
    price: { basis: "effective", source: "catalog", price_date: "2026-07-30" },
    options: [
      // e2-medium: 0.033506 x 730 = 24.46
      opt("e2-medium", 2, 4, 24.46, 0, 30, 50, "low", "none"),
      // t2d-standard-1: 0.042246 x 730 = 30.84
      opt("t2d-standard-1", 1, 4, 30.84, -6.38, 60, 50, "low", "medium"),
      // n1-standard-1: 0.0475 x 730 = 34.68
      opt("n1-standard-1", 1, 3.75, 34.68, -10.22, 60, 53.33, "low", "medium"),
    ],
  },
  // g03-gcp-light
  "g03-gcp-light": {
    action: "DOWNSIZE",
    recommended_instance_type: "e2-standard-2",
    current_monthly_cost_usd: 141.79,
    recommended_monthly_cost_usd: 48.92,
    savings_monthly_usd: 92.87,
    finding_reasons: ["cpu_over_provisioned", "memory_over_provisioned"],
    price: { basis: "effective", source: "catalog", price_date: "2026-07-30" },
    options: [
      // e2-standard-2: 0.067011 x 730 = 48.92
      opt("e2-standard-2", 2, 8, 48.92, 92.87, 30, 60, "low", "medium"),
      // n2d-standard-2: 0.084492 x 730 = 61.68
      opt("n2d-standard-2", 2, 8, 61.68, 80.11, 30, 60, "low", "medium"),
      // t2d-standard-2: 0.084492 x 730 = 61.68
      opt("t2d-standard-2", 2, 8, 61.68, 80.11, 30, 60, "low", "medium"),
    ],
  },
  // g04-gcp-windows
  "g04-gcp-windows": {
    action: "DOWNSIZE",
    recommended_instance_type: "e2-standard-2",
    current_monthly_cost_usd: 276.11,
    recommended_monthly_cost_usd: 116.08,
    savings_monthly_usd: 160.03,
    finding_reasons: ["cpu_over_provisioned", "memory_over_provisioned"],
    price: { basis: "effective", source: "catalog", price_date: "2026-07-30" },
    options: [
      // e2-standard-2: 0.159011 x 730 = 116.08
      opt("e2-standard-2", 2, 8, 116.08, 160.03, 30, 60, "low", "medium"),
      // n2d-standard-2: 0.176492 x 730 = 128.84
      opt("n2d-standard-2", 2, 8, 128.84, 147.27, 30, 60, "low", "medium"),
      // t2d-standard-2: 0.176492 x 730 = 128.84
      opt("t2d-standard-2", 2, 8, 128.84, 147.27, 30, 60, "low", "medium"),
    ],
  },
  // g05-gcp-spot
  "g05-gcp-spot": {
    action: "DOWNSIZE",
    recommended_instance_type: "n2d-standard-2",
    current_monthly_cost_usd: 67.25,
    recommended_monthly_cost_usd: 17.85,
    savings_monthly_usd: 49.4,
    finding_reasons: ["cpu_over_provisioned", "memory_over_provisioned"],
    price: { basis: "effective", source: "catalog", price_date: "2026-07-30" },
    options: [
      // n2d-standard-2: 0.024456 x 730 = 17.85
      opt("n2d-standard-2", 2, 8, 17.85, 49.4, 30, 60, "low", "medium"),
      // c2d-standard-2: 0.0305 x 730 = 22.27
      opt("c2d-standard-2", 2, 8, 22.27, 44.98, 30, 60, "low", "medium"),
      // t2d-standard-2: 0.03152 x 730 = 23.01
      opt("t2d-standard-2", 2, 8, 23.01, 44.24, 30, 60, "low", "medium"),
    ],
  },
  // g06-gcp-spot-idle
  "g06-gcp-spot-idle": {
    action: "TERMINATE",
    recommended_instance_type: "",
    current_monthly_cost_usd: 29.35,
    recommended_monthly_cost_usd: 0,
    savings_monthly_usd: 29.35,
    finding_reasons: ["idle"],
    price: { basis: "effective", source: "catalog", price_date: "2026-07-30" },
    options: [],
  },
};

/** After `savings_basis: list` and `allow_architecture_change: true`: the items that change. */
const EXPECTED_LIST_ANY_ARCHITECTURE: Record<string, Partial<RecommendationItem>> = {
  "a01-idle-negotiated": {
    action: "TERMINATE",
    recommended_instance_type: "",
    current_monthly_cost_usd: 140.16,
    recommended_monthly_cost_usd: 0,
    savings_monthly_usd: 140.16,
    finding_reasons: ["idle"],
    price: { basis: "list", source: "catalog", price_date: "2026-07-20" },
    options: [],
  },
  "a03-idle-cpu-busy-network": {
    action: "DOWNSIZE",
    recommended_instance_type: "a1.medium",
    current_monthly_cost_usd: 62.05,
    recommended_monthly_cost_usd: 18.62,
    savings_monthly_usd: 43.43,
    finding_reasons: ["cpu_over_provisioned", "memory_over_provisioned"],
    price: { basis: "list", source: "catalog", price_date: "2026-07-20" },
    options: [
      // a1.medium: 0.0255 x 730 = 18.62
      opt("a1.medium", 1, 2, 18.62, 43.43, 3, 80, "low", "high"),
      // c6g.medium: 0.034 x 730 = 24.82
      opt("c6g.medium", 1, 2, 24.82, 37.23, 3, 80, "low", "high"),
      // c7g.medium: 0.0363 x 730 = 26.5
      opt("c7g.medium", 1, 2, 26.5, 35.55, 3, 80, "low", "high"),
    ],
  },
  "a10-negotiated-light": {
    action: "DOWNSIZE",
    recommended_instance_type: "m6g.xlarge",
    current_monthly_cost_usd: 280.32,
    recommended_monthly_cost_usd: 112.42,
    savings_monthly_usd: 167.9,
    finding_reasons: ["cpu_over_provisioned", "memory_over_provisioned"],
    price: { basis: "list", source: "catalog", price_date: "2026-07-20" },
    options: [
      // m6g.xlarge: 0.154 x 730 = 112.42
      opt("m6g.xlarge", 4, 16, 112.42, 167.9, 40, 60, "low", "high"),
      // m7g.xlarge: 0.1632 x 730 = 119.14
      opt("m7g.xlarge", 4, 16, 119.14, 161.18, 40, 60, "low", "high"),
      // m5a.xlarge: 0.172 x 730 = 125.56
      opt("m5a.xlarge", 4, 16, 125.56, 154.76, 40, 60, "low", "medium"),
    ],
  },
  "a15-arm": {
    action: "DOWNSIZE",
    recommended_instance_type: "r6g.large",
    current_monthly_cost_usd: 112.42,
    recommended_monthly_cost_usd: 73.58,
    savings_monthly_usd: 38.84,
    finding_reasons: ["cpu_over_provisioned"],
    price: { basis: "list", source: "catalog", price_date: "2026-07-20" },
    options: [
      // r6g.large: 0.1008 x 730 = 73.58
      opt("r6g.large", 2, 16, 73.58, 38.84, 60, 50, "low", "medium"),
      // r7g.large: 0.1071 x 730 = 78.18
      opt("r7g.large", 2, 16, 78.18, 34.24, 60, 50, "low", "medium"),
      // r5a.large: 0.113 x 730 = 82.49
      opt("r5a.large", 2, 16, 82.49, 29.93, 60, 50, "low", "high"),
    ],
  },
  "a26-reserved": {
    action: "DOWNSIZE",
    recommended_instance_type: "m6g.large",
    current_monthly_cost_usd: 140.16,
    recommended_monthly_cost_usd: 56.21,
    // Rule version 3: reserved, so covered by its commitment (savings 0, the action stays).
    savings_monthly_usd: 0,
    finding_reasons: ["cpu_over_provisioned", "memory_over_provisioned", "commitment_covered"],
    price: { basis: "list", source: "catalog", price_date: "2026-07-20" },
    options: [
      // m6g.large: 0.077 x 730 = 56.21
      opt("m6g.large", 2, 8, 56.21, 83.95, 40, 60, "low", "high"),
      // m7g.large: 0.0816 x 730 = 59.57
      opt("m7g.large", 2, 8, 59.57, 80.59, 40, 60, "low", "high"),
      // m5a.large: 0.086 x 730 = 62.78
      opt("m5a.large", 2, 8, 62.78, 77.38, 40, 60, "low", "medium"),
    ],
  },
  "z01-azure-light": {
    action: "DOWNSIZE",
    recommended_instance_type: "Standard_D2ps_v6",
    current_monthly_cost_usd: 140.16,
    recommended_monthly_cost_usd: 51.25,
    savings_monthly_usd: 88.91,
    finding_reasons: ["cpu_over_provisioned", "memory_over_provisioned"],
    price: { basis: "list", source: "catalog", price_date: "2026-06-18" },
    options: [
      // Standard_D2ps_v6: 0.0702 x 730 = 51.25
      opt("Standard_D2ps_v6", 2, 8, 51.25, 88.91, 30, 50, "low", "high"),
      // Standard_D2ps_v5: 0.077 x 730 = 56.21
      opt("Standard_D2ps_v5", 2, 8, 56.21, 83.95, 30, 50, "low", "high"),
      // Standard_F1ams_v7: 0.0895 x 730 = 65.34
      opt("Standard_F1ams_v7", 1, 8, 65.34, 74.82, 60, 50, "low", "medium"),
    ],
  },
};

function samplesOf(vm: Vm): MetricSample[] {
  if (vm.few !== undefined) return samplesFor(vm.id, 11, 180, () => vm.few as number);
  if (vm.constant330 !== undefined) return samplesFor(vm.id, 330, 10, () => vm.constant330 as number);
  if (vm.fortnight) {
    const [before, last] = vm.fortnight;
    return samplesFor(
      vm.id,
      336,
      60,
      (i) => (i < 288 ? before : last),
      () => vm.memory as number,
    );
  }
  const [p95, max] = vm.cpu as [number, number];
  const samples = shaped(vm.id, p95, max, vm.memory);
  if (vm.memoryOnce !== undefined) samples[samples.length - 1].memory_utilization = vm.memoryOnce;
  if (vm.network) for (const s of samples) Object.assign(s, { network_in_bytes_per_s: vm.network[0], network_out_bytes_per_s: vm.network[1] });
  return samples;
}

let ctx: TestContext;
let pricing: RunningPricingApi;
let owner: { token: string; tenant: string; organizationId: string };

const api = (method: "get" | "put" | "post" | "patch", path: string) =>
  request(ctx.app)[method](path).set("Authorization", `Bearer ${owner.token}`).set("X-Service-Tenant-ID", owner.tenant);

async function registerNegotiatedPrice(accountId: string) {
  const path = `/internal/accounts/${encodeURIComponent(accountId)}/api-keys`;
  const secret = new TextEncoder().encode(TEST_SERVICE_TOKEN_SECRET);
  const created = await fetch(`${pricing.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${await signServiceToken(secret, { method: "POST", path })}` },
    body: JSON.stringify({ name: "golden fleet" }),
  });
  expect(created.status).toBe(201);
  const { key } = (await created.json()) as { key: string };
  const entry = { provider: "aws", region: "us-east-1", instance_type: "m5.xlarge", operating_system: "linux", usage_type: "on_demand", discount_percent: 30 };
  const registered = await fetch(`${pricing.url}/marketplace/providers/compute`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": key },
    body: JSON.stringify({ entries: [entry] }),
  });
  expect(registered.status).toBe(201);
}

async function analyzedItems(): Promise<Record<string, RecommendationItem>> {
  await api("post", "/api/v1/tenant/compute/recommendations/analyze").expect(200);
  const res = await api("get", "/api/v1/tenant/compute/recommendations").query({ limit: 500 }).expect(200);
  return Object.fromEntries((res.body.data.items as RecommendationItem[]).map((item) => [item.resource_id, item]));
}

beforeAll(async () => {
  pricing = await startPricingApi(TEST_SERVICE_TOKEN_SECRET, { computeCatalog: true });
  ctx = await createTestContext({ PRICING_API_URL: pricing.url });
  const signedUp = await signUp(ctx);
  owner = { token: signedUp.token, tenant: signedUp.tenant.id, organizationId: signedUp.organization.id };
  await registerNegotiatedPrice(owner.organizationId);
  const resources = FLEET.map((vm) => ({
    resource_id: vm.id,
    provider: vm.provider,
    region: REGION[vm.provider],
    instance_type: vm.type,
    operating_system: vm.os ?? "linux",
    ...(vm.arch === null ? {} : { architecture: vm.arch ?? "x86_64" }),
    ...(vm.purchase ? { purchase_option: vm.purchase } : {}),
    ...(vm.cores ? { cpu_cores: vm.cores, ram_gb: vm.ram } : {}),
  }));
  await api("put", "/api/v1/tenant/compute/resources").send({ resources }).expect(200);
  await api("post", "/api/v1/tenant/compute/metrics")
    .send({ samples: FLEET.flatMap(samplesOf) })
    .expect(200);
}, 120_000);
afterAll(async () => {
  await ctx?.close();
  await pricing?.close();
});

describe("golden fleet (right-sizing rule version 4)", () => {
  it("gives every resource the item worked out by hand", async () => {
    const items = await analyzedItems();
    expect(Object.keys(items).sort()).toEqual(FLEET.map((vm) => vm.id).sort());
    for (const [id, expected] of Object.entries(EXPECTED)) expect({ id, ...items[id] }).toMatchObject({ id, ...expected });
    // Each row adds up: savings = current - recommended, both rounded first (0 when a commitment covers it, rule version 3).
    for (const item of Object.values(items)) {
      if (item.finding_reasons.includes("commitment_covered")) expect(item.savings_monthly_usd).toBe(0);
      else if (item.current_monthly_cost_usd !== null && item.recommended_monthly_cost_usd !== null && item.action !== "TERMINATE") {
        expect(Math.round(item.savings_monthly_usd! * 100)).toBe(
          Math.round(item.current_monthly_cost_usd * 100) - Math.round(item.recommended_monthly_cost_usd * 100),
        );
      }
    }
  });

  it("stores exact nearest-rank percentiles at 0.01 resolution", async () => {
    const items = await analyzedItems();
    expect(items["a02-idle-330"].stats).toMatchObject({ cpu_p95: 1.5, cpu_max: 1.5, memory_p95: null, samples: 330 });
    expect(items["a09-exact-p95-boundary"].stats).toMatchObject({ cpu_p95: 35.9, cpu_max: 50, memory_p95: 70 });
  });

  it("the summary adds up the items", async () => {
    const items = Object.values(await analyzedItems());
    const res = await api("get", "/api/v1/tenant/compute/recommendations/summary").expect(200);
    const actionable = items.filter((i) => i.action === "DOWNSIZE" || i.action === "UPSIZE" || i.action === "TERMINATE");
    const cents = actionable.reduce((sum, i) => sum + Math.round(i.savings_monthly_usd! * 100), 0);
    expect(Math.round(res.body.data.potential_savings_monthly_usd * 100)).toBe(cents);
    expect(res.body.data.action_counts).toEqual({
      downsize: items.filter((i) => i.action === "DOWNSIZE").length,
      upsize: items.filter((i) => i.action === "UPSIZE").length,
      terminate: items.filter((i) => i.action === "TERMINATE").length,
      noop: items.filter((i) => i.action === "NOOP").length,
      no_recommendation: items.filter((i) => i.action === "NO_RECOMMENDATION").length,
      pending: 0,
    });
  });

  it("prices at list and crosses architectures when the organization's settings say so", async () => {
    await request(ctx.app)
      .patch(`/api/v1/organizations/${owner.organizationId}/settings`)
      .set("Authorization", `Bearer ${owner.token}`)
      .send({ rightsizing: { savings_basis: "list", allow_architecture_change: true } })
      .expect(200);
    const items = await analyzedItems();
    for (const [id, expected] of Object.entries(EXPECTED_LIST_ANY_ARCHITECTURE)) expect({ id, ...items[id] }).toMatchObject({ id, ...expected });
  });
});
