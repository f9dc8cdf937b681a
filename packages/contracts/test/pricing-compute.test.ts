import {
  ComputeBatchRequest,
  ComputeBatchResponse,
  ComputePrice,
  ComputePriceQuery,
  InstanceTypesQuery,
  InstanceTypesResponse,
  ProblemDocument,
} from "../src/index.js";
import { accept, reject } from "./helpers.js";

const price = {
  provider: "aws",
  region: "us-east-1",
  service: "compute",
  usage_type: "on_demand",
  operating_system: "linux",
  instance_type: "m5.large",
  architecture: "x86_64",
  cpu_cores: 2,
  ram_gb: 8,
  currency: "USD",
  price_per_hour: 0.096,
  price_per_month: 70.08,
  source: "catalog",
};
const problem = {
  type: "https://docs.costs.example.com/problems/invalid-request",
  title: "Invalid request",
  status: 400,
  detail: "provider is required",
  instance: "/v1/pricing/compute",
  code: "invalid_request",
  errors: [{ path: "provider", message: "Required" }],
  request_id: "req_01JD8X3ZK2",
};

describe("ComputePriceQuery", () => {
  it("fills defaults for an instance type query", () => {
    expect(accept(ComputePriceQuery, { provider: "aws", region: "us-east-1", instance_type: "m5.large" })).toEqual({
      provider: "aws",
      region: "us-east-1",
      instance_type: "m5.large",
      operating_system: "linux",
      usage_type: "on_demand",
      service: "compute",
    });
  });
  it("accepts a vm shape instead of an instance type", () => {
    accept(ComputePriceQuery, { provider: "gcp", region: "us-central1", vm: { cpu_cores: 4, ram_gb: 16 }, usage_type: "spot" });
  });
  it.each([
    [{ region: "us-east-1", instance_type: "m5.large" }, ["provider"]],
    [{ provider: "aws", instance_type: "m5.large" }, ["region"]],
    [{ provider: "aws", region: "us-east-1" }, ["instance_type"]],
    [{ provider: "aws", region: "us-east-1", vm: { cpu_cores: 0, ram_gb: 4 } }, ["vm", "cpu_cores"]],
    [{ provider: "aws", region: "us-east-1", vm: { cpu_cores: 2 } }, ["vm", "ram_gb"]],
    [{ provider: "aws", region: "us-east-1", instance_type: "m5.large", operating_system: "macos" }, ["operating_system"]],
    [{ provider: "aws", region: "us-east-1", instance_type: "m5.large", usage_type: "reserved" }, ["usage_type"]],
    [{ provider: "aws", region: "us-east-1", instance_type: "m5.large", usage_type: "ON_DEMAND" }, ["usage_type"]],
  ])("rejects %j", (query, path) => {
    reject(ComputePriceQuery, query, path);
  });
});

describe("ComputePrice", () => {
  it("accepts catalog prices and estimates with a note", () => {
    accept(ComputePrice, price);
    accept(ComputePrice, {
      ...price,
      instance_type: null,
      architecture: null,
      source: "estimate",
      note: "priced from per-vCPU-hour and per-GB-hour rates",
    });
  });
  it("rejects an unknown source, a negative price and a missing field", () => {
    reject(ComputePrice, { ...price, source: "guess" }, ["source"]);
    reject(ComputePrice, { ...price, price_per_hour: -1 }, ["price_per_hour"]);
    reject(ComputePrice, { ...price, price_per_month: undefined }, ["price_per_month"]);
  });
});

describe("catalog attributes", () => {
  const attributes = {
    current_generation: true,
    accelerator: { vendor: "nvidia", model: "A10G", count: 1 },
    burst_baseline_percent: null,
    local_storage_gb: 450,
    capabilities: ["local_nvme"],
    price_date: "2026-07-20",
    price_source: { name: "github:aws/karpenter-provider-aws@1d92708", url: "https://github.com/aws/karpenter-provider-aws/tree/1d92708" },
  };
  it("are carried by prices and listing rows, and stay optional for answers of an earlier pricing API", () => {
    expect(accept(ComputePrice, { ...price, ...attributes })).toMatchObject(attributes);
    accept(ComputePrice, price);
    accept(ComputePrice, {
      ...price,
      source: "estimate",
      current_generation: null,
      accelerator: null,
      local_storage_gb: null,
      capabilities: null,
      price_date: null,
      price_source: null,
    });
    accept(ComputePrice, {
      ...attributes,
      ...price,
      accelerator: { vendor: "amd", model: "Radeon PRO V620", count: null },
      price_date: "2026-07-20T13:44:30Z",
    });
  });
  it.each([
    [{ burst_baseline_percent: 120 }, ["burst_baseline_percent"]],
    [{ local_storage_gb: -1 }, ["local_storage_gb"]],
    [{ accelerator: { vendor: "nvidia", model: "T4", count: 0 } }, ["accelerator", "count"]],
    [{ accelerator: { vendor: "nvidia", model: "T4" } }, ["accelerator", "count"]],
    [{ capabilities: "hpc" }, ["capabilities"]],
    [{ price_date: "July 2026" }, ["price_date"]],
    [{ price_source: { name: "import" } }, ["price_source", "url"]],
    [{ current_generation: "yes" }, ["current_generation"]],
  ])("rejects %j", (change, path) => {
    reject(ComputePrice, { ...price, ...attributes, ...change }, path);
  });
});

