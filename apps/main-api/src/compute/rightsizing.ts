import Decimal from "decimal.js";
import type { Action, InstanceTypeRow } from "@cloudcost/contracts";

/** Monthly cost = hourly × 730, rounded half-up to cents (docs/api.md, "The right-sizing rule"). */
export const HOURS_PER_MONTH = 730;
export const MIN_SAMPLES = 12;
export const MIN_SPAN_MS = 24 * 3600_000;
const IDLE_CPU_P95 = 3;
const IDLE_CPU_MAX = 10;

export const monthly = (hourly: Decimal.Value) => new Decimal(hourly).times(HOURS_PER_MONTH).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);

export interface UsageStats {
  samples: number;
  windowStart: Date;
  windowEnd: Date;
  cpuP95: number;
  cpuMax: number;
  memoryP95: number | null;
}

export interface Targets {
  cpuTargetPercent: number;
  memoryTargetPercent: number;
}

export interface CurrentShape {
  instanceType: string | null;
  cpuCores: number | null;
  ramGb: number | null;
}

export interface PricingView {
  /** On-demand hourly USD price of the current type; null when the pricing API has none. */
  currentHourly: Decimal.Value | null;
  /** Catalog rows of the same provider, region, OS and architecture. */
  catalog: InstanceTypeRow[];
}

export interface Decision {
  action: Action;
  currentInstanceType: string | null;
  recommendedInstanceType: string | null;
  currentMonthly: Decimal | null;
  recommendedMonthly: Decimal | null;
  savings: Decimal;
}

const ZERO = new Decimal(0);

/** Rule 1: enough signal to recommend anything at all (pricing is only needed past this point). */
export function hasEnoughSignal(stats: UsageStats | null): stats is UsageStats {
  return !!stats && stats.samples >= MIN_SAMPLES && stats.windowEnd.getTime() - stats.windowStart.getTime() >= MIN_SPAN_MS;
}

// AWS t2/t3/t3a/t4g, Azure B-series, GCP shared-core types (docs/compute-pricing.md, instance types).
const BURSTABLE = /^(t2|t3|t3a|t4g)\.|^(standard_)?b\d|^e2-(micro|small|medium)$|^f1-micro$|^g1-small$/i;

export const isBurstable = (row: { instance_type: string; burstable?: boolean }) => row.burstable === true || BURSTABLE.test(row.instance_type);

interface PricedRow {
  row: InstanceTypeRow;
  hourly: Decimal;
  burstable: boolean;
}

const byPrice = new WeakMap<InstanceTypeRow[], PricedRow[]>();
const byteOrder = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * A catalog sorted by hourly price, then instance type, built once per catalog array: a cycle
 * decides every resource of a region against the same catalog, so the first fitting row is the
 * cheapest and no decimal is built per row per resource.
 */
function inPriceOrder(catalog: InstanceTypeRow[]): PricedRow[] {
  let sorted = byPrice.get(catalog);
  if (!sorted) {
    sorted = catalog
      .map((row) => ({ row, hourly: new Decimal(row.price_per_hour), burstable: isBurstable(row) }))
      .sort((a, b) => a.hourly.comparedTo(b.hourly) || byteOrder(a.row.instance_type, b.row.instance_type));
    byPrice.set(catalog, sorted);
  }
  return sorted;
}

const typeIndex = new WeakMap<InstanceTypeRow[], Map<string, InstanceTypeRow>>();

/** A catalog's rows by instance type (the first row of a type wins, as Array.find did). */
function byType(catalog: InstanceTypeRow[]): Map<string, InstanceTypeRow> {
  let index = typeIndex.get(catalog);
  if (!index) {
    index = new Map();
    for (const row of catalog) if (!index.has(row.instance_type)) index.set(row.instance_type, row);
    typeIndex.set(catalog, index);
  }
  return index;
}

/** The right-sizing rule (docs/api.md, "The right-sizing rule") for one resource. */
export function decide(current: CurrentShape, stats: UsageStats | null, targets: Targets, pricing: PricingView | null): Decision {
  const noRecommendation: Decision = {
    action: "NO_RECOMMENDATION",
    currentInstanceType: current.instanceType,
    recommendedInstanceType: null,
    currentMonthly: null,
    recommendedMonthly: null,
    savings: ZERO,
  };
  if (!hasEnoughSignal(stats) || !pricing || pricing.currentHourly === null || !current.instanceType) return noRecommendation;
  const currentHourly = new Decimal(pricing.currentHourly);
  const currentMonthly = monthly(currentHourly);
  const withCost = { ...noRecommendation, currentMonthly };

  if (stats.cpuP95 < IDLE_CPU_P95 && stats.cpuMax < IDLE_CPU_MAX) {
    return { ...withCost, action: "TERMINATE", recommendedInstanceType: "", recommendedMonthly: ZERO, savings: currentMonthly };
  }

  const currentRow = byType(pricing.catalog).get(current.instanceType);
  const cores = current.cpuCores ?? currentRow?.cpu_cores;
  const ram = current.ramGb ?? currentRow?.ram_gb;
  if (cores === undefined || ram === undefined) return withCost;

  const neededCpu = new Decimal(cores).times(stats.cpuP95).dividedBy(targets.cpuTargetPercent);
  const neededRam = stats.memoryP95 === null ? new Decimal(ram) : new Decimal(ram).times(stats.memoryP95).dividedBy(targets.memoryTargetPercent);
  const cpuNeed = neededCpu.toNumber();
  const ramNeed = neededRam.toNumber();
  // Decided on doubles unless within a hair of the boundary, where the exact decimals decide
  // (decimal.js copies its argument on every comparison: the scan over a catalog paid for that).
  const atMost = (need: number, exact: Decimal, have: number) => (Math.abs(need - have) > 1e-9 * Math.max(1, Math.abs(have)) ? need < have : exact.lte(have));
  const fits = (cpu: number, mem: number) => atMost(cpuNeed, neededCpu, cpu) && atMost(ramNeed, neededRam, mem);

  const currentBurstable = isBurstable(currentRow ?? { instance_type: current.instanceType });
  const currentGpus = currentRow?.gpu_count ?? 0;
  const currentFits = fits(cores, ram);

  // The cheapest fitting candidate (ties: instance type, ascending): the catalog in price order,
  // first match. A candidate replaces the current type only when strictly cheaper.
  let cheapest: PricedRow | undefined;
  for (const candidate of inPriceOrder(pricing.catalog)) {
    const row = candidate.row;
    if (row.instance_type === current.instanceType || row.gpu_count !== currentGpus) continue;
    if (candidate.burstable && !currentBurstable) continue;
    if (!fits(row.cpu_cores, row.ram_gb)) continue;
    cheapest = candidate;
    break;
  }
  let winner: { type: string; hourly: Decimal } | null = currentFits ? { type: current.instanceType, hourly: currentHourly } : null;
  if (cheapest && (!winner || cheapest.hourly.lt(winner.hourly))) winner = { type: cheapest.row.instance_type, hourly: cheapest.hourly };
  if (!winner) return withCost;

  const recommendedMonthly = monthly(winner.hourly);
  const savings = currentHourly.minus(winner.hourly).times(HOURS_PER_MONTH).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
  if (currentFits && (winner.type === current.instanceType || !winner.hourly.lt(currentHourly))) {
    return { ...withCost, action: "NOOP", recommendedInstanceType: current.instanceType, recommendedMonthly: currentMonthly };
  }
  return { ...withCost, action: currentFits ? "DOWNSIZE" : "UPSIZE", recommendedInstanceType: winner.type, recommendedMonthly, savings };
}
