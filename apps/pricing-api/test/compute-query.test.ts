import request from "supertest";
import { ComputeBatchResponse, ComputePrice, InstanceTypesResponse, ProblemDocument } from "@cloudcost/contracts";
import { createTestContext, type TestContext } from "./helpers/context";
import { createApiKey } from "./helpers/keys";

let ctx: TestContext;
let key: string;
beforeAll(async () => {
  ctx = await createTestContext({}, { computeCatalog: true });
  key = await createApiKey(ctx);
});
afterAll(async () => {
  await ctx.close();
});

const compute = (body: unknown) =>
  request(ctx.app)
    .post("/v1/pricing/compute")
    .set("X-API-Key", key)
    .send(body as object);
const batch = (body: unknown) =>
  request(ctx.app)
    .post("/v1/pricing/compute/batch")
    .set("X-API-Key", key)
    .send(body as object);
const listing = (query: Record<string, string>) => request(ctx.app).get("/v1/pricing/compute/instance-types").query(query).set("X-API-Key", key);

function expectProblem(res: request.Response, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
  expect(ProblemDocument.parse(res.body)).toMatchObject({ status, code });
  return res.body as ProblemDocument;
}

describe("POST /v1/pricing/compute: catalog prices", () => {
  // Figures from the committed catalog seed (prisma/seed/compute-prices.csv.gz, see prisma/seed/PROVENANCE.md).
  it.each([
    ["aws", "us-east-1", "m5.large", "linux", 0.096, 70.08, 2, 8, "x86_64", 0, "2026-07-20", "github:aws/karpenter-provider-aws@1d92708"],
    ["azure", "eastus", "Standard_D2s_v5", "linux", 0.096, 70.08, 2, 8, "x86_64", null, "2026-06-18", "github:Azure/karpenter-provider-azure@352646f"],
    [
      "gcp",
      "us-central1",
      "n2-standard-4",
      "linux",
      0.194236,
      141.79228,
      4,
      16,
      "x86_64",
      null,
      "2026-07-30",
      "github:Cyclenerd/google-cloud-pricing-cost-calculator@fd66b26",
    ],
    [
      "gcp",
      "us-central1",
      "n2-standard-4",
      "windows",
      0.378236,
      276.11228,
      4,
      16,
      "x86_64",
      null,
      "2026-07-30",
      "github:Cyclenerd/google-cloud-pricing-cost-calculator@fd66b26",
    ],
    ["aws", "us-east-1", "m6g.large", "linux", 0.077, 56.21, 2, 8, "arm64", 0, "2026-07-20", "github:aws/karpenter-provider-aws@1d92708"],
  ])("%s %s %s %s costs %d per hour", async (provider, region, instanceType, os, hourly, monthly, cores, ram, arch, storage, priceDate, sourceName) => {
    const res = await compute({ provider, region, instance_type: instanceType, operating_system: os }).expect(200);
    expect(ComputePrice.parse(res.body)).toEqual({
      provider,
      region,
      service: "compute",
      usage_type: "on_demand",
      operating_system: os,
      instance_type: instanceType,
      architecture: arch,
      cpu_cores: cores,
      ram_gb: ram,
      currency: "USD",
      price_per_hour: hourly,
      price_per_month: monthly,
      list_price_per_hour: hourly,
      source: "catalog",
      pricing_id: null,
      note: null,
      current_generation: true,
      accelerator: null,
      burst_baseline_percent: null,
      local_storage_gb: storage,
      capabilities: [],
      price_date: priceDate,
      price_source: { name: sourceName, url: expect.stringMatching(/^https:\/\/github\.com\//) },
    });
  });

  it("prices spot rows (AWS spot_avg and GCP spot are both `spot`)", async () => {
    expect((await compute({ provider: "aws", region: "us-east-1", instance_type: "m5.large", usage_type: "spot" }).expect(200)).body).toMatchObject({
      price_per_hour: 0.0384,
      price_per_month: 28.032,
      source: "catalog",
      usage_type: "spot",
    });
    expect((await compute({ provider: "gcp", region: "us-central1", instance_type: "n2-standard-4", usage_type: "spot" }).expect(200)).body).toMatchObject({
      price_per_hour: 0.09212,
      source: "catalog",
    });
  });

  it("answers a repeated query with the same body, and echoes a non-default service (the per-row JSON is only for `compute`)", async () => {
    const query = { provider: "aws", region: "us-east-1", instance_type: "m5.xlarge" };
    const first = await compute(query).expect(200);
    const again = await compute(query).expect(200);
    expect(again.text).toBe(first.text);
    expect(first.headers["content-type"]).toBe("application/json; charset=utf-8");
    const ec2 = await compute({ ...query, service: "ec2" }).expect(200);
    expect(ec2.body).toEqual({ ...first.body, service: "ec2" });
    const windows = await compute({ ...query, operating_system: "windows" }).expect(200);
    expect(windows.body).toMatchObject({ service: "compute", operating_system: "windows" });
    expect(windows.body.price_per_hour).toBeGreaterThan(first.body.price_per_hour);
  });

  it("prefers the catalog row over a given vm shape", async () => {
    const res = await compute({ provider: "aws", region: "us-east-1", instance_type: "m5.large", vm: { cpu_cores: 64, ram_gb: 512 } });
    expect(res.body).toMatchObject({ source: "catalog", price_per_hour: 0.096, cpu_cores: 2, ram_gb: 8 });
  });
});

describe("POST /v1/pricing/compute: estimates and misses", () => {
  it("estimates an unknown type from the region's rates, within the range of its general-purpose types", async () => {
    const res = await compute({ provider: "aws", region: "us-east-1", instance_type: "m99.huge", vm: { cpu_cores: 4, ram_gb: 16 } }).expect(200);
    const price = ComputePrice.parse(res.body);
    expect(price).toMatchObject({ source: "estimate", instance_type: "m99.huge", architecture: null, cpu_cores: 4, ram_gb: 16 });
    expect(price.note).toMatch(/fitted to \d+ general-purpose/);
    const perCore = ctx.computeCatalog.current
      .region("aws", "us-east-1")
      .filter((r) => r.row.generalPurpose && !r.row.burstable && r.row.gpuCount === 0 && r.row.operatingSystem === "linux" && r.row.usageType === "on_demand")
      .map((r) => r.pricePerHour / r.cpuCores);
    expect(perCore.length).toBeGreaterThan(10);
    expect(price.price_per_hour / 4).toBeGreaterThanOrEqual(Math.min(...perCore));
    expect(price.price_per_hour / 4).toBeLessThanOrEqual(Math.max(...perCore));
    expect(price.price_per_month).toBeCloseTo(price.price_per_hour * 730, 8);
  });

  it("estimates from a vm alone (instance_type null) and falls back to OpenCost's rates where the catalog has no data", async () => {
    const res = await compute({ provider: "aws", region: "sa-east-1", vm: { cpu_cores: 2, ram_gb: 4 } }).expect(200);
    // 2 x 0.031611 + 4 x 0.004237
    expect(res.body).toMatchObject({ source: "estimate", instance_type: null, price_per_hour: 0.08017, price_per_month: 58.5241 });
    expect(res.body.note).toMatch(/OpenCost/);
  });

  it("prices Windows on AWS as Linux plus the licence rate, with a note", async () => {
    const res = await compute({ provider: "aws", region: "us-east-1", instance_type: "m5.large", operating_system: "windows" }).expect(200);
    // 0.096 + 2 x 0.046
    expect(res.body).toMatchObject({
      source: "estimate",
      operating_system: "windows",
      instance_type: "m5.large",
      price_per_hour: 0.188,
      price_per_month: 137.24,
    });
    expect(res.body.note).toMatch(/Windows Server licence of 0.046 USD per vCPU-hour/);
  });

  it("answers 404 price_not_found for an unknown type without vm, naming what was searched", async () => {
    const problem = expectProblem(await compute({ provider: "aws", region: "us-east-1", instance_type: "m99.huge" }), 404, "price_not_found");
    expect(problem.detail).toContain('"m99.huge"');
    expect(problem.detail).toContain("aws us-east-1");
    expect(problem.instance).toBe("/v1/pricing/compute");
  });

  it("never estimates spot: a spot query without a spot row is a 404, even with a vm", async () => {
    expectProblem(await compute({ provider: "azure", region: "eastus", instance_type: "Standard_D2s_v5", usage_type: "spot" }), 404, "price_not_found");
    const problem = expectProblem(
      await compute({ provider: "aws", region: "us-east-1", instance_type: "m99.huge", usage_type: "spot", vm: { cpu_cores: 2, ram_gb: 8 } }),
      404,
      "price_not_found",
    );
    expect(problem.detail).toMatch(/spot prices are never estimated/);
  });

  it.each([
    [{ region: "us-east-1", instance_type: "m5.large" }, "provider"],
    [{ provider: "aws", region: "us-east-1", vm: { cpu_cores: -2, ram_gb: 4 } }, "vm.cpu_cores"],
    [{ provider: "aws", region: "us-east-1", instance_type: "m5.large", usage_type: "reserved" }, "usage_type"],
    [{ provider: "aws", region: "us-east-1" }, "instance_type"],
  ])("answers 400 invalid_request with errors[] for %j", async (body, path) => {
    const problem = expectProblem(await compute(body), 400, "invalid_request");
    expect(problem.errors?.map((e) => e.path)).toContain(path);
  });

  it("answers 401 unauthenticated without a key, and with an unknown one", async () => {
    const body = { provider: "aws", region: "us-east-1", instance_type: "m5.large" };
    expectProblem(await request(ctx.app).post("/v1/pricing/compute").send(body), 401, "unauthenticated");
    expectProblem(
      await request(ctx.app)
        .post("/v1/pricing/compute/batch")
        .send({ items: [body] }),
      401,
      "unauthenticated",
    );
    expectProblem(await request(ctx.app).get("/v1/pricing/compute/instance-types?provider=aws&region=us-east-1"), 401, "unauthenticated");
    const bearer = await request(ctx.app).post("/v1/pricing/compute").set("Authorization", `Bearer ${key}`).send(body);
    expect(bearer.status).toBe(200);
  });
});

describe("POST /v1/pricing/compute/batch", () => {
  it("answers every item in order; bad items carry their own problem", async () => {
    const res = await batch({
      items: [
        { provider: "aws", region: "us-east-1", instance_type: "m5.large" },
        { region: "us-east-1", instance_type: "m5.large" },
        { provider: "aws", region: "us-east-1", instance_type: "m99.huge" },
        { provider: "gcp", region: "us-central1", instance_type: "n2-standard-4" },
      ],
    }).expect(200);
    const { results } = ComputeBatchResponse.parse(res.body);
    expect(results.map((r) => r.index)).toEqual([0, 1, 2, 3]);
    expect(results[0]).toMatchObject({ price: { instance_type: "m5.large", price_per_hour: 0.096 } });
    expect(results[1]).toMatchObject({ problem: { status: 400, code: "invalid_request", errors: [{ path: "provider" }] } });
    expect(results[2]).toMatchObject({ problem: { status: 404, code: "price_not_found" } });
    expect(results[3]).toMatchObject({ price: { price_per_hour: 0.194236 } });
  });

  it("answers 1000 items, and 400 for 1001 items, an empty list or a body that is not {items: [objects]}", async () => {
    const item = { provider: "azure", region: "eastus", instance_type: "Standard_D2s_v5" };
    const ok = await batch({ items: Array(1000).fill(item) }).expect(200);
    expect(ok.body.results).toHaveLength(1000);
    expect(ok.body.results[999]).toMatchObject({ index: 999, price: { price_per_hour: 0.096 } });
    expectProblem(await batch({ items: Array(1001).fill(item) }), 400, "invalid_request");
    expectProblem(await batch({ items: [] }), 400, "invalid_request");
    expectProblem(await batch({ items: [item, 42] }), 400, "invalid_request");
    expectProblem(await batch([item]), 400, "invalid_request");
    expectProblem(
      await request(ctx.app).post("/v1/pricing/compute/batch").set("X-API-Key", key).set("Content-Type", "application/json").send('"text"'),
      400,
      "malformed_json",
    );
    expectProblem(await batch({ items: { 0: item } }), 400, "invalid_request");
  });
});

describe("GET /v1/pricing/compute/instance-types", () => {
  it("lists on-demand Linux rows by default, sorted by instance type, with burstable flags", async () => {
    const res = await listing({ provider: "aws", region: "us-east-1" }).expect(200);
    const rows = InstanceTypesResponse.parse(res.body).instance_types;
    expect(rows.length).toBeGreaterThan(500);
    expect(rows.every((r) => r.operating_system === "linux" && r.usage_type === "on_demand")).toBe(true);
    const names = rows.map((r) => r.instance_type);
    expect(names).toEqual([...names].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b))));
    expect(rows.find((r) => r.instance_type === "t3.micro")).toEqual({
      instance_type: "t3.micro",
      family: "t3",
      cpu_cores: 2,
      ram_gb: 1,
      gpu_count: 0,
      burstable: true,
      architecture: "x86_64",
      operating_system: "linux",
      usage_type: "on_demand",
      price_per_hour: 0.0104,
      list_price_per_hour: 0.0104,
      currency: "USD",
      source: "catalog",
      pricing_id: null,
      current_generation: true,
      accelerator: null,
      burst_baseline_percent: 10,
      local_storage_gb: 0,
      capabilities: [],
      price_date: "2026-07-20",
      price_source: { name: "github:aws/karpenter-provider-aws@1d92708", url: "https://github.com/aws/karpenter-provider-aws/tree/1d92708" },
    });
    expect(rows.find((r) => r.instance_type === "m5.large")).toMatchObject({ burstable: false, price_per_hour: 0.096 });
  });

  it("flags Azure B-series and GCP shared-core types as burstable", async () => {
    const azure = InstanceTypesResponse.parse((await listing({ provider: "azure", region: "eastus" }).expect(200)).body).instance_types;
    expect(azure.find((r) => r.instance_type === "Standard_B2s")?.burstable).toBe(true);
    expect(azure.find((r) => r.instance_type === "Standard_B2pls_v2")?.burstable).toBe(true);
    expect(azure.find((r) => r.instance_type === "Standard_D2s_v5")?.burstable).toBe(false);
    const gcp = InstanceTypesResponse.parse((await listing({ provider: "gcp", region: "us-central1" }).expect(200)).body).instance_types;
    expect(
      gcp
        .filter((r) => r.burstable)
        .map((r) => r.instance_type)
        .sort(),
    ).toEqual(["e2-medium", "e2-micro", "e2-small", "f1-micro", "g1-small"]);
    expect(gcp.find((r) => r.instance_type === "e2-micro")).toMatchObject({ cpu_cores: 2, ram_gb: 1 });
  });

  it("filters by architecture, operating system and usage type", async () => {
    const arm = InstanceTypesResponse.parse((await listing({ provider: "aws", region: "us-east-1", architecture: "arm64" }).expect(200)).body).instance_types;
    expect(arm.length).toBeGreaterThan(100);
    expect(arm.every((r) => r.architecture === "arm64")).toBe(true);
    expect(arm.map((r) => r.instance_type)).toContain("m6g.large");
    const windows = InstanceTypesResponse.parse(
      (await listing({ provider: "gcp", region: "us-central1", operating_system: "windows" }).expect(200)).body,
    ).instance_types;
    expect(windows.find((r) => r.instance_type === "n2-standard-4")).toMatchObject({ operating_system: "windows", price_per_hour: 0.378236 });
    const spot = InstanceTypesResponse.parse((await listing({ provider: "aws", region: "us-east-1", usage_type: "spot" }).expect(200)).body).instance_types;
    expect(spot.find((r) => r.instance_type === "m5.large")).toMatchObject({ usage_type: "spot", price_per_hour: 0.0384 });
    expect((await listing({ provider: "aws", region: "nowhere-1" }).expect(200)).body).toEqual({ instance_types: [] });
  });

  it("answers 400 invalid_request without provider or region, or with a bad filter", async () => {
    expect(expectProblem(await listing({ provider: "aws" }), 400, "invalid_request").errors?.map((e) => e.path)).toContain("region");
    expect(expectProblem(await listing({ region: "us-east-1" }), 400, "invalid_request").errors?.map((e) => e.path)).toContain("provider");
    expectProblem(await listing({ provider: "aws", region: "us-east-1", architecture: "aarch64" }), 400, "invalid_request");
  });
});
