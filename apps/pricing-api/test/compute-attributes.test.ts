import request from "supertest";
import { ComputeBatchResponse, ComputePrice, InstanceTypesResponse, type InstanceTypeRow } from "@cloudcost/contracts";
import { attributeRules } from "../src/compute/catalog-attributes";
import { parseAwsInstanceSpecs } from "../src/compute/attributes";
import { createTestContext, type TestContext } from "./helpers/context";
import { createApiKey } from "./helpers/keys";

// Attribute rules on real rows of the committed seed, through the HTTP API (docs/compute-pricing.md,
// "Catalog attributes").
let ctx: TestContext;
let key: string;
beforeAll(async () => {
  ctx = await createTestContext({}, { computeCatalog: true });
  key = await createApiKey(ctx);
});
afterAll(async () => {
  await ctx.close();
});

const price = async (provider: string, region: string, instanceType: string, extra: object = {}) => {
  const res = await request(ctx.app)
    .post("/v1/pricing/compute")
    .set("X-API-Key", key)
    .send({ provider, region, instance_type: instanceType, ...extra })
    .expect(200);
  return ComputePrice.parse(res.body);
};
const listing = async (provider: string, region: string, query: Record<string, string> = {}) => {
  const res = await request(ctx.app)
    .get("/v1/pricing/compute/instance-types")
    .query({ provider, region, ...query })
    .set("X-API-Key", key)
    .expect(200);
  return new Map(InstanceTypesResponse.parse(res.body).instance_types.map((row) => [row.instance_type, row]));
};

const KARPENTER = { name: "github:aws/karpenter-provider-aws@1d92708", url: "https://github.com/aws/karpenter-provider-aws/tree/1d92708" };

describe("AWS attributes", () => {
  it("knows each GPU: an A10G type is never a T4 type, a g4ad type is AMD, Inferentia and Trainium are accelerators", async () => {
    const g5 = await price("aws", "us-east-1", "g5.2xlarge");
    const g4dn = await price("aws", "us-east-1", "g4dn.2xlarge");
    expect(g5.accelerator).toEqual({ vendor: "nvidia", model: "A10G", count: 1 });
    expect(g4dn.accelerator).toEqual({ vendor: "nvidia", model: "T4", count: 1 });
    expect(g5.accelerator).not.toEqual(g4dn.accelerator);
    expect((await price("aws", "us-east-1", "g4ad.xlarge")).accelerator).toEqual({ vendor: "amd", model: "Radeon Pro V520", count: 1 });
    expect((await price("aws", "us-east-1", "inf2.xlarge")).accelerator).toEqual({ vendor: "aws", model: "Inferentia2", count: 1 });
    expect((await price("aws", "us-east-1", "trn1.32xlarge")).accelerator).toEqual({ vendor: "aws", model: "Trainium", count: 16 });
    // g6f sizes hold a share of one L4 (their GPU memory over a whole L4's), never "0 GPUs" nor a whole one
    expect((await price("aws", "us-east-1", "g6f.large")).accelerator).toEqual({ vendor: "nvidia", model: "L4", count: 0.125 });
    expect((await price("aws", "us-east-1", "g6f.4xlarge")).accelerator).toEqual({ vendor: "nvidia", model: "L4", count: 0.5 });
    expect((await price("aws", "us-east-1", "p4d.24xlarge")).accelerator).toEqual({ vendor: "nvidia", model: "A100", count: 8 });
    // not in Karpenter's reference: the family table, with the seed's GPU count
    expect((await price("aws", "us-east-1", "p3.8xlarge")).accelerator).toEqual({ vendor: "nvidia", model: "V100", count: 4 });
    expect((await price("aws", "us-east-1", "m5.large")).accelerator).toBeNull();
  });

  it("marks previous generations: m1.small is not current, m5.large and t3.medium are", async () => {
    expect((await price("aws", "us-east-1", "m1.small")).current_generation).toBe(false);
    expect((await price("aws", "us-west-2", "m4.large")).current_generation).toBe(false);
    expect((await price("aws", "us-east-1", "t2.micro")).current_generation).toBe(false);
    expect((await price("aws", "us-east-1", "m5.large")).current_generation).toBe(true);
    expect((await price("aws", "us-east-1", "t3.medium")).current_generation).toBe(true);
  });

  it("gives burstable types their baseline per vCPU: t3.medium 20%", async () => {
    expect(await price("aws", "us-east-1", "t3.medium")).toMatchObject({ burst_baseline_percent: 20, cpu_cores: 2 });
    expect((await price("aws", "us-east-1", "t4g.xlarge")).burst_baseline_percent).toBe(40);
    expect((await price("aws", "us-east-1", "t2.nano")).burst_baseline_percent).toBe(5);
    expect((await price("aws", "us-east-1", "m5.large")).burst_baseline_percent).toBeNull();
  });

  it("gives local NVMe and its size: i3.2xlarge has 1900 GB, m5.large none, m1.small an unknown non-NVMe disk", async () => {
    expect(await price("aws", "us-east-1", "i3.2xlarge")).toMatchObject({ local_storage_gb: 1900, capabilities: ["local_nvme"] });
    expect(await price("aws", "us-east-1", "m5d.large")).toMatchObject({ local_storage_gb: 75, capabilities: ["local_nvme"] });
    expect(await price("aws", "us-east-1", "m5.large")).toMatchObject({ local_storage_gb: 0, capabilities: [] });
    expect(await price("aws", "us-east-1", "m1.small")).toMatchObject({ local_storage_gb: null, capabilities: [] });
    // i3.metal is not in the reference: the family says NVMe, the size stays unknown
    expect(await price("aws", "us-east-1", "i3.metal")).toMatchObject({ local_storage_gb: null, capabilities: ["bare_metal", "local_nvme"] });
  });

  it("says how old each price is and where it came from", async () => {
    expect(await price("aws", "us-east-1", "m5.large")).toMatchObject({ source: "catalog", price_date: "2026-07-20", price_source: KARPENTER });
    expect(await price("aws", "eu-west-1", "m5.large")).toMatchObject({
      price_date: "2024-04-04",
      price_source: { name: "github:vantage-sh/ec2instances.info@a19cd85", url: "https://github.com/vantage-sh/ec2instances.info/tree/a19cd85" },
    });
  });

  it("carries the Linux row's attributes on a Windows estimate, and nulls on an estimate from a vm shape", async () => {
    const windows = await price("aws", "us-east-1", "i3.2xlarge", { operating_system: "windows" });
    expect(windows).toMatchObject({
      source: "estimate",
      local_storage_gb: 1900,
      capabilities: ["local_nvme"],
      price_date: "2026-07-20",
      price_source: KARPENTER,
    });
    const shape = await price("aws", "us-east-1", "zz.unknown", { vm: { cpu_cores: 2, ram_gb: 8 } });
    expect(shape).toMatchObject({
      source: "estimate",
      current_generation: null,
      accelerator: null,
      burst_baseline_percent: null,
      local_storage_gb: null,
      capabilities: null,
      price_date: null,
      price_source: null,
    });
  });
});

