import { withCapabilities, type Accelerator, type AttributeInput, type AwsInstanceSpec, type CatalogAttributes } from "./attributes";

// AWS's previous-generation families (aws.amazon.com/ec2/previous-generation and the EC2 User Guide's
// "Previous generation instances"), as issue 23 lists them, plus cr1 and g3s of the same generations.
const PREVIOUS_GENERATION = new Set(["m1", "m2", "m3", "m4", "c1", "c3", "c4", "cr1", "r3", "r4", "t1", "t2", "i2", "g2", "g3", "g3s", "p2"]);

// Baseline per vCPU of the burstable families, by size (EC2 User Guide, "Key concepts for burstable
// performance instances", the baseline-utilization-per-vCPU column). t2.2xlarge is 16.875% (135% / 8).
const BASELINES: Record<string, Record<string, number>> = {
  t2: { nano: 5, micro: 10, small: 20, medium: 20, large: 30, xlarge: 22.5, "2xlarge": 16.875 },
  t3: { nano: 5, micro: 10, small: 20, medium: 20, large: 30, xlarge: 40, "2xlarge": 40 },
  t3a: { nano: 5, micro: 10, small: 20, medium: 20, large: 30, xlarge: 40, "2xlarge": 40 },
  t4g: { nano: 5, micro: 10, small: 20, medium: 20, large: 30, xlarge: 40, "2xlarge": 40 },
};

// Accelerators of the families Karpenter's reference does not document (AWS's accelerated-computing
// instance pages); the count is the seed's gpu_count, or the per-size figure given here.
const UNDOCUMENTED_ACCELERATORS: Record<string, { vendor: string; model: string; counts?: Record<string, number> }> = {
  p2: { vendor: "nvidia", model: "K80" },
  p3: { vendor: "nvidia", model: "V100" },
  g2: { vendor: "nvidia", model: "GRID K520" },
  g3: { vendor: "nvidia", model: "M60" },
  g3s: { vendor: "nvidia", model: "M60" },
  dl1: { vendor: "habana", model: "Gaudi" },
  f1: { vendor: "xilinx", model: "Virtex UltraScale+ VU9P", counts: { "2xlarge": 1, "4xlarge": 2, "16xlarge": 8 } },
};

// Families whose instance store is not NVMe (HDD or SATA SSD): Karpenter's reference only gives NVMe
// sizes, so their local storage is unknown rather than 0.
const NON_NVME_INSTANCE_STORE = new Set(["m1", "m2", "m3", "c1", "c3", "cr1", "r3", "i2", "d2", "h1", "x1", "x1e", "g2"]);

// Families with NVMe instance storage, for types the reference does not document: a `d` in the
// family's suffix (m5d, c6gd, r6idn, x2iedn, g4dn) and the storage-optimized i3/i4/i7/i8/im4gn/is4gen.
const NVME_FAMILY = /^([a-z]+\d+[a-z]*d[a-z]*|i[3-9][a-z]*|im4gn|is4gen)$/;

const FPGA_FAMILIES = new Set(["f1", "f2"]);
const HPC_FAMILY = /^hpc\d/;

function undocumentedAccelerator(row: AttributeInput, size: string): Accelerator | null {
  const known = UNDOCUMENTED_ACCELERATORS[row.family];
  if (!known) return row.gpuCount > 0 ? { vendor: null, model: null, count: row.gpuCount } : null;
  const count = known.counts?.[size] ?? row.gpuCount;
  return count > 0 ? { vendor: known.vendor, model: known.model, count } : null;
}

export function awsAttributes(row: AttributeInput, spec: AwsInstanceSpec | undefined): CatalogAttributes {
  const size = row.instanceType.slice(row.instanceType.indexOf(".") + 1);
  const accelerator = spec ? spec.accelerator : undocumentedAccelerator(row, size);
  const localStorageGb = spec && !NON_NVME_INSTANCE_STORE.has(row.family) ? spec.localNvmeGb || 0 : null;
  const nvme = spec ? spec.localNvmeGb > 0 : NVME_FAMILY.test(row.family);
  return {
    currentGeneration: !PREVIOUS_GENERATION.has(row.family),
    accelerator,
    burstBaselinePercent: BASELINES[row.family]?.[size] ?? null,
    localStorageGb,
    capabilities: withCapabilities({
      local_nvme: nvme,
      hpc: HPC_FAMILY.test(row.family),
      fpga: FPGA_FAMILIES.has(row.family),
      bare_metal: size.startsWith("metal"),
    }),
  };
}