describe("batch", () => {
  it("accepts 1 to 1000 objects, validated later one by one", () => {
    accept(ComputeBatchRequest, { items: [{ provider: "aws" }, {}] });
    accept(ComputeBatchRequest, { items: Array(1000).fill({}) });
    reject(ComputeBatchRequest, { items: [] }, ["items"]);
    reject(ComputeBatchRequest, { items: Array(1001).fill({}) }, ["items"]);
    reject(ComputeBatchRequest, { items: [1] }, ["items", 0]);
    reject(ComputeBatchRequest, { items: [[]] }, ["items", 0]);
    reject(ComputeBatchRequest, [{}]);
  });
  it("results carry either a price or a problem", () => {
    accept(ComputeBatchResponse, {
      results: [
        { index: 0, price },
        { index: 1, problem },
      ],
    });
    reject(ComputeBatchResponse, { results: [{ index: 0 }] });
    reject(ComputeBatchResponse, { results: [{ index: -1, price }] });
  });
});

describe("ProblemDocument", () => {
  it("accepts RFC 9457 problems with extension members", () => {
    const parsed = accept(ProblemDocument, { ...problem, retry_after: 5 });
    expect(parsed).toHaveProperty("retry_after", 5);
    accept(ProblemDocument, { ...problem, status: 401, code: "unauthenticated", errors: undefined });
  });
  it.each([
    [{ code: "InvalidRequest" }, ["code"]],
    [{ code: "invalid-request" }, ["code"]],
    [{ status: "400" }, ["status"]],
    [{ status: 99 }, ["status"]],
    [{ type: "not a uri" }, ["type"]],
    [{ title: undefined }, ["title"]],
    [{ errors: [{ path: "provider" }] }, ["errors", 0, "message"]],
  ])("rejects %j", (change, path) => {
    reject(ProblemDocument, { ...problem, ...change }, path);
  });
});

describe("instance types", () => {
  it("requires provider and region", () => {
    accept(InstanceTypesQuery, { provider: "aws", region: "us-east-1", architecture: "arm64", usage_type: "spot" });
    reject(InstanceTypesQuery, { region: "us-east-1" }, ["provider"]);
    reject(InstanceTypesQuery, { provider: "aws" }, ["region"]);
    reject(InstanceTypesQuery, { provider: "aws", region: "us-east-1", architecture: "aarch64" }, ["architecture"]);
    reject(InstanceTypesQuery, { provider: "aws", region: "us-east-1", usage_type: "reserved" }, ["usage_type"]);
  });
  it("defaults to on-demand Linux rows", () => {
    expect(accept(InstanceTypesQuery, { provider: "aws", region: "us-east-1" })).toEqual({
      provider: "aws",
      region: "us-east-1",
      operating_system: "linux",
      usage_type: "on_demand",
    });
  });
  it("lists catalog rows", () => {
    const row = {
      instance_type: "t4g.medium",
      family: "t4g",
      cpu_cores: 2,
      ram_gb: 4,
      gpu_count: 0,
      burstable: true,
      architecture: "arm64",
      operating_system: "linux",
      usage_type: "on_demand",
      price_per_hour: 0.0336,
      currency: "USD",
    };
    accept(InstanceTypesResponse, { instance_types: [row] });
    accept(InstanceTypesResponse, {
      instance_types: [{ ...row, source: "catalog", current_generation: true, burst_baseline_percent: 20, capabilities: [], accelerator: null }],
    });
    reject(InstanceTypesResponse, { instance_types: [{ ...row, source: "guess" }] }, ["instance_types", 0, "source"]);
    reject(InstanceTypesResponse, { instance_types: [{ ...row, gpu_count: 0.5 }] }, ["instance_types", 0, "gpu_count"]);
    reject(InstanceTypesResponse, { instance_types: [{ ...row, burstable: undefined }] }, ["instance_types", 0, "burstable"]);
  });
});
