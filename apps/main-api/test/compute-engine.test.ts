import { Decimal } from "@cloudcost/decimal";
import type { InstanceTypeRow } from "@cloudcost/contracts";
import { type CurrentShape, decide as decideV2, isBurstable, monthly, type RuleSettings, type UsageStats } from "../src/compute/rightsizing";

const row = (instance_type: string, cpu_cores: number, ram_gb: number, price_per_hour: number, extra: Partial<InstanceTypeRow> = {}): InstanceTypeRow => ({
  instance_type,
  family: instance_type.split(".")[0],
  cpu_cores,
  ram_gb,
  gpu_count: 0,
  burstable: false,
  architecture: "x86_64",
  operating_system: "linux",
  usage_type: "on_demand",
  price_per_hour,
  currency: "USD",
  ...extra,
});

const catalog = [
  row("t3.large", 2, 8, 0.0832, { burstable: true }),
  row("m5.large", 2, 8, 0.096),
  row("m5.xlarge", 4, 16, 0.192),
  row("c5.xlarge", 4, 8, 0.17),
  row("r5.large", 2, 16, 0.126),
  row("g4dn.xlarge", 4, 16, 0.526, { gpu_count: 1 }),
  row("g4dn.2xlarge", 8, 32, 0.752, { gpu_count: 1 }),
  row("p3.8xlarge", 32, 244, 12.24, { gpu_count: 4 }),
];
const targets: RuleSettings = { cpuTargetPercent: 70, memoryTargetPercent: 80, allowArchitectureChange: false, savingsBasis: "effective" };
const day = 86_400_000;
const stats = (cpuP95: number, cpuMax: number, memoryP95: number | null = null, samples = 100, spanMs = 2 * day): UsageStats => ({
  samples,
  windowStart: new Date(0),
  windowEnd: new Date(spanMs),
  cpuP95,
  cpuMax,
  memoryP95,
  memorySamples: memoryP95 === null ? 0 : samples,
  memoryStart: memoryP95 === null ? null : new Date(0),
  memoryEnd: memoryP95 === null ? null : new Date(spanMs),
  networkSamples: 0,
  networkLow: 0,
});
const current = (instanceType: string, cpuCores: number | null = null, ramGb: number | null = null): CurrentShape => ({
  instanceType,
  cpuCores,
  ramGb,
  architecture: null,
});
interface View {
  currentHourly: number | null;
  catalog: InstanceTypeRow[];
}
const priced = (hourly: number | null): View => ({ currentHourly: hourly, catalog });

/**
 * The first version's tests, in its terms: the current type priced at `currentHourly` (absent from
 * the catalog when null; a type the catalog lacks is added only when the resource gives its shape).
 */
function decide(shape: CurrentShape, usage: UsageStats | null, settings: RuleSettings, view: View | null) {
  if (!view) return decideV2(shape, usage, settings, null);
  const type = shape.instanceType;
  const known = view.catalog.find((r) => r.instance_type === type);
  const others = view.catalog.filter((r) => r.instance_type !== type);
  if (view.currentHourly === null || !type) return decideV2(shape, usage, settings, others);
  if (known) return decideV2(shape, usage, settings, [{ ...known, price_per_hour: view.currentHourly }, ...others]);
  if (shape.cpuCores === null || shape.ramGb === null) return decideV2(shape, usage, settings, others);
  return decideV2(shape, usage, settings, [row(type, shape.cpuCores, shape.ramGb, view.currentHourly), ...others]);
}

