import { Decimal, toCents } from "@cloudcost/decimal";
import {
  type Action,
  type Architecture,
  FindingReason,
  type InstanceTypeRow,
  type MigrationEffort,
  type PerformanceRisk,
  type PriceProvenance,
  type SavingsBasis,
} from "@cloudcost/contracts";

/** Monthly cost = hourly × 730, rounded half-up to cents (docs/api.md, "The right-sizing rule"). */
export const HOURS_PER_MONTH = 730;
export const MIN_SAMPLES = 12;
export const MIN_SPAN_MS = 24 * 3600_000;
const IDLE_CPU_P95 = 3;
const IDLE_CPU_MAX = 10;
const MAX_OPTIONS = 3;
const RISK_MARGIN_POINTS = 10;

export const monthly = (hourly: Decimal.Value) => toCents(new Decimal(hourly).times(HOURS_PER_MONTH));

export interface UsageStats {
  samples: number;
  windowStart: Date;
  windowEnd: Date;
  cpuP95: number;
  cpuMax: number;
  memoryP95: number | null;
  memorySamples: number;
  memoryStart: Date | null;
  memoryEnd: Date | null;
  /** Samples that carried network figures, and those of them below the idle threshold. */
  networkSamples: number;
  networkLow: number;
  /** Mean CPU of the window (null: unknown, then a burstable type is judged by its p95 against its baseline). */
  cpuMean?: number | null;
  /**
   * The mean CPU % of each hour of the window with samples, oldest first (rule version 4's credit
   * simulation; null or absent: not known, then a burstable type is judged by version 3's mean alone).
   */
  cpuHourly?: readonly number[] | null;
}

/** What the rule knows of a resource beyond its shape and samples. */
export interface ResourceContext {
  /** Resized inside the window: only samples of the new shape count. */
  recentlyResized: boolean;
  /** Reserved, or its usage is covered by a commitment: the commitment is paid whether it runs or not. */
  commitmentCovered: boolean;
}

const NO_CONTEXT: ResourceContext = { recentlyResized: false, commitmentCovered: false };

export interface RuleSettings {
  cpuTargetPercent: number;
  memoryTargetPercent: number;
  allowArchitectureChange: boolean;
  savingsBasis: SavingsBasis;
}

export interface CurrentShape {
  instanceType: string | null;
  cpuCores: number | null;
  ramGb: number | null;
  architecture: Architecture | null;
}

export interface DecidedOption {
  instance_type: string;
  cpu_cores: number;
  ram_gb: number;
  monthly_cost_usd: Decimal;
  savings_monthly_usd: Decimal;
  projected_cpu_p95: number;
  projected_memory_p95: number | null;
  performance_risk: PerformanceRisk;
  migration_effort: MigrationEffort;
}

export interface Decision {
  action: Action;
  currentInstanceType: string | null;
  recommendedInstanceType: string | null;
  currentMonthly: Decimal | null;
  recommendedMonthly: Decimal | null;
  savings: Decimal;
  reasons: FindingReason[];
  options: DecidedOption[];
  price: PriceProvenance;
}

const ZERO = new Decimal(0);
/** A result lists its reasons in the contract's order (the FindingReason enum's). */
const REASON_ORDER: readonly FindingReason[] = FindingReason.options;

const hasSpan = (count: number, first: Date | null, last: Date | null) =>
  count >= MIN_SAMPLES && !!first && !!last && last.getTime() - first.getTime() >= MIN_SPAN_MS;

/** Rule 1: enough CPU evidence to recommend anything at all (pricing is only needed past this point). */
export function hasEnoughSignal(stats: UsageStats | null): stats is UsageStats {
  return !!stats && hasSpan(stats.samples, stats.windowStart, stats.windowEnd);
}

/** Rule 1 for memory: its own minimum, else memory is unknown (need = current memory). */
export const memoryKnown = (stats: UsageStats) => stats.memoryP95 !== null && hasSpan(stats.memorySamples, stats.memoryStart, stats.memoryEnd);

/** Rule 3: network only counts when samples carried it: p95 below the threshold (counted at roll-up). */
const networkQuiet = (stats: UsageStats) => stats.networkSamples === 0 || stats.networkLow >= Math.ceil(0.95 * stats.networkSamples);

