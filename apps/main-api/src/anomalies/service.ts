import { type Anomaly, type AnomaliesQuery, type DetectAnomaliesRequest, UNALLOCATED_FILTER } from "@cloudcost/contracts";
import { newId, TRANSACTION_OPTIONS } from "@cloudcost/db";
import { badRequest, notFound } from "@cloudcost/http";
import { Decimal } from "@cloudcost/decimal";
import { queryClient } from "../budgets/status";
import type { TenantRef } from "../context";
import { hasDimension } from "../spend/forecast/dimension-filter";
import { type SpendReads, spendReadsOver } from "../spend/spend-reads";
import type { Prisma } from "../db";
import { type DimensionRepository, findNewestVersions } from "../dimensions/repository";
import { loadOrganizationSettings, type SettingsRepository } from "../settings/repository";
import type { Tx } from "../transactions";
import { emitWebhookEvent } from "../webhooks/events";
import { detectDimensionRows } from "./dimension-monitors";
import { type AnomalyExtension, type AnomalyRepository, anomalyRepository, type DetectedRow, type NewAnomaly, type StoredRow } from "./repository";
import { consecutiveRuns, LOOKBACK_DAYS, MAD_SCALE, MERGE_GAP_DAYS, MIN_SCALED_MAD, MUTE_CEILING, SCORE_THRESHOLD } from "./scoring";

const DAY_MS = 86_400_000;
/** Feedback `no` or `planned_activity` mutes the anomaly's monitor for this many days from the feedback's day. */
export const MUTE_DAYS = 7;
/** How far back a re-detection after an import reaches. */
export const REDETECT_MAX_DAYS = 93;
/** Sums of ledger amounts (numeric(38,10)) stay exact. */
const Exact = Decimal.clone({ precision: 60 });

const dayOf = (date: Date) => date.toISOString().slice(0, 10);
const utcDay = (date: Date) => new Date(Math.floor(date.getTime() / DAY_MS) * DAY_MS);
const addDays = (day: string, n: number) => dayOf(new Date(Date.parse(`${day}T00:00:00.000Z`) + n * DAY_MS));
const cents = (value: string) => new Decimal(value).toFixed(2, Decimal.ROUND_HALF_UP);
const ENDING = new Set(["no", "planned_activity"]);

function monitorOf(row: StoredRow): Anomaly["monitor"] {
  if (row.monitor_kind === "dimension") return { kind: "dimension", service_name: null, dimension: row.dimension_key, value: row.service_name || null };
  return { kind: row.monitor_kind as "service" | "total", service_name: row.monitor_kind === "total" ? null : row.service_name };
}

export function toAnomaly(row: StoredRow): Anomaly {
  const monitor = monitorOf(row);
  const service = monitor.service_name;
  return {
    id: row.id,
    monitor,
    currency: row.currency,
    start: row.start_day,
    end: row.end_day,
    days: row.days,
    day: row.start_day,
    service_name: service,
    cost: cents(row.cost),
    expected: cents(row.expected),
    impact: cents(row.impact),
    score: cents(row.score),
    reason: row.reason as Anomaly["reason"],
    feedback: row.feedback as Anomaly["feedback"],
  };
}

export interface DetectionResult {
  /** Anomalies that started (each emitted `anomaly.detected`). */
  detected: number;
  /** Stored anomalies later days extended. */
  extended: number;
  anomalies: (Anomaly & { tenant_id: string })[];
}

async function announce(tx: Tx, organizationId: string, anomalies: readonly (Anomaly & { tenant_id: string })[]) {
  for (const { tenant_id, ...anomaly } of anomalies) await emitWebhookEvent(tx, { organizationId, type: "anomaly.detected", data: { tenant_id, anomaly } });
}

const monitorKey = (row: { tenant_id: string; currency: string; monitor_kind: string; dimension_key: string; service_name: string }) =>
  JSON.stringify([row.tenant_id, row.currency, row.monitor_kind, row.dimension_key, row.service_name]);

/**
 * Whether a day is in the mute of a stored anomaly: from its first day to 7 days after the
 * feedback's day (`no`, `planned_activity`), and costing at most 1.2 x the anomaly's largest day (a
 * larger spike is news).
 */