describe("Azure attributes", () => {
  it("marks confidential, HPC and constrained-vCPU sizes; a D4s_v5 is none of them", async () => {
    expect((await price("azure", "eastus", "Standard_DC2as_v5")).capabilities).toEqual(["confidential"]);
    expect((await price("azure", "eastus", "Standard_EC2ads_v5")).capabilities).toEqual(["confidential"]);
    expect((await price("azure", "eastus", "Standard_HB120rs_v3")).capabilities).toEqual(["hpc"]);
    expect((await price("azure", "eastus", "Standard_E16-4ads_v5")).capabilities).toEqual(["constrained_vcpu"]);
    expect((await price("azure", "eastus", "Standard_L8s_v3")).capabilities).toEqual(["local_nvme"]);
    expect(await price("azure", "eastus", "Standard_D4s_v5")).toMatchObject({ capabilities: [], current_generation: true, accelerator: null });
  });

  it("marks v1/v2 sizes previous generation, but not the Bsv2 successors of B", async () => {
    expect((await price("azure", "eastus", "Standard_D2_v2")).current_generation).toBe(false);
    expect((await price("azure", "eastus", "Standard_DS1")).current_generation).toBe(false);
    expect((await price("azure", "eastus", "Standard_F2s_v2")).current_generation).toBe(false);
    expect((await price("azure", "eastus", "Standard_B2s")).current_generation).toBe(false);
    expect((await price("azure", "eastus", "Standard_B2s_v2")).current_generation).toBe(true);
    expect((await price("azure", "eastus", "Standard_D2s_v3")).current_generation).toBe(true);
  });

  it("knows the N-series GPUs and the B-series baselines", async () => {
    expect((await price("azure", "eastus", "Standard_NC4as_T4_v3")).accelerator).toEqual({ vendor: "nvidia", model: "T4", count: 1 });
    // partitioned sizes: a third of an A10 is not a whole one, although the spec list says 1 for both
    expect((await price("azure", "eastus", "Standard_NV12ads_A10_v5")).accelerator).toEqual({ vendor: "nvidia", model: "A10", count: 0.3333 });
    expect((await price("azure", "eastus", "Standard_NV36ads_A10_v5")).accelerator).toEqual({ vendor: "nvidia", model: "A10", count: 1 });
    expect((await price("azure", "eastus", "Standard_NV8ads_V710_v5")).accelerator).toEqual({ vendor: "amd", model: "Radeon PRO V710", count: null });
    expect((await price("azure", "eastus", "Standard_ND96isr_H100_v5")).accelerator).toEqual({ vendor: "nvidia", model: "H100", count: 8 });
    expect((await price("azure", "eastus", "Standard_B2s")).burst_baseline_percent).toBe(20);
    expect((await price("azure", "eastus", "Standard_B2ts_v2")).burst_baseline_percent).toBe(20);
    expect((await price("azure", "eastus", "Standard_B2ls_v2")).burst_baseline_percent).toBe(30);
    expect((await price("azure", "eastus", "Standard_B2s_v2")).burst_baseline_percent).toBe(40);
    // the spec list has no disk figures
    expect((await price("azure", "eastus", "Standard_D4s_v5")).local_storage_gb).toBeNull();
  });
});