// AWS t2/t3/t3a/t4g, Azure B-series, GCP shared-core types (docs/compute-pricing.md, instance types).
const BURSTABLE = /^(t2|t3|t3a|t4g)\.|^(standard_)?b\d|^e2-(micro|small|medium)$|^f1-micro$|^g1-small$/i;
export const isBurstable = (row: { instance_type: string; burstable?: boolean }) => row.burstable === true || BURSTABLE.test(row.instance_type);

/** Capabilities that make a type special-purpose (catalog `capabilities`). */
const SPECIAL = new Set(["bare_metal", "confidential", "constrained_vcpu", "fpga", "hpc", "local_nvme"]);

/** A burstable type's credit balance holds at most this many hours of its earnings. */
export const CREDIT_CAP_HOURS = 24;

/**
 * Rule version 4's burst credit simulation: whether a burstable type's credit balance never runs
 * out over the window's hours, simulated hour by hour from a full balance. Per hour it earns
 * baseline % / 100 x its vCPUs x 60 credits (a credit: one vCPU at 100 % for a minute) and spends
 * the observed load x 60, the load being that hour's CPU % / 100 x the current vCPU count; the
 * balance is capped at 24 hours of earnings. In hundredths of a percent (the samples' precision)
 * the sums stay integers well inside a double's exact range.
 */
export function creditsLast(baselinePercent: number, candidateCores: number, currentCores: number, hourlyCpu: readonly number[]): boolean {
  // Credits x 100 per hour: earned = baseline x vCPUs x 60 (baseline in percent), spent = cpu x cores x 60.
  const earned = baselinePercent * candidateCores * 60;
  const cap = earned * CREDIT_CAP_HOURS;
  let balance = cap;
  for (const cpu of hourlyCpu) {
    balance = Math.min(cap, balance + earned - cpu * currentCores * 60);
    // A hair of float error is not a shortfall (values are hundredths).
    if (balance < -1e-6) return false;
  }
  return true;
}

const byteOrder = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

interface Candidate {
  row: InstanceTypeRow;
  hourly: Decimal;
  burstable: boolean;
  /** Sustained vCPU as a double, for the scan (exact decimals decide near a boundary). */
  sustainedCpu: number;
}

const prepared = new WeakMap<InstanceTypeRow[], Partial<Record<SavingsBasis, { sorted: Candidate[]; byType: Map<string, Candidate> }>>>();

/**
 * A catalog's rows priced on one basis, deduplicated by type (the first row wins) and sorted by
 * price then type, built once per catalog array: a cycle decides every resource of a region against
 * the same catalog, so the scan stops after the cheapest few qualifying rows.
 */
function prepare(catalog: InstanceTypeRow[], basis: SavingsBasis) {
  let byBasis = prepared.get(catalog);
  if (!byBasis) {
    byBasis = {};
    prepared.set(catalog, byBasis);
  }
  let ready = byBasis[basis];
  if (!ready) {
    const byType = new Map<string, Candidate>();
    for (const row of catalog) {
      if (byType.has(row.instance_type)) continue;
      byType.set(row.instance_type, { row, hourly: hourlyOf(row, basis), burstable: isBurstable(row), sustainedCpu: sustained(row, row.cpu_cores).toNumber() });
    }
    const sorted = [...byType.values()].sort((a, b) => a.hourly.comparedTo(b.hourly) || byteOrder(a.row.instance_type, b.row.instance_type));
    ready = { sorted, byType };
    byBasis[basis] = ready;
  }
  return ready;
}

export const hourlyOf = (row: InstanceTypeRow, basis: SavingsBasis) =>
  new Decimal(basis === "list" ? (row.list_price_per_hour ?? row.price_per_hour) : row.price_per_hour);

/** Sustained vCPU: a burstable type's baseline share of its vCPUs (when the catalog knows it), else its vCPU count. */
const sustained = (row: InstanceTypeRow | undefined, cores: number) =>
  row && isBurstable(row) && row.burst_baseline_percent != null ? new Decimal(cores).times(row.burst_baseline_percent).dividedBy(100) : new Decimal(cores);