describe("right-sizing rule (docs/api.md, The right-sizing rule)", () => {
  it("needs 12 samples over at least 24 hours", () => {
    expect(decide(current("m5.xlarge"), stats(1, 2, null, 11), targets, priced(0.192)).action).toBe("NO_RECOMMENDATION");
    expect(decide(current("m5.xlarge"), stats(1, 2, null, 12, day - 1), targets, priced(0.192)).action).toBe("NO_RECOMMENDATION");
    expect(decide(current("m5.xlarge"), stats(1, 2, null, 12, day), targets, priced(0.192)).action).toBe("TERMINATE");
    expect(decide(current("m5.xlarge"), null, targets, null).action).toBe("NO_RECOMMENDATION");
  });

  it("terminates only when p95 < 3 and max < 10, saving the whole monthly cost", () => {
    const idle = decide(current("m5.xlarge"), stats(2.99, 9.99), targets, priced(0.192));
    expect(idle).toMatchObject({ action: "TERMINATE", recommendedInstanceType: "" });
    expect(idle.savings.toFixed(2)).toBe("140.16");
    expect(idle.recommendedMonthly!.toFixed(2)).toBe("0.00");
    expect(decide(current("m5.xlarge"), stats(3, 5), targets, priced(0.192)).action).not.toBe("TERMINATE");
    expect(decide(current("m5.xlarge"), stats(2, 10), targets, priced(0.192)).action).not.toBe("TERMINATE");
  });

  it("downsizes to the cheapest type meeting needed vCPU and memory, never to burstable or GPU types", () => {
    // need 4 × 30 / 70 = 1.71 vCPU and 16 GB (no memory samples): r5.large (2/16) at 0.126.
    const d = decide(current("m5.xlarge"), stats(30, 50), targets, priced(0.192));
    expect(d).toMatchObject({ action: "DOWNSIZE", recommendedInstanceType: "r5.large" });
    expect(d.savings.toFixed(2)).toBe(new Decimal(0.192).minus(0.126).times(730).toFixed(2));
    // with memory p95 40 %: need 8 GB → m5.large (t3.large is burstable).
    expect(decide(current("m5.xlarge"), stats(30, 50, 40), targets, priced(0.192)).recommendedInstanceType).toBe("m5.large");
  });

  it("fits exactly at the boundary and not a hair above it (exact decimals, not doubles)", () => {
    // 4 vCPU × 35 % / 70 % = 2 vCPU and 16 GB × 40 % / 80 % = 8 GB: m5.large (2, 8) fits exactly.
    expect(decide(current("m5.xlarge"), stats(35, 50, 40), targets, priced(0.192)).recommendedInstanceType).toBe("m5.large");
    // A billionth of a percent more needs more than 2 vCPU or 8 GB: the next cheapest fitting type.
    expect(decide(current("m5.xlarge"), stats(35.000000001, 50, 40), targets, priced(0.192)).recommendedInstanceType).toBe("c5.xlarge");
    expect(decide(current("m5.xlarge"), stats(35, 50, 40.000000001), targets, priced(0.192)).recommendedInstanceType).toBe("r5.large");
  });

  it("uses the resource's own cpu_cores/ram_gb before the catalog row", () => {
    // need 8 × 30 / 70 = 3.43 vCPU and 32 × 40 / 80 = 16 GB: m5.xlarge.
    expect(decide(current("custom.type", 8, 32), stats(30, 50, 40), targets, priced(0.4))).toMatchObject({
      action: "DOWNSIZE",
      recommendedInstanceType: "m5.xlarge",
    });
  });

  it("upsizes a saturated type and reports negative savings", () => {
    const d = decide(current("m5.large"), stats(95, 100, 50), targets, priced(0.096));
    // need 2.71 vCPU and 5 GB: c5.xlarge (4/8) at 0.17.
    expect(d).toMatchObject({ action: "UPSIZE", recommendedInstanceType: "c5.xlarge" });
    expect(d.savings.toFixed(2)).toBe("-54.02");
  });

  it("keeps a right-sized type (NOOP) and gives ties to the current type", () => {
    const d = decide(current("m5.large"), stats(60, 80, 70), targets, priced(0.096));
    expect(d).toMatchObject({ action: "NOOP", recommendedInstanceType: "m5.large" });
    expect(d.savings.toNumber()).toBe(0);
    const tied = decide(current("m5.large"), stats(60, 80, 70), targets, {
      currentHourly: 0.096,
      catalog: [...catalog, row("m5a.large", 2, 8, 0.096)],
    });
    expect(tied.action).toBe("NOOP");
  });

  it("between equally cheap candidates picks the first instance type in byte order, whatever the catalog order", () => {
    const cheapTwins = [row("m6i.xlarge", 4, 16, 0.15), row("m6a.xlarge", 4, 16, 0.15), row("m7.xlarge", 4, 16, 0.15)];
    for (const order of [cheapTwins, [...cheapTwins].reverse()]) {
      const d = decide(current("m5.xlarge"), stats(40, 60, 50), targets, { currentHourly: 0.192, catalog: [...catalog, ...order] });
      expect(d).toMatchObject({ action: "DOWNSIZE", recommendedInstanceType: "m6a.xlarge" });
      expect(d.savings.toFixed(2)).toBe("30.66");
      const big = decide(current("m5.2xlarge", 8, 32), stats(30, 60, 30), targets, { currentHourly: 0.384, catalog: order });
      expect(big).toMatchObject({ action: "DOWNSIZE", recommendedInstanceType: "m6a.xlarge" });
      expect(big.savings.toFixed(2)).toBe("170.82");
    }
  });

  it("burstable candidates only for burstable current types; GPU types only with the same GPU count", () => {
    expect(isBurstable({ instance_type: "Standard_B2s" })).toBe(true);
    expect(isBurstable({ instance_type: "e2-small" })).toBe(true);
    expect(isBurstable({ instance_type: "e2-standard-2" })).toBe(false);
    const burst = decide(current("t3.xlarge", 4, 16), stats(20, 40, 30), targets, priced(0.1664));
    expect(burst.recommendedInstanceType).toBe("t3.large");
    const gpu = decide(current("g4dn.2xlarge"), stats(20, 40, 40), targets, priced(0.752));
    expect(gpu).toMatchObject({ action: "DOWNSIZE", recommendedInstanceType: "g4dn.xlarge" });
    const bigGpu = decide(current("p3.8xlarge"), stats(5, 40), targets, priced(12.24));
    expect(bigGpu.action).toBe("NOOP");
  });

  it("no candidate or no price for the current type: NO_RECOMMENDATION", () => {
    expect(decide(current("m5.xlarge"), stats(30, 50), targets, priced(null)).action).toBe("NO_RECOMMENDATION");
    expect(decide(current("x9.huge", 64, 1024), stats(99, 100), targets, priced(5)).action).toBe("NO_RECOMMENDATION");
    expect(decide(current("unknown.type"), stats(30, 50), targets, priced(1)).action).toBe("NO_RECOMMENDATION");
  });

  it("rounds monthly costs half-up to cents", () => {
    expect(monthly("0.0416").toFixed(2)).toBe("30.37");
    expect(monthly("0.00005").toFixed(2)).toBe("0.04");
    expect(monthly("0.0005").toFixed(2)).toBe("0.37"); // 0.365 exactly
  });
});

