import type { Logger } from "pino";
import type { InstanceTypeRow } from "@cloudcost/contracts";
import type { Database, SqlSession } from "@cloudcost/db";
import { type Periodic, startPeriodic } from "@cloudcost/http";
import type { Prisma } from "../db";
import type { TenantRef } from "../context";
import { type CatalogKey, type ComputeCatalogs, PricingUnavailableError } from "./catalog-prices";
import type { AnalysisRepository } from "./analysis-repository";
import type { InventoryRepository } from "./inventory-repository";
import type { findResourceIdsWithCommittedUsageSince } from "../spend/resource-costs-repository";
import type { findStatsSince, findWindowStats, ResizedStatsRow, WindowStatsRow } from "./rollup-repository";
import { createRollups, rollupWindow } from "./rollups";
import type { DayRollupRepository } from "./day-rollup-repository";
import type { TailRepository } from "./rollup-repository";
import type { findHourlyCpu } from "./credit-repository";
import { decide, hasEnoughSignal, isBurstable, type DecidedOption, type Decision, type ResourceContext, type UsageStats } from "./rightsizing";
import { loadComputeSettings, type ComputeSettings } from "./settings";

/** Another cycle of this tenant is running (this process or another replica). */
export class AnalysisBusyError extends Error {}

export interface CycleResult {
  analyzedResources: number;
  durationMs: number;
}

export interface Analyzer {
  /** One cycle for one tenant; throws AnalysisBusyError or PricingUnavailableError (results then untouched). */
  analyzeTenant(tenant: TenantRef, settings: ComputeSettings): Promise<CycleResult>;
}

/**
 * What a cycle reads and writes: the roll-ups (rollups.ts: the days and the tail), the results and
 * the per-tenant lock, the window's statistics, the hourly CPU of burstable resources and the
 * committed usage (compute/services.ts, analyzerRepositories).
 */
export interface AnalyzerRepositories {
  days: DayRollupRepository;
  tail: TailRepository;
  analysis: AnalysisRepository;
  stats: { findWindowStats: typeof findWindowStats; findStatsSince: typeof findStatsSince };
  credits: { findHourlyCpu: typeof findHourlyCpu };
  commitments: { findResourceIdsWithCommittedUsageSince: typeof findResourceIdsWithCommittedUsageSince };
}

interface AnalyzerDeps {
  prisma: Prisma;
  db: Database;
  logger: Logger;
  catalogs: ComputeCatalogs;
  repositories: AnalyzerRepositories;
  /** How far behind the cycle's start the tail ends (rollups.ts; config ANALYSIS_TAIL_MARGIN_SECONDS). */
  tailMarginMs?: number;
  /** Least time between two retention passes of one tenant in this process (default 10 minutes). */
  retentionEveryMs?: number;
}

export const DEFAULT_TAIL_MARGIN_MS = 5_000;

/**
 * Retention (rollups.ts, dropExpired) probes every resource's oldest samples, while the window moves
 * only seconds between two cycles; the statistics read only the window, so samples kept a little
 * longer change no result.
 */
export const DEFAULT_RETENTION_EVERY_MS = 10 * 60_000;

type StatsRow = WindowStatsRow;

function toStats(row: StatsRow): UsageStats | null {
  if (!row.samples || row.cpu_p95 === null || row.cpu_max === null || !row.window_start || !row.window_end) return null;
  return {
    samples: row.samples,
    windowStart: new Date(row.window_start),
    windowEnd: new Date(row.window_end),
    cpuP95: Number(row.cpu_p95),
    cpuMax: Number(row.cpu_max),
    memoryP95: row.memory_p95 === null ? null : Number(row.memory_p95),
    memorySamples: row.memory_samples ?? 0,
    memoryStart: row.memory_start ? new Date(row.memory_start) : null,
    memoryEnd: row.memory_end ? new Date(row.memory_end) : null,
    networkSamples: row.network_samples ?? 0,
    networkLow: row.network_low ?? 0,
    cpuMean: row.cpu_mean ?? null,
  };
}

/** Spend lines this recent decide whether a commitment covers a resource. */
const COMMITTED_LOOKBACK_MS = 7 * 86_400_000;

/** A resized resource's row with the statistics of its new shape only (none yet: no samples since). */
function withStatsSince(row: StatsRow, since: ResizedStatsRow | undefined): StatsRow {
  const empty = { samples: null, window_start: null, window_end: null, cpu_p95: null, cpu_max: null, memory_p95: null, memory_samples: null };
  return since ? { ...row, ...since } : { ...row, ...empty, memory_start: null, memory_end: null, network_samples: null, network_low: null, cpu_mean: null };
}

/** A row with what pricing needs: provider, region and instance type. */
type PricedRow = StatsRow & { provider: string; region: string; instance_type: string };
const isPriceable = (row: StatsRow): row is PricedRow => Boolean(row.provider && row.region && row.instance_type);