describe("GCP attributes", () => {
  it("keeps n1 current, knows shared-core baselines and the GPU of accelerator-optimized types", async () => {
    expect(await price("gcp", "us-central1", "n1-standard-4")).toMatchObject({ current_generation: true, accelerator: null, local_storage_gb: null });
    expect((await price("gcp", "us-central1", "e2-medium")).burst_baseline_percent).toBe(50);
    expect((await price("gcp", "us-central1", "e2-micro")).burst_baseline_percent).toBe(12.5);
    expect((await price("gcp", "us-central1", "g2-standard-4")).accelerator).toEqual({ vendor: "nvidia", model: "L4", count: 1 });
    expect((await price("gcp", "us-central1", "a2-ultragpu-1g")).accelerator).toEqual({ vendor: "nvidia", model: "A100 80GB", count: 1 });
    expect((await price("gcp", "us-central1", "a2-highgpu-1g")).accelerator).toEqual({ vendor: "nvidia", model: "A100", count: 1 });
    expect((await price("gcp", "us-central1", "c3-standard-4-lssd")).capabilities).toEqual(["local_nvme"]);
    expect((await price("gcp", "us-central1", "h3-standard-88")).capabilities).toEqual(["hpc"]);
  });
});

describe("every answer carries the attributes", () => {
  it("the listing rows, with source catalog, equal to the query's attributes", async () => {
    const rows = await listing("aws", "us-east-1");
    const m1 = rows.get("m1.small") as InstanceTypeRow;
    expect(m1).toMatchObject({ source: "catalog", current_generation: false, price_date: "2026-07-20", price_source: KARPENTER });
    const {
      provider,
      region,
      service,
      usage_type,
      operating_system,
      instance_type,
      architecture,
      cpu_cores,
      ram_gb,
      currency,
      price_per_hour,
      price_per_month,
      source,
      note,
      ...attrs
    } = await price("aws", "us-east-1", "g5.2xlarge");
    expect(rows.get("g5.2xlarge")).toMatchObject({ ...attrs, source });
    for (const row of rows.values()) {
      expect(row.capabilities).toEqual(expect.any(Array));
      expect(row.price_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      if (row.gpu_count > 0) expect(row.accelerator).toMatchObject({ vendor: expect.any(String), model: expect.any(String) });
      if (row.burstable) expect(row.burst_baseline_percent).toBeGreaterThan(0);
      else expect(row.burst_baseline_percent).toBeNull();
    }
  });

  it("the batch results", async () => {
    const res = await request(ctx.app)
      .post("/v1/pricing/compute/batch")
      .set("X-API-Key", key)
      .send({
        items: [
          { provider: "aws", region: "us-east-1", instance_type: "t3.medium" },
          { provider: "azure", region: "eastus", instance_type: "Standard_DC2as_v5" },
        ],
      })
      .expect(200);
    const [t3, dc] = ComputeBatchResponse.parse(res.body).results.map((r) => ("price" in r ? r.price : null));
    expect(t3).toMatchObject({ burst_baseline_percent: 20, current_generation: true, capabilities: [] });
    expect(dc).toMatchObject({ capabilities: ["confidential"], price_date: "2026-06-18" });
  });
});

describe("rules without the committed tables", () => {
  it("say null rather than guess: an AWS type missing from the spec table has unknown local storage", () => {
    const rules = attributeRules(parseAwsInstanceSpecs("instance_type,local_nvme_gb,accelerator_vendor,accelerator_model,accelerator_count\n"));
    const attrs = rules({ provider: "aws", family: "m5", instanceType: "m5.large", gpuCount: 0, cpuCores: "2" });
    expect(attrs).toMatchObject({ localStorageGb: null, accelerator: null, currentGeneration: true, capabilities: [] });
    expect(rules({ provider: "aws", family: "zz9", instanceType: "zz9.large", gpuCount: 2, cpuCores: "8" }).accelerator).toEqual({
      vendor: null,
      model: null,
      count: 2,
    });
    expect(rules({ provider: "oracle", family: "e4", instanceType: "VM.Standard.E4", gpuCount: 0, cpuCores: "2" })).toEqual({
      currentGeneration: null,
      accelerator: null,
      burstBaselinePercent: null,
      localStorageGb: null,
      capabilities: [],
    });
  });
});
