import Decimal from "decimal.js";
import type { InstanceTypeRow } from "@cloudcost/contracts";
import { decide, isBurstable, monthly, type UsageStats } from "../src/compute/rightsizing";

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
const targets = { cpuTargetPercent: 70, memoryTargetPercent: 80 };
const day = 86_400_000;
const stats = (cpuP95: number, cpuMax: number, memoryP95: number | null = null, samples = 100, spanMs = 2 * day): UsageStats => ({
  samples,
  windowStart: new Date(0),
  windowEnd: new Date(spanMs),
  cpuP95,
  cpuMax,
  memoryP95,
});
const current = (instanceType: string, cpuCores: number | null = null, ramGb: number | null = null) => ({ instanceType, cpuCores, ramGb });
const priced = (hourly: number | null) => ({ currentHourly: hourly, catalog });

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