/** The organization's catalog a resource is priced from: spot resources with spot prices, the others with the effective on-demand ones. */
const catalogKeyOf = (accountId: string, row: PricedRow): CatalogKey => ({
  accountId,
  provider: row.provider,
  region: row.region,
  operatingSystem: row.operating_system ?? "linux",
  usageType: row.purchase_option === "spot" ? "spot" : "on_demand",
});
const keyString = (key: CatalogKey) => [key.provider, key.region, key.operatingSystem, key.usageType].join("\u0000");

const optionJson = (o: DecidedOption) => ({
  ...o,
  monthly_cost_usd: o.monthly_cost_usd.toNumber(),
  savings_monthly_usd: o.savings_monthly_usd.toNumber(),
});

const DECIDE_SLICE = 100;
const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

export function createAnalyzer(deps: AnalyzerDeps): Analyzer {
  const { analysis, stats: statistics, credits, commitments } = deps.repositories;
  const { rollUpSettledDays, rollUpTail, dropExpired } = createRollups({ prisma: deps.prisma, days: deps.repositories.days, tail: deps.repositories.tail });
  const running = new Set<string>();

  const tailMarginMs = deps.tailMarginMs ?? DEFAULT_TAIL_MARGIN_MS;
  const retentionEveryMs = deps.retentionEveryMs ?? DEFAULT_RETENTION_EVERY_MS;
  const retainedAt = new Map<string, number>();

  async function cycle(session: SqlSession, tenant: TenantRef, settings: ComputeSettings): Promise<CycleResult> {
    const started = Date.now();
    const window = rollupWindow(new Date(started - settings.lookbackDays * 86_400_000), new Date(started));
    const retained = retainedAt.get(tenant.id);
    if (retained === undefined || started - retained >= retentionEveryMs) {
      await dropExpired(tenant.id, window);
      retainedAt.set(tenant.id, started);
    }
    await rollUpSettledDays(tenant.id, window);
    const tailCut = await rollUpTail(session, tenant.id, window, new Date(started - tailMarginMs));
    const windowRows = await statistics.findWindowStats(deps.db.sql, tenant.id, window, tailCut);
    // Resized inside the window: only the samples of the new shape count (from the resize on).
    const resizedAt = (row: StatsRow) => (row.changed_at && row.changed_at > window.since ? row.changed_at : null);
    const resized = windowRows.flatMap((row) => {
      const from = resizedAt(row);
      return from ? [{ resourceId: row.resource_id, from }] : [];
    });
    const since = new Map((await statistics.findStatsSince(deps.db.sql, tenant.id, resized)).map((row) => [row.resource_id, row]));
    const rows = windowRows.map((row) => (resizedAt(row) ? withStatsSince(row, since.get(row.resource_id)) : row));
    const stats = rows.map(toStats);
    // Rule version 4 simulates burstable credits hour by hour: only a burstable type may move to
    // another, so only resources of a burstable type past rule 1 need their hourly CPU (from the
    // window's start, or their resize).
    const simulated = rows.flatMap((row, i) =>
      row.instance_type && isBurstable({ instance_type: row.instance_type }) && hasEnoughSignal(stats[i])
        ? [{ resourceId: row.resource_id, since: resizedAt(row) ?? window.since }]
        : [],
    );
    const hourly = new Map((await credits.findHourlyCpu(deps.db.sql, tenant.id, simulated)).map((row) => [row.resource_id, row.cpu]));
    for (const [i, row] of rows.entries()) {
      const s = stats[i];
      if (s && hourly.has(row.resource_id)) stats[i] = { ...s, cpuHourly: hourly.get(row.resource_id) };
    }
    const committed = await commitments.findResourceIdsWithCommittedUsageSince(
      deps.db.sql,
      tenant.organizationId,
      tenant.id,
      new Date(started - COMMITTED_LOOKBACK_MS),
    );
    const contextOf = (row: StatsRow): ResourceContext => ({
      recentlyResized: resizedAt(row) !== null,
      commitmentCovered: row.purchase_option === "reserved" || committed.has(row.resource_id),
    });

    // Only resources past rule 1 (or just resized: their new price is shown) with a known provider,
    // region and type need prices; the organization's pricing account (its id) prices them, so its
    // negotiated prices apply.
    const priced = rows.filter((row, i): row is PricedRow => (hasEnoughSignal(stats[i]) || resizedAt(row) !== null) && isPriceable(row));
    const catalogs = new Map<string, InstanceTypeRow[]>();
    for (const row of priced) {
      const key = catalogKeyOf(tenant.organizationId, row);
      if (!catalogs.has(keyString(key))) catalogs.set(keyString(key), await deps.catalogs.catalog(key));
    }
    const catalogOf = (row: StatsRow) => (isPriceable(row) ? (catalogs.get(keyString(catalogKeyOf(tenant.organizationId, row))) ?? null) : null);

    const rule = {
      cpuTargetPercent: settings.cpuTargetPercent,
      memoryTargetPercent: settings.memoryTargetPercent,
      allowArchitectureChange: settings.allowArchitectureChange,
      savingsBasis: settings.savingsBasis,
    };
    // In slices, yielding between them: the cycle runs in the request-serving process, whose
    // requests must not wait for a whole fleet's decisions.
    const decisions: Decision[] = [];
    for (let start = 0; start < rows.length; start += DECIDE_SLICE) {
      if (start > 0) await yieldToEventLoop();
      for (let i = start; i < Math.min(rows.length, start + DECIDE_SLICE); i++) {
        const row = rows[i];
        const shape = { instanceType: row.instance_type, cpuCores: row.cpu_cores, ramGb: row.ram_gb, architecture: row.architecture };
        decisions.push(decide(shape, stats[i], rule, catalogOf(row), contextOf(row)));
      }
    }
    const money = (d: (x: Decision) => { toFixed(n: number): string } | null) => decisions.map((x) => d(x)?.toFixed(2) ?? null);
    await analysis.writeAnalysisResults(deps.db.sql, tenant.id, new Date(), {
      resourceIds: rows.map((r) => r.resource_id),
      actions: decisions.map((d) => d.action),
      currentTypes: decisions.map((d) => d.currentInstanceType),
      recommendedTypes: decisions.map((d) => d.recommendedInstanceType),
      currentCosts: money((d) => d.currentMonthly),
      recommendedCosts: money((d) => d.recommendedMonthly),
      savings: money((d) => d.savings),
      cpuP95: stats.map((s) => s?.cpuP95 ?? null),
      cpuMax: stats.map((s) => s?.cpuMax ?? null),
      memoryP95: stats.map((s) => s?.memoryP95 ?? null),
      samples: stats.map((s) => s?.samples ?? null),
      windowStarts: stats.map((s) => s?.windowStart ?? null),
      windowEnds: stats.map((s) => s?.windowEnd ?? null),
      reasons: decisions.map((d) => d.reasons.join(",")),
      options: decisions.map((d) => JSON.stringify(d.options.map(optionJson))),
      prices: decisions.map((d) => JSON.stringify(d.price)),
    });
    return { analyzedResources: rows.length, durationMs: Date.now() - started };
  }

  return {
    async analyzeTenant(tenant, settings) {
      if (running.has(tenant.id)) throw new AnalysisBusyError("an analysis cycle of this tenant is already running");
      running.add(tenant.id);
      try {
        // A session-level advisory lock on a dedicated connection: one replica per tenant at a time.
        return await deps.db.sql.withSession(async (session) => {
          if (!(await analysis.tryLockAnalysis(session, tenant.id))) throw new AnalysisBusyError("an analysis cycle of this tenant is already running");
          try {
            return await cycle(session, tenant, settings);
          } catch (err) {
            if (err instanceof PricingUnavailableError) {
              deps.logger.warn({ tenantId: tenant.id, reason: err.message }, "compute analysis not run: pricing API unavailable; previous results kept");
            }
            throw err;
          } finally {
            await analysis.unlockAnalysis(session, tenant.id);
          }
        });
      } finally {
        running.delete(tenant.id);
      }
    },
  };
}

