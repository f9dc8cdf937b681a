import path from "node:path";
import type { CatalogRow } from "./catalog-file";

/**
 * What the catalog says a type is, beyond vCPU, memory and GPU count (docs/api.md, "Compute prices"; rules and
 * their provenance in docs/compute-pricing.md, "Catalog attributes"). `null` means the seed cannot tell.
 */
export interface CatalogAttributes {
  currentGeneration: boolean | null;
  accelerator: Accelerator | null;
  /** Sustained share of each vCPU, in percent, of a burstable or shared-core type. */
  burstBaselinePercent: number | null;
  localStorageGb: number | null;
  /** Sorted; special-purpose traits that make a type a poor right-sizing target for ordinary workloads. */
  capabilities: Capability[];
}

export interface Accelerator {
  vendor: string | null;
  model: string | null;
  count: number | null;
}

export type Capability = "bare_metal" | "confidential" | "constrained_vcpu" | "fpga" | "hpc" | "local_nvme";

export type AttributeInput = Pick<CatalogRow, "provider" | "family" | "instanceType" | "gpuCount" | "cpuCores">;

/** One row of prisma/seed/aws-instance-specs.csv (Karpenter's instance-type reference). */
export interface AwsInstanceSpec {
  localNvmeGb: number;
  accelerator: Accelerator | null;
}

export const AWS_SPECS_FILE = path.resolve(__dirname, "../../prisma/seed/aws-instance-specs.csv");

export function parseAwsInstanceSpecs(text: string): Map<string, AwsInstanceSpec> {
  const specs = new Map<string, AwsInstanceSpec>();
  const [header, ...lines] = text.trim().split("\n");
  if (header !== "instance_type,local_nvme_gb,accelerator_vendor,accelerator_model,accelerator_count") {
    throw new Error("aws-instance-specs.csv: unexpected header");
  }
  for (const line of lines) {
    const [type, nvme, vendor, model, count] = line.split(",");
    // A fractional count (g6f, gr6f) is the type's share of one GPU.
    specs.set(type, { localNvmeGb: Number(nvme), accelerator: vendor ? { vendor, model, count: Number(count) } : null });
  }
  return specs;
}

export const withCapabilities = (flags: Partial<Record<Capability, boolean>>): Capability[] =>
  (Object.keys(flags) as Capability[]).filter((c) => flags[c]).sort();
