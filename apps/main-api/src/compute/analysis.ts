import type { Logger } from "pino";
import type { Architecture, InstanceTypeRow, OperatingSystem } from "@cloudcost/contracts";
import type { Database, SqlSession } from "@cloudcost/db";
import { type Periodic, startPeriodic } from "@cloudcost/http";
import type { Prisma } from "../db";
import type { TenantRef } from "../context";
import { type CatalogKey, type ComputeCatalogs, PricingUnavailableError } from "./catalog-prices";
import { dropExpired, rollUpSettledDays, rollUpTail, rollupWindow, WINDOW_STATS, windowStatsParams } from "./rollups";
import { decide, hasEnoughSignal, type DecidedOption, type Decision, type UsageStats } from "./rightsizing";
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

interface AnalyzerDeps {
  prisma: Prisma;
  db: Database;
  logger: Logger;
  catalogs: ComputeCatalogs;
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

// Advisory lock keyspace of compute analysis ("comp"); the second key is hashtext(tenant id).
const LOCK_CLASS = 0x636f6d70;

interface StatsRow {
  resource_id: string;
  provider: string | null;
  region: string | null;
  instance_type: string | null;
  architecture: Architecture | null;
  operating_system: OperatingSystem | null;
  cpu_cores: number | null;
  ram_gb: number | null;
  samples: number | null;
  window_start: string | null;
  window_end: string | null;
  cpu_p95: number | null;
  cpu_max: number | null;
  memory_p95: number | null;
  memory_samples: number | null;
  memory_start: string | null;
  memory_end: string | null;
  network_samples: number | null;
  network_low: number | null;
  purchase_option: "on_demand" | "spot" | "reserved";
}

const iso = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

// Nearest-rank p95 over the day and tail roll-ups plus the raw samples of the window's edges (rollups.ts);
// only one row per resource comes back to Node.
const STATS_SQL = `
  WITH s AS (${WINDOW_STATS})
  SELECT r.resource_id, r.provider, r.region, r.instance_type, r.architecture, r.operating_system, r.cpu_cores, r.ram_gb, r.purchase_option,
         s.samples, ${iso("s.window_start")} AS window_start, ${iso("s.window_end")} AS window_end,
         s.cpu_p95, s.cpu_max, s.memory_p95, s.memory_samples, ${iso("s.memory_start")} AS memory_start, ${iso("s.memory_end")} AS memory_end,
         s.network_samples, s.network_low
  FROM compute_resources r LEFT JOIN s ON s.resource_id = r.resource_id
  WHERE r.tenant_id = $1`;

// The rows are locked in resource_id order first, as ingest, heartbeats and the inventory upsert
// lock or write them (inventory-service.ts): writers of the same rows in different orders can deadlock.
const WRITE_SQL = `
  WITH v AS (
    SELECT * FROM unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::numeric[], $8::numeric[], $9::numeric[],
                         $10::float8[], $11::float8[], $12::float8[], $13::int[], $14::timestamptz[], $15::timestamptz[],
                         $16::text[], $17::jsonb[], $18::jsonb[])
      AS v(resource_id, action, current_type, recommended_type, current_cost, recommended_cost, savings,
           cpu_p95, cpu_max, memory_p95, samples, window_start, window_end, reasons, options, price)),
  locked AS (
    SELECT r.resource_id FROM compute_resources r JOIN v ON r.resource_id = v.resource_id
    WHERE r.tenant_id = $1
    ORDER BY r.resource_id COLLATE "C"
    FOR UPDATE OF r)
  UPDATE compute_resources r SET
    action = v.action, current_instance_type = v.current_type, recommended_instance_type = v.recommended_type,
    current_monthly_cost_usd = v.current_cost, recommended_monthly_cost_usd = v.recommended_cost,
    savings_monthly_usd = v.savings, cpu_p95 = v.cpu_p95, cpu_max = v.cpu_max, memory_p95 = v.memory_p95,
    sample_count = v.samples, window_start = v.window_start, window_end = v.window_end, analyzed_at = $2,
    finding_reasons = string_to_array(v.reasons, ','), options = v.options, price = v.price
  FROM v JOIN locked l ON l.resource_id = v.resource_id
  WHERE r.tenant_id = $1 AND r.resource_id = v.resource_id`;

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
  };
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
  const running = new Set<string>();

  const tailMarginMs = deps.tailMarginMs ?? DEFAULT_TAIL_MARGIN_MS;
  const retentionEveryMs = deps.retentionEveryMs ?? DEFAULT_RETENTION_EVERY_MS;
  const retainedAt = new Map<string, number>();

  async function cycle(session: SqlSession, tenant: TenantRef, settings: ComputeSettings): Promise<CycleResult> {
    const started = Date.now();
    const window = rollupWindow(new Date(started - settings.lookbackDays * 86_400_000), new Date(started));
    const retained = retainedAt.get(tenant.id);
    if (retained === undefined || started - retained >= retentionEveryMs) {
      await dropExpired(deps.prisma, tenant.id, window);
      retainedAt.set(tenant.id, started);
    }
    await rollUpSettledDays(deps.prisma, tenant.id, window);
    const tailCut = await rollUpTail(session, tenant.id, window, new Date(started - tailMarginMs));
    // The fleet-sized statements go through the driver: Prisma's raw-query layer converts every
    // row and array element into objects of its own, garbage that stalls the event loop under load.
    const rows = await deps.db.sql.query<StatsRow>(STATS_SQL, windowStatsParams(tenant.id, window, tailCut));
    const stats = rows.map(toStats);

    // Only resources past rule 1 with a known provider, region and type need prices; the
    // organization's pricing account (its id) prices them, so its negotiated prices apply.
    const priced = rows.filter((row, i): row is PricedRow => hasEnoughSignal(stats[i]) && isPriceable(row));
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
        decisions.push(decide(shape, stats[i], rule, catalogOf(row)));
      }
    }
    const money = (d: (x: Decision) => { toFixed(n: number): string } | null) => decisions.map((x) => d(x)?.toFixed(2) ?? null);
    await deps.db.sql.query(
      WRITE_SQL,
      [
        tenant.id,
        new Date(),
        rows.map((r) => r.resource_id),
        decisions.map((d) => d.action),
        decisions.map((d) => d.currentInstanceType),
        decisions.map((d) => d.recommendedInstanceType),
        money((d) => d.currentMonthly),
        money((d) => d.recommendedMonthly),
        money((d) => d.savings),
        stats.map((s) => s?.cpuP95 ?? null),
        stats.map((s) => s?.cpuMax ?? null),
        stats.map((s) => s?.memoryP95 ?? null),
        stats.map((s) => s?.samples ?? null),
        stats.map((s) => s?.windowStart ?? null),
        stats.map((s) => s?.windowEnd ?? null),
        decisions.map((d) => d.reasons.join(",")),
        decisions.map((d) => JSON.stringify(d.options.map(optionJson))),
        decisions.map((d) => JSON.stringify(d.price)),
      ],
      { name: "compute_write_results" },
    );
    return { analyzedResources: rows.length, durationMs: Date.now() - started };
  }

  return {
    async analyzeTenant(tenant, settings) {
      if (running.has(tenant.id)) throw new AnalysisBusyError("an analysis cycle of this tenant is already running");
      running.add(tenant.id);
      try {
        // A session-level advisory lock on a dedicated connection: one replica per tenant at a time.
        return await deps.db.sql.withSession(async (session) => {
          const [{ locked }] = await session.query<{ locked: boolean }>("SELECT pg_try_advisory_lock($1, hashtext($2)) AS locked", [LOCK_CLASS, tenant.id]);
          if (!locked) throw new AnalysisBusyError("an analysis cycle of this tenant is already running");
          try {
            return await cycle(session, tenant, settings);
          } catch (err) {
            if (err instanceof PricingUnavailableError) {
              deps.logger.warn({ tenantId: tenant.id, reason: err.message }, "compute analysis not run: pricing API unavailable; previous results kept");
            }
            throw err;
          } finally {
            await session.query("SELECT pg_advisory_unlock($1, hashtext($2))", [LOCK_CLASS, tenant.id]);
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
export function startAnalysisSchedule(deps: { prisma: Prisma; logger: Logger }, analyzer: Analyzer, intervalMinutes: number): Periodic {
  return startPeriodic({
    intervalMs: intervalMinutes * 60_000,
    onError: (err) => deps.logger.error({ err }, "compute analysis schedule failed"),
    run: async (signal) => {
      const tenants = await deps.prisma.$queryRawUnsafe<{ tenant_id: string; organization_id: string }[]>(
        "SELECT DISTINCT tenant_id, organization_id FROM compute_resources",
      );
      for (const t of tenants) {
        if (signal.aborted) return;
        const tenant = { id: t.tenant_id, organizationId: t.organization_id };
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