function muted(anomaly: StoredRow, row: DetectedRow): boolean {
  if (!anomaly.feedback || !ENDING.has(anomaly.feedback) || !anomaly.feedback_at) return false;
  if (new Exact(row.cost).gt(new Exact(anomaly.peak_cost).mul(MUTE_CEILING))) return false;
  return row.day >= anomaly.start_day && row.day < addDays(dayOf(anomaly.feedback_at), MUTE_DAYS);
}

/** The decision of `detectDays` on the anomalous days found and the stored anomalies near them. */
export function mergeDetected(found: readonly DetectedRow[], stored: readonly StoredRow[]): { created: NewAnomaly[]; extensions: AnomalyExtension[] } {
  const byMonitor = new Map<string, StoredRow[]>();
  for (const anomaly of stored) byMonitor.set(monitorKey(anomaly), [...(byMonitor.get(monitorKey(anomaly)) ?? []), anomaly]);
  const daysByMonitor = new Map<string, DetectedRow[]>();
  for (const row of found) daysByMonitor.set(monitorKey(row), [...(daysByMonitor.get(monitorKey(row)) ?? []), row]);
  const created: NewAnomaly[] = [];
  const extensions = new Map<string, AnomalyExtension>();
  for (const [key, rows] of daysByMonitor) {
    // Ranges as they grow during this merge (a run may extend what an earlier run of it extended).
    const known = (byMonitor.get(key) ?? []).map((a) => ({ ...a }));
    const days = rows.filter((row) => !known.some((a) => muted(a, row))).sort((a, b) => (a.day < b.day ? -1 : 1));
    for (const run of consecutiveRuns(days)) {
      const first = run[0].day;
      const last = run[run.length - 1].day;
      const added = run.filter((row) => !known.some((a) => row.day >= a.start_day && row.day <= a.end_day));
      if (added.length === 0) continue;
      // An open anomaly at most 2 normal days away takes the run.
      const reach = MERGE_GAP_DAYS + 1;
      const open = known.find((a) => !ENDING.has(a.feedback ?? "") && a.start_day <= addDays(last, reach) && a.end_day >= addDays(first, -reach));
      const sums = sum(added);
      if (open) {
        const previous = extensions.get(open.id);
        const extension = previous
          ? {
              ...previous,
              cost: new Exact(previous.cost).plus(sums.cost).toString(),
              expected: new Exact(previous.expected).plus(sums.expected).toString(),
              impact: new Exact(previous.impact).plus(sums.impact).toString(),
              score: Exact.max(previous.score, sums.score).toString(),
              peak_cost: Exact.max(previous.peak_cost, sums.peak_cost).toString(),
            }
          : { id: open.id, ...sums };
        open.start_day = [first, open.start_day].sort()[0];
        open.end_day = [last, open.end_day].sort()[1];
        extensions.set(open.id, { ...extension, start_day: open.start_day, end_day: open.end_day });
      } else {
        const [{ tenant_id, currency, monitor_kind, dimension_key, service_name, reason }] = run;
        const days = Math.round((Date.parse(last) - Date.parse(first)) / DAY_MS) + 1;
        created.push({
          tenant_id,
          id: newId("ano"),
          monitor_kind,
          dimension_key,
          service_name,
          currency,
          start_day: first,
          end_day: last,
          days,
          reason,
          ...sums,
        });
        known.push({ ...created[created.length - 1], feedback: null, feedback_at: null });
      }
    }
  }
  return { created, extensions: [...extensions.values()] };
}

function sum(rows: readonly DetectedRow[]) {
  const total = (key: "cost" | "expected" | "impact") => rows.reduce((acc, row) => acc.plus(row[key]), new Exact(0)).toString();
  return {
    cost: total("cost"),
    expected: total("expected"),
    impact: total("impact"),
    score: Exact.max(...rows.map((row) => row.score)).toString(),
    peak_cost: Exact.max(...rows.map((row) => row.cost)).toString(),
  };
}

export interface AnomalyServiceDeps {
  /** Opens the transactions and runs the dimension monitors' spend queries; every query of anomalies goes through `anomalies`. */
  prisma: Prisma;
  anomalies: AnomalyRepository;
  /** The organization's detection floors. */
  settings: Pick<SettingsRepository, "loadOrganizationSettings">;
  /** The organization's dimensions (each is monitored per value). */
  dimensions: Pick<DimensionRepository, "findNewestVersions">;
  /** The spend query by dimension the dimension monitors score, and the dimensions a listing filters by. */
  spendReads: SpendReads;
}