describe("right-sizing rule version 2 (docs/api.md, The right-sizing rule)", () => {
  const v2 = (overrides: Partial<RuleSettings> = {}): RuleSettings => ({ ...targets, ...overrides });
  const shape = (instanceType: string, architecture: CurrentShape["architecture"] = null): CurrentShape => ({
    instanceType,
    cpuCores: null,
    ramGb: null,
    architecture,
  });

  it("rounds both monthly costs first, so savings is their difference (30.37 - 13.72 = 16.65)", () => {
    const rows = [row("t3.medium", 2, 4, 0.0416, { burstable: true }), row("t3a.small", 2, 2, 0.0188, { burstable: true })];
    const d = decideV2(shape("t3.medium"), stats(10, 30, 40), v2(), rows);
    expect(d).toMatchObject({ action: "DOWNSIZE", recommendedInstanceType: "t3a.small" });
    expect([d.currentMonthly!.toFixed(2), d.recommendedMonthly!.toFixed(2), d.savings.toFixed(2)]).toEqual(["30.37", "13.72", "16.65"]);
  });

  it("treats memory as unknown without its own 12 samples over 24 hours (need = current memory)", () => {
    const oneSample = { ...stats(30, 50, 10), memorySamples: 1, memoryStart: new Date(0), memoryEnd: new Date(0) };
    const d = decideV2(shape("m5.xlarge"), oneSample, v2(), catalog);
    // need 1.71 vCPU and 16 GB (not 2 GB): r5.large.
    expect(d).toMatchObject({ action: "DOWNSIZE", recommendedInstanceType: "r5.large" });
    expect(d.reasons).toEqual(["cpu_over_provisioned", "memory_unknown"]);
    expect(d.options[0].projected_memory_p95).toBeNull();
  });

  it("calls a resource idle only when network p95 is below 5 KB/s where network was sent", () => {
    const quiet = { ...stats(1, 2, 20), networkSamples: 100, networkLow: 95 };
    const busy = { ...stats(1, 2, 20), networkSamples: 100, networkLow: 94 };
    expect(decideV2(shape("m5.xlarge"), quiet, v2(), catalog)).toMatchObject({ action: "TERMINATE", reasons: ["idle"] });
    expect(decideV2(shape("m5.xlarge"), busy, v2(), catalog).action).toBe("DOWNSIZE");
  });

  it("terminates an idle resource of a type the catalog cannot price, with no dollars", () => {
    const d = decideV2(shape("x9.huge"), stats(1, 2, 20), v2(), catalog);
    expect(d).toMatchObject({ action: "TERMINATE", currentMonthly: null, recommendedInstanceType: "", reasons: ["idle"] });
    expect(d.savings.toNumber()).toBe(0);
    expect(decideV2(shape("x9.huge"), stats(30, 50, 20), v2(), catalog)).toMatchObject({ action: "NO_RECOMMENDATION", reasons: ["unpriced_type"] });
  });

  it("sizes burstable types by their baseline", () => {
    const rows = [
      row("t3.large", 2, 8, 0.0832, { burstable: true, burst_baseline_percent: 30 }),
      row("t3.medium", 2, 4, 0.0416, { burstable: true, burst_baseline_percent: 20 }),
      row("m5.large", 2, 8, 0.096),
    ];
    // 2 x 20 / 70 = 0.571 vCPU sustained: fits t3.large's 0.6, not t3.medium's 0.4.
    expect(decideV2(shape("t3.large"), stats(20, 60, 40), v2(), rows)).toMatchObject({ action: "NOOP", reasons: [] });
    // 2 x 50 / 70 = 1.43 vCPU: above t3.large's baseline, so the non-burstable m5.large.
    expect(decideV2(shape("t3.large"), stats(50, 90, 40), v2(), rows)).toMatchObject({
      action: "UPSIZE",
      recommendedInstanceType: "m5.large",
      reasons: ["cpu_under_provisioned"],
    });
  });

  it("keeps the architecture unless allowed, never moves to a previous generation, and matches accelerators exactly", () => {
    const rows = [
      row("m5.xlarge", 4, 16, 0.192),
      row("m6g.large", 2, 8, 0.077, { architecture: "arm64" }),
      row("m4.large", 2, 8, 0.05, { current_generation: false }),
      row("m5.large", 2, 8, 0.096),
    ];
    expect(decideV2(shape("m5.xlarge"), stats(30, 50, 40), v2(), rows).recommendedInstanceType).toBe("m5.large");
    const anyArchitecture = decideV2(shape("m5.xlarge"), stats(30, 50, 40), v2({ allowArchitectureChange: true }), rows);
    expect(anyArchitecture.recommendedInstanceType).toBe("m6g.large");
    expect(anyArchitecture.options[0].migration_effort).toBe("high");
    const a10g = { vendor: "nvidia", model: "A10G", count: 1 };
    const gpus = [
      row("g5.2xlarge", 8, 32, 1.212, { gpu_count: 1, accelerator: a10g }),
      row("g4dn.xlarge", 4, 16, 0.526, { gpu_count: 1, accelerator: { vendor: "nvidia", model: "T4", count: 1 } }),
      row("inf2.xlarge", 4, 16, 0.7582, { accelerator: { vendor: "aws", model: "Inferentia2", count: 1 } }),
      row("g5.xlarge", 4, 16, 1.006, { gpu_count: 1, accelerator: a10g }),
    ];
    expect(decideV2(shape("g5.2xlarge"), stats(20, 40, 30), v2(), gpus).recommendedInstanceType).toBe("g5.xlarge");
  });

  it("excludes special-purpose types unless the current type has the capability and the local storage", () => {
    const rows = [
      row("m5d.xlarge", 4, 16, 0.226, { capabilities: ["local_nvme"], local_storage_gb: 150 }),
      row("m5d.large", 2, 8, 0.113, { capabilities: ["local_nvme"], local_storage_gb: 75 }),
      row("c5d.xlarge", 4, 8, 0.192, { capabilities: ["local_nvme"], local_storage_gb: 200 }),
      row("dc.large", 2, 8, 0.05, { capabilities: ["confidential"] }),
      row("m5.large", 2, 8, 0.096),
    ];
    expect(decideV2(shape("m5.large"), stats(60, 80, 70), v2(), rows)).toMatchObject({ action: "NOOP" });
    // local storage at least as large: c5d.xlarge (200 GB) qualifies, m5d.large (75 GB) does not.
    const d = decideV2(shape("m5d.xlarge"), stats(20, 40, 40), v2(), rows);
    expect(d.options.map((o) => o.instance_type)).toEqual(["m5.large", "c5d.xlarge", "m5d.xlarge"]);
  });

  it("prices on the list basis when asked, and names where the prices came from", () => {
    const rows = [
      row("m5.xlarge", 4, 16, 0.1344, { list_price_per_hour: 0.192, source: "negotiated", pricing_id: "cpr_1", price_date: "2026-07-20" }),
      row("m5.large", 2, 8, 0.096, { list_price_per_hour: 0.096, source: "catalog", price_date: "2026-06-01" }),
    ];
    const effective = decideV2(shape("m5.xlarge"), stats(30, 50, 40), v2(), rows);
    expect(effective.price).toEqual({ basis: "effective", source: "negotiated", price_date: "2026-06-01" });
    expect(effective.savings.toFixed(2)).toBe("28.03"); // 98.11 - 70.08
    const list = decideV2(shape("m5.xlarge"), stats(30, 50, 40), v2({ savingsBasis: "list" }), rows);
    expect(list.price).toEqual({ basis: "list", source: "catalog", price_date: "2026-06-01" });
    expect(list.savings.toFixed(2)).toBe("70.08"); // 140.16 - 70.08
  });

  it("ranks up to three options with projections, risk and migration effort", () => {
    const d = decideV2(shape("m5.xlarge"), stats(30, 50, 40), v2(), catalog);
    expect(d.options.map((o) => [o.instance_type, o.projected_cpu_p95, o.projected_memory_p95, o.performance_risk, o.migration_effort])).toEqual([
      ["m5.large", 60, 80, "low", "low"],
      ["r5.large", 60, 40, "low", "medium"],
      ["c5.xlarge", 30, 80, "low", "medium"],
    ]);
  });
});
