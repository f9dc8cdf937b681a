import { withCapabilities, type Accelerator, type AttributeInput, type CatalogAttributes } from "./attributes";

// Shared-core machine types (Google's machine-type docs, "Shared-core VMs"): the sustained fraction of
// the VM's vCPUs. e2-micro/small/medium have 2 vCPUs sharing 0.25/0.5/1 of a core's time, f1-micro
// 0.2 and g1-small 0.5 of 1 vCPU; the percentage is per vCPU of the row.
const SHARED_CORE_BASELINES: Record<string, number> = { "e2-micro": 12.5, "e2-small": 25, "e2-medium": 50, "f1-micro": 20, "g1-small": 50 };

// Accelerator-optimized series (Google's GPU machine types): the GPU is fixed by the machine type.
// A source GPU count of 0 means a fractional share of one GPU: the count is then unknown.
const GPU_MACHINES: [RegExp, Omit<Accelerator, "count">][] = [
  [/^a2-ultragpu-/, { vendor: "nvidia", model: "A100 80GB" }],
  [/^a2-/, { vendor: "nvidia", model: "A100" }],
  [/^a3-ultragpu-/, { vendor: "nvidia", model: "H200" }],
  [/^a3-/, { vendor: "nvidia", model: "H100" }],
  [/^a4-/, { vendor: "nvidia", model: "B200" }],
  [/^g2-/, { vendor: "nvidia", model: "L4" }],
  [/^g4-/, { vendor: "nvidia", model: "RTX PRO 6000" }],
];

function accelerator(row: AttributeInput): Accelerator | null {
  const known = GPU_MACHINES.find(([pattern]) => pattern.test(row.instanceType))?.[1];
  if (known) return { ...known, count: row.gpuCount > 0 ? row.gpuCount : null };
  return row.gpuCount > 0 ? { vendor: null, model: null, count: row.gpuCount } : null;
}

export function gcpAttributes(row: AttributeInput): CatalogAttributes {
  return {
    // Google does not retire machine series into a previous generation: n1, f1 and g1 stay current.
    currentGeneration: true,
    accelerator: accelerator(row),
    burstBaselinePercent: SHARED_CORE_BASELINES[row.instanceType] ?? null,
    // The source gives no local SSD sizes for the bundled-SSD (-lssd, z3) types.
    localStorageGb: null,
    capabilities: withCapabilities({
      local_nvme: row.instanceType.includes("-lssd") || row.family === "z3",
      hpc: row.family === "h3",
    }),
  };
}
