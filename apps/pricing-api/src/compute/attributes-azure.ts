import { withCapabilities, type Accelerator, type AttributeInput, type CatalogAttributes } from "./attributes";

// Series whose versions up to the one given are previous generation (Azure's "Previous generation
// sizes" page and the series pages' "previous generation series" notice; issue 23: v1/v2 and Basic).
// B v1 is previous, while its Bsv2/Basv2/Bpsv2 successors are current; series not listed are current.
const PREVIOUS_UP_TO: Record<string, number> = { A: 2, B: 1, D: 2, DS: 2, F: 2, G: 1, GS: 1, L: 2, NC: 2, ND: 2, NV: 2 };

// Azure's B-series tables ("Base CPU performance of VM", on the 0-100% per-vCPU scale Azure uses since 2024).
const B_V1_BASELINES: Record<string, number> = {
  Standard_B1ls: 5,
  Standard_B1s: 10,
  Standard_B1ms: 20,
  Standard_B2s: 20,
  Standard_B2ms: 30,
  Standard_B4ms: 22.5,
  Standard_B8ms: 17,
  Standard_B12ms: 17,
  Standard_B16ms: 17,
  Standard_B20ms: 17,
};
// Bsv2, Basv2, Bpsv2: the size's letters decide, `t` 20%, `l` 30%, otherwise 40% (B2ts_v2, B2als_v2, B2ps_v2).
const B_V2_SIZE = /^Standard_B\d+[ap]?([tl]?)s_v2$/;

// GPU and FPGA series by the SKU family the seed carries (Azure's N-series and NP-series pages).
const ACCELERATORS: Record<string, { vendor: string; model: string }> = {
  "Standard NCASv3_T4 Family": { vendor: "nvidia", model: "T4" },
  "Standard NDASv4_A100 Family": { vendor: "nvidia", model: "A100" },
  "standard NDAMSv4_A100Family": { vendor: "nvidia", model: "A100 80GB" },
  StandardNCADSA100v4Family: { vendor: "nvidia", model: "A100 80GB" },
  StandardNCADSA10v4Family: { vendor: "nvidia", model: "A10" },
  StandardNVADSA10v5Family: { vendor: "nvidia", model: "A10" },
  StandardNCCads2023Family: { vendor: "nvidia", model: "H100" },
  StandardNCadsH100v5Family: { vendor: "nvidia", model: "H100" },
  standardNDSH100v5Family: { vendor: "nvidia", model: "H100" },
  standardNDISRH200V5Family: { vendor: "nvidia", model: "H200" },
  standardNCSv3Family: { vendor: "nvidia", model: "V100" },
  standardNDSv2Family: { vendor: "nvidia", model: "V100" },
  standardNVSv3Family: { vendor: "nvidia", model: "M60" },
  standardNVSv4Family: { vendor: "amd", model: "Radeon Instinct MI25" },
  standardNDISv5MI300XFamily: { vendor: "amd", model: "Instinct MI300X" },
  StandardNGADSV620v1Family: { vendor: "amd", model: "Radeon PRO V620" },
  StandardNVadsV710v5Family: { vendor: "amd", model: "Radeon PRO V710" },
  standardNPSFamily: { vendor: "xilinx", model: "Alveo U250" },
};

// Series whose smaller sizes hold a partition of one GPU, where the spec list rounds the count up to 1.
// NVv4 and NVadsA10 v5: the share per size from Azure's series pages. NCads A10 v4, NGads V620 and
// NVads V710: the share is not in the source (it lists 1 or 0), so the count is unknown (null).
const GPU_SHARES: Record<string, number> = {
  Standard_NV4as_v4: 0.125,
  Standard_NV8as_v4: 0.25,
  Standard_NV16as_v4: 0.5,
  Standard_NV32as_v4: 1,
  Standard_NV6ads_A10_v5: 0.1667,
  Standard_NV12ads_A10_v5: 0.3333,
  Standard_NV18ads_A10_v5: 0.5,
  Standard_NV36ads_A10_v5: 1,
  Standard_NV36adms_A10_v5: 1,
  Standard_NV72ads_A10_v5: 2,
};
const PARTITIONED_UNKNOWN = new Set(["StandardNCADSA10v4Family", "StandardNGADSV620v1Family", "StandardNVadsV710v5Family"]);

const SIZE = /^(?:Standard|Basic)_([A-Z]+)\d/;
const VERSION = /_v(\d+)$/;

function currentGeneration(row: AttributeInput): boolean | null {
  if (row.instanceType.startsWith("Basic_")) return false;
  const series = SIZE.exec(row.instanceType)?.[1];
  if (!series) return null;
  const version = Number(VERSION.exec(row.instanceType)?.[1] ?? 1);
  const upTo = PREVIOUS_UP_TO[series];
  return upTo === undefined || version > upTo;
}

function baseline(row: AttributeInput): number | null {
  const v1 = B_V1_BASELINES[row.instanceType];
  if (v1 !== undefined) return v1;
  const v2 = B_V2_SIZE.exec(row.instanceType);
  if (!v2) return null;
  return v2[1] === "t" ? 20 : v2[1] === "l" ? 30 : 40;
}

function accelerator(row: AttributeInput): Accelerator | null {
  const known = ACCELERATORS[row.family];
  if (known) {
    const share = GPU_SHARES[row.instanceType];
    const count = share ?? (PARTITIONED_UNKNOWN.has(row.family) || row.gpuCount === 0 ? null : row.gpuCount);
    return { ...known, count };
  }
  return row.gpuCount > 0 ? { vendor: null, model: null, count: row.gpuCount } : null;
}

export function azureAttributes(row: AttributeInput): CatalogAttributes {
  const name = row.instanceType;
  return {
    currentGeneration: currentGeneration(row),
    accelerator: accelerator(row),
    burstBaselinePercent: baseline(row),
    // The spec list the seed uses gives no disk figures.
    localStorageGb: null,
    capabilities: withCapabilities({
      // DC/EC: confidential computing (SGX, SEV-SNP, TDX); NCC: confidential GPU.
      confidential: /^Standard_(DC|EC|NCC)\d/.test(name),
      hpc: /^Standard_H[A-Z]?\d/.test(name),
      // Constrained-vCPU sizes: the second number is the active vCPU count (E16-4ads_v5, DS11-1_v2).
      constrained_vcpu: /^Standard_[A-Z]+\d+-\d+/.test(name),
      // L-series from v2 on: local NVMe disks (Ls v1 had SATA SSD).
      local_nvme: /^Standard_L\d+[a-z]*_v([2-9])$/.test(name),
      fpga: /^Standard_NP\d/.test(name),
    }),
  };
}