export type AnomalyService = ReturnType<typeof createAnomalyService>;

/** The service over the repositories it reads: what handlers.ts, the schedule and the import checks build once. */
export function anomalyServiceOver(prisma: Prisma): AnomalyService {
  return createAnomalyService({
    prisma,
    anomalies: anomalyRepository,
    settings: { loadOrganizationSettings },
    dimensions: { findNewestVersions },
    spendReads: spendReadsOver(queryClient(prisma)),
  });
}

/** A tenant's anomalies (authorize selected the tenant and checked the role), and the detections of the schedule and imports. */
export function createAnomalyService(deps: AnomalyServiceDeps) {
  const { prisma, anomalies } = deps;

  /**
   * Scores the days from `from` to `end` (exclusive) of these tenants of one organization, per monitor
   * (each service, and the total, per currency, over usage lines only) in one statement over the
   * service roll-up (repository.ts; scoring.ts's pure functions are the reference the tests hold it
   * to), and per value of each dimension of the organization after its splits (dimension-monitors.ts,
   * scored by those pure functions). Then, under the organization's detection lock, in one transaction: anomalous days of a muted
   * monitor are dropped, consecutive ones form runs, a run touching an anomaly of the monitor that is
   * still open (no feedback, or `yes`) extends it (its days outside it are added), any other starts a
   * new anomaly, which emits `anomaly.detected` once. Days already inside an anomaly add nothing, so
   * detecting again changes nothing.
   */
  async function detectDays(organizationId: string, tenantIds: readonly string[], from: string, end: string): Promise<DetectionResult> {
    const none: DetectionResult = { detected: 0, extended: 0, anomalies: [] };
    if (tenantIds.length === 0 || from >= end) return none;
    const settings = await deps.settings.loadOrganizationSettings(prisma, organizationId);
    const found: DetectedRow[] = await anomalies.detectAnomalyRows(prisma, organizationId, tenantIds, {
      historyFrom: addDays(from, -LOOKBACK_DAYS),
      end,
      from,
      minUsd: String(settings.anomaly_min_usd),
      minPercent: String(settings.anomaly_min_percent),
      madScale: MAD_SCALE.toString(),
      minScaledMad: MIN_SCALED_MAD.toString(),
      scoreThreshold: SCORE_THRESHOLD,
    });
    found.push(
      ...(await detectDimensionRows({ prisma, dimensions: deps.dimensions, spendReads: deps.spendReads }, organizationId, tenantIds, {
        historyFrom: addDays(from, -LOOKBACK_DAYS),
        from,
        end,
        floors: { minUsd: String(settings.anomaly_min_usd), minPercent: String(settings.anomaly_min_percent) },
      })),
    );
    if (found.length === 0) return none;
    return prisma.$transaction(async (tx) => {
      await anomalies.lockOrganizationDetection(tx, organizationId);
      const stored = await anomalies.nearbyAnomalies(tx, organizationId, tenantIds, from, end, new Date(Date.parse(addDays(from, -MUTE_DAYS))));
      const { created, extensions } = mergeDetected(found, stored);
      const inserted = created.length > 0 ? await anomalies.insertAnomalies(tx, organizationId, created) : [];
      const extended = extensions.length > 0 ? await anomalies.extendAnomalies(tx, organizationId, extensions) : [];
      const detected = inserted.map((row) => ({ tenant_id: row.tenant_id, ...toAnomaly(row) }));
      await announce(tx, organizationId, detected);
      return { detected: detected.length, extended: extended.length, anomalies: detected };
    }, TRANSACTION_OPTIONS);
  }

  /** Scores the complete days (the `days` before today, UTC) of these tenants of one organization: see `detectDays`. */
  function detectOrganizationAnomalies(
    organizationId: string,
    tenantIds: readonly string[],
    request: DetectAnomaliesRequest,
    now = new Date(),
  ): Promise<DetectionResult> {
    const end = dayOf(utcDay(now));
    return detectDays(organizationId, tenantIds, addDays(end, -request.days), end);
  }

  return {
    detectOrganizationAnomalies,

    /** Scores the tenant's complete days (the `days` before today, UTC): see `detectOrganizationAnomalies`. */
    async detectTenantAnomalies(
      tenant: TenantRef,
      request: DetectAnomaliesRequest,
      now = new Date(),
    ): Promise<{ detected: number; extended: number; anomalies: Anomaly[] }> {
      const { detected, extended, anomalies } = await detectOrganizationAnomalies(tenant.organizationId, [tenant.id], request, now);
      return { detected, extended, anomalies: anomalies.map(({ tenant_id: _, ...anomaly }) => anomaly) };
    },

    /**
     * Re-runs the detection of every tenant of the organization after an import: from the earliest of
     * the complete days it touched (`YYYY-MM-DD` or timestamps, UTC; at most the last 93 count) to
     * yesterday, so that bills arriving late are scored (and the days after them, whose baselines they
     * are part of). `redetectAfterImport` below kicks the outbox and logs for the import code.
     */
    async redetectDays(organizationId: string, days: readonly string[], now = new Date()): Promise<DetectionResult> {
      const end = dayOf(utcDay(now));
      const oldest = addDays(end, -REDETECT_MAX_DAYS);
      const touched = days.map((day) => day.slice(0, 10)).filter((day) => day >= oldest && day < end);
      if (touched.length === 0) return { detected: 0, extended: 0, anomalies: [] };
      const tenantIds = await anomalies.organizationTenantIds(prisma, organizationId);
      return detectDays(organizationId, tenantIds, [...touched].sort()[0], end);
    },

    async listAnomalies(tenant: TenantRef, query: AnomaliesQuery, now = new Date()) {
      const end = query.end ?? dayOf(new Date(utcDay(now).getTime() + DAY_MS));
      const start = query.start ?? dayOf(new Date(utcDay(now).getTime() - 30 * DAY_MS));
      if (start >= end) throw badRequest("start must be before end.", [{ path: "start", message: "must be before end" }]);
      if (Date.parse(end) - Date.parse(start) > 400 * DAY_MS)
        throw badRequest("At most 400 days between start and end.", [{ path: "end", message: "at most 400 days after start" }]);
      const dimension = query.dimension && {
        key: query.dimension.key,
        values: query.dimension.values.map((value) => (value === UNALLOCATED_FILTER ? "" : value)),
      };
      if (dimension && !(await hasDimension(deps.spendReads, tenant.organizationId, dimension.key))) {
        const path = `dimension:${dimension.key}`;
        throw badRequest(`Invalid query: ${path}: no dimension ${dimension.key} in this organization`, [
          { path, message: `no dimension ${dimension.key} in this organization` },
        ]);
      }
      const rows = await anomalies.findAnomalies(prisma, tenant, start, end, dimension);
      return { start, end, items: rows.map(toAnomaly) };
    },

    /** Records the feedback; `no` and `planned_activity` end the anomaly and mute its monitor for 7 days from `now`'s day. */
    async setAnomalyFeedback(tenant: TenantRef, id: string, feedback: "yes" | "no" | "planned_activity", now = new Date()): Promise<Anomaly> {
      const row = await anomalies.updateFeedback(prisma, tenant, id, feedback, now);
      if (!row) throw notFound(`Anomaly ${id} is not in this tenant.`);
      return toAnomaly(row);
    },

    /** Tenants with usage cost in the last `days` days (the daily detection runs over these). */
    tenantsWithRecentSpend: (now: Date, days = 2): Promise<TenantRef[]> =>
      anomalies.tenantsWithSpendSince(prisma, new Date(utcDay(now).getTime() - days * DAY_MS)),
  };
}

/**
 * The service's `redetectDays` for the import code, once the import has committed: kicks the outbox
 * when an anomaly started. The spend is already stored: with a logger, a failure is logged (the
 * daily detection runs again) rather than thrown. `anomalies`: the service the caller built once.
 */
export async function redetectAfterImport(
  deps: { anomalies: AnomalyService; outbox?: { kick(): void }; logger?: { error(obj: object, msg: string): void } },
  organizationId: string,
  days: readonly string[],
  now = new Date(),
): Promise<DetectionResult> {
  try {
    const result = await deps.anomalies.redetectDays(organizationId, days, now);
    if (result.detected > 0) deps.outbox?.kick();
    return result;
  } catch (err) {
    if (!deps.logger) throw err;
    deps.logger.error({ err, organizationId }, "anomaly detection after an import failed");
    return { detected: 0, extended: 0, anomalies: [] };
  }
}