function sameAccelerator(a: InstanceTypeRow, b: InstanceTypeRow): boolean {
  const x = a.accelerator ?? null;
  const y = b.accelerator ?? null;
  if (x === null && y === null) return a.gpu_count === b.gpu_count;
  if (x === null || y === null) return false;
  return x.vendor === y.vendor && x.model === y.model && x.count === y.count;
}

function specialAllowed(current: InstanceTypeRow, candidate: InstanceTypeRow): boolean {
  const have = new Set(current.capabilities ?? []);
  for (const capability of candidate.capabilities ?? []) if (SPECIAL.has(capability) && !have.has(capability)) return false;
  if ((candidate.capabilities ?? []).includes("local_nvme") && (candidate.local_storage_gb ?? 0) < (current.local_storage_gb ?? 0)) return false;
  return true;
}

function provenance(basis: SavingsBasis, rows: InstanceTypeRow[]): PriceProvenance {
  if (rows.length === 0) return { basis, source: null, price_date: null };
  const sources = rows.map((row) => (basis === "list" && row.source === "negotiated" ? "catalog" : (row.source ?? "catalog")));
  const source = sources.includes("negotiated") ? "negotiated" : sources.includes("estimate") ? "estimate" : "catalog";
  const dates = rows.map((row) => row.price_date ?? null);
  const known = dates.filter((d): d is string => d !== null).sort();
  return { basis, source, price_date: dates.includes(null) ? null : (known[0] ?? null) };
}

const riskOf = (over: number): PerformanceRisk => (over <= 0 ? "low" : over <= RISK_MARGIN_POINTS ? "medium" : "high");
const round2 = (value: Decimal) => value.toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toNumber();

/**
 * The right-sizing rule, version 4 (docs/api.md, "The right-sizing rule"), for one resource:
 * version 2's decision, with version 3's credits (mean within the baseline) and version 4's credit
 * simulation for burstable types, then a commitment that is paid anyway takes the savings away
 * (the action stays).
 */
export function decide(
  current: CurrentShape,
  stats: UsageStats | null,
  settings: RuleSettings,
  catalog: InstanceTypeRow[] | null,
  context: ResourceContext = NO_CONTEXT,
): Decision {
  const decided = decideShape(current, stats, settings, catalog, context);
  if (!context.commitmentCovered || !decided.savings.gt(0)) return decided;
  return { ...decided, savings: ZERO, reasons: REASON_ORDER.filter((r) => r === "commitment_covered" || decided.reasons.includes(r)) };
}