/**
 * Runs a cycle for every tenant with an inventory every `intervalMinutes` (0: never), on the shared
 * periodic runner: an overrunning round delays the next (which starts a full interval after it
 * ends), rounds never overlap, and stop() ends the round after its current tenant and waits for it.
 */
export function startAnalysisSchedule(
  deps: { prisma: Prisma; logger: Logger; inventory: Pick<InventoryRepository, "findTenantsWithInventory"> },
  analyzer: Analyzer,
  intervalMinutes: number,
): Periodic {
  return startPeriodic({
    intervalMs: intervalMinutes * 60_000,
    onError: (err) => deps.logger.error({ err }, "compute analysis schedule failed"),
    run: async (signal) => {
      const tenants = await deps.inventory.findTenantsWithInventory(deps.prisma);
      for (const tenant of tenants) {
        if (signal.aborted) return;
        try {
          const result = await analyzer.analyzeTenant(tenant, await loadComputeSettings(deps.prisma, tenant.organizationId));
          deps.logger.info({ tenantId: tenant.id, ...result }, "scheduled compute analysis done");
        } catch (err) {
          if (err instanceof AnalysisBusyError) deps.logger.debug({ tenantId: tenant.id }, "compute analysis already running elsewhere");
          else if (!(err instanceof PricingUnavailableError)) deps.logger.error({ err, tenantId: tenant.id }, "scheduled compute analysis failed");
        }
      }
    },
  });
}