function decideShape(
  current: CurrentShape,
  stats: UsageStats | null,
  settings: RuleSettings,
  catalog: InstanceTypeRow[] | null,
  context: ResourceContext,
): Decision {
  const basis = settings.savingsBasis;
  const base: Decision = {
    action: "NO_RECOMMENDATION",
    currentInstanceType: current.instanceType,
    recommendedInstanceType: null,
    currentMonthly: null,
    recommendedMonthly: null,
    savings: ZERO,
    reasons: [],
    options: [],
    price: provenance(basis, []),
  };
  const finish = (d: Decision, reasons: FindingReason[]): Decision => ({
    ...d,
    reasons: REASON_ORDER.filter((r) => reasons.includes(r)),
  });
  const ready = catalog ? prepare(catalog, basis) : null;
  const currentEntry = current.instanceType ? ready?.byType.get(current.instanceType) : undefined;
  const currentRow = currentEntry?.row;
  const currentHourly = currentEntry?.hourly ?? null;
  const currentMonthly = currentHourly ? monthly(currentHourly) : null;
  // A resized resource's new price is known before its evidence is (realized savings compare with it).
  if (!hasEnoughSignal(stats))
    return context.recentlyResized ? finish({ ...base, currentMonthly }, ["insufficient_data", "recently_resized"]) : finish(base, ["insufficient_data"]);
  const reasons: FindingReason[] = memoryKnown(stats) ? [] : ["memory_unknown"];

  if (stats.cpuP95 < IDLE_CPU_P95 && stats.cpuMax < IDLE_CPU_MAX && networkQuiet(stats)) {
    const terminate: Decision = {
      ...base,
      action: "TERMINATE",
      recommendedInstanceType: "",
      currentMonthly,
      recommendedMonthly: ZERO,
      savings: currentMonthly ?? ZERO,
      price: provenance(basis, currentRow ? [currentRow] : []),
    };
    return finish(terminate, [...reasons, "idle"]);
  }
  if (!currentRow || !currentHourly || !currentMonthly || !ready) return finish(base, [...reasons, "unpriced_type"]);

  const cores = current.cpuCores ?? currentRow.cpu_cores;
  const ram = current.ramGb ?? currentRow.ram_gb;
  const architecture = current.architecture ?? currentRow.architecture;
  const withMemory = memoryKnown(stats) && stats.memoryP95 !== null ? stats.memoryP95 : null;
  const needCpu = new Decimal(cores).times(stats.cpuP95).dividedBy(settings.cpuTargetPercent);
  const needRam = withMemory === null ? new Decimal(ram) : new Decimal(ram).times(withMemory).dividedBy(settings.memoryTargetPercent);
  const currentCapacity = sustained(currentRow, cores);
  // Version 3: a burstable type with a known baseline meets the need when the mean stays within its
  // baseline (credits are earned and spent on average) and the p95 within the target on all its vCPUs.
  // Version 4: and its credit balance, simulated hour by hour, never runs out (else it is excluded
  // with reason burst_credits_exhausted).
  const mean = stats.cpuMean ?? null;
  const hourly = stats.cpuHourly ?? null;
  let creditsExhausted = false;
  const burstFits = (row: InstanceTypeRow) => {
    const v3 = new Decimal(cores).times(mean ?? 0).lte(new Decimal(row.cpu_cores).times(row.burst_baseline_percent ?? 100)) && needCpu.lte(row.cpu_cores);
    if (!v3 || hourly === null) return v3;
    if (creditsLast(row.burst_baseline_percent ?? 100, row.cpu_cores, cores, hourly)) return true;
    creditsExhausted = true;
    return false;
  };
  const byCredits = (row: InstanceTypeRow) => mean !== null && isBurstable(row) && row.burst_baseline_percent != null;
  const cpuShort = byCredits(currentRow) ? !burstFits(currentRow) : needCpu.gt(currentCapacity);
  const ramShort = needRam.gt(ram);
  const currentFits = !cpuShort && !ramShort;
  const currentBurstable = isBurstable(currentRow);

  const cpuNeed = needCpu.toNumber();
  const ramNeed = needRam.toNumber();
  // Decided on doubles unless within a hair of the boundary, where the exact decimals decide.
  const atMost = (need: number, exact: Decimal, have: number, haveExact: () => Decimal.Value) =>
    Math.abs(need - have) > 1e-9 * Math.max(1, Math.abs(have)) ? need < have : exact.lte(haveExact());
  const qualifies = (c: Candidate) => {
    const row = c.row;
    if (row.instance_type === currentRow.instance_type) return currentFits;
    if (!settings.allowArchitectureChange && row.architecture !== architecture) return false;
    if (row.current_generation === false) return false;
    if (c.burstable && !currentBurstable) return false;
    if (!sameAccelerator(currentRow, row) || !specialAllowed(currentRow, row)) return false;
    // Memory first: a type it excludes is not simulated (nor named as short of credits).
    if (!atMost(ramNeed, needRam, row.ram_gb, () => row.ram_gb)) return false;
    return c.burstable && byCredits(row) ? burstFits(row) : atMost(cpuNeed, needCpu, c.sustainedCpu, () => sustained(row, row.cpu_cores));
  };
  // The cheapest qualifying rows in price order; the scan goes one price past the options needed so
  // that a tie with the current type is seen (ties: the current type first, then byte order).
  const candidates: Candidate[] = [];
  for (const c of ready.sorted) {
    if (candidates.length > MAX_OPTIONS && c.hourly.gt(candidates[candidates.length - 1].hourly)) break;
    if (qualifies(c)) candidates.push(c);
  }
  const isCurrent = (c: Candidate) => c.row.instance_type === currentRow.instance_type;
  candidates.sort(
    (a, b) => a.hourly.comparedTo(b.hourly) || Number(isCurrent(b)) - Number(isCurrent(a)) || byteOrder(a.row.instance_type, b.row.instance_type),
  );

  const under: FindingReason[] = [
    ...(cpuShort ? ["cpu_under_provisioned" as const] : []),
    ...(ramShort ? ["memory_under_provisioned" as const] : []),
    ...(creditsExhausted ? ["burst_credits_exhausted" as const] : []),
  ];
  const winner = candidates[0];
  if (!winner) return finish({ ...base, currentMonthly, price: provenance(basis, [currentRow]) }, [...reasons, ...under, "no_candidate"]);

  const option = (c: Candidate): DecidedOption => {
    const cost = monthly(c.hourly);
    const projectedCpu = new Decimal(stats.cpuP95).times(cores).dividedBy(c.row.cpu_cores);
    const projectedMemory = withMemory === null ? null : new Decimal(withMemory).times(ram).dividedBy(c.row.ram_gb);
    // A type judged by its credits has the target on all its vCPUs (version 3), others on their sustained share.
    const cpuTarget = byCredits(c.row)
      ? new Decimal(settings.cpuTargetPercent)
      : sustained(c.row, c.row.cpu_cores).dividedBy(c.row.cpu_cores).times(settings.cpuTargetPercent);
    const over = Math.max(
      projectedCpu.minus(cpuTarget).toNumber(),
      projectedMemory === null ? Number.NEGATIVE_INFINITY : projectedMemory.minus(settings.memoryTargetPercent).toNumber(),
    );
    const effort: MigrationEffort = isCurrent(c)
      ? "none"
      : c.row.family === currentRow.family
        ? "low"
        : c.row.architecture === currentRow.architecture
          ? "medium"
          : "high";
    return {
      instance_type: c.row.instance_type,
      cpu_cores: c.row.cpu_cores,
      ram_gb: c.row.ram_gb,
      monthly_cost_usd: cost,
      savings_monthly_usd: currentMonthly.minus(cost),
      projected_cpu_p95: round2(projectedCpu),
      projected_memory_p95: projectedMemory === null ? null : round2(projectedMemory),
      performance_risk: riskOf(over),
      migration_effort: effort,
    };
  };

  const noop = currentFits && (isCurrent(winner) || !winner.hourly.lt(currentHourly));
  const chosen = noop ? (candidates.find(isCurrent) ?? winner) : winner;
  const ranked = [chosen, ...candidates.filter((c) => c !== chosen)].slice(0, MAX_OPTIONS);
  const recommendedMonthly = monthly(chosen.hourly);
  const decided: Decision = {
    ...base,
    action: noop ? "NOOP" : currentFits ? "DOWNSIZE" : "UPSIZE",
    recommendedInstanceType: chosen.row.instance_type,
    currentMonthly,
    recommendedMonthly,
    savings: currentMonthly.minus(recommendedMonthly),
    options: ranked.map(option),
    price: provenance(basis, isCurrent(chosen) ? [currentRow] : [currentRow, chosen.row]),
  };
  const over: FindingReason[] = [];
  if (decided.action === "DOWNSIZE") {
    if (sustained(chosen.row, chosen.row.cpu_cores).lt(currentCapacity)) over.push("cpu_over_provisioned");
    if (chosen.row.ram_gb < ram) over.push("memory_over_provisioned");
  }
  return finish(decided, [...reasons, ...under, ...over]);
}

/**
 * Rule 5's filters other than the need: whether `current` may move to `row` (architecture unless
 * a change is allowed, current generation, accelerator, special purpose, burstable only from burstable).
 */
export function sameKind(current: InstanceTypeRow, row: InstanceTypeRow, architecture: Architecture | null, allowArchitectureChange: boolean): boolean {
  if (row.instance_type === current.instance_type) return true;
  if (!allowArchitectureChange && row.architecture !== (architecture ?? current.architecture)) return false;
  if (row.current_generation === false) return false;
  if (isBurstable(row) && !isBurstable(current)) return false;
  return sameAccelerator(current, row) && specialAllowed(current, row);
}
