import type { Anomaly, AnomaliesQuery, DetectAnomaliesRequest } from "@cloudcost/contracts";
import { newId, TRANSACTION_OPTIONS } from "@cloudcost/db";
import { badRequest, notFound } from "@cloudcost/http";
import Decimal from "decimal.js";
import type { Prisma } from "../db";
import type { SpendAnomaly } from "../generated/prisma/client";
import { loadOrganizationSettings } from "../settings/repository";
import { emitWebhookEvent } from "../webhooks/events";
import { detectAnomalyRows, findAnomalies, insertAnomalies, tenantsWithSpendSince, updateFeedback } from "./repository";
import { BASELINE_DAYS, MAD_SCALE, MIN_SCALED_MAD, SCORE_THRESHOLD } from "./scoring";
import type { TenantRef } from "../context";

const DAY_MS = 86_400_000;
/** Anomalies are scored on USD spend: the floors are in USD. */
const CURRENCY = "USD";

const dayOf = (date: Date) => date.toISOString().slice(0, 10);
const utcDay = (date: Date) => new Date(Math.floor(date.getTime() / DAY_MS) * DAY_MS);

export function toAnomaly(row: SpendAnomaly): Anomaly {
  return {
    id: row.id,
    day: dayOf(row.day),
    service_name: row.serviceName,
    cost: row.cost.toFixed(2, Decimal.ROUND_HALF_UP),
    expected: row.expected.toFixed(2, Decimal.ROUND_HALF_UP),
    impact: row.impact.toFixed(2, Decimal.ROUND_HALF_UP),
    score: row.score.toFixed(2, Decimal.ROUND_HALF_UP),
    feedback: row.feedback as Anomaly["feedback"],
  };
}

/**
 * Scores the tenant's complete days (the `days` before today, UTC) per service against the 14 days
 * before each (see `detectOrganizationAnomalies`). Returns the new anomalies, by service and day.
 */
export async function detectTenantAnomalies(
  prisma: Prisma,
  tenant: TenantRef,
  request: DetectAnomaliesRequest,
  now = new Date(),
): Promise<{ detected: number; anomalies: Anomaly[] }> {
  const { detected, anomalies } = await detectOrganizationAnomalies(prisma, tenant.organizationId, [tenant.id], request, now);
  return { detected, anomalies: anomalies.map(({ tenant_id: _, ...anomaly }) => anomaly) };
}

/**
 * Scores the complete days (the `days` before today, UTC) of each of these tenants of one
 * organization per service against the 14 days before each, in one statement over the roll-up: the
 * daily USD cost per (tenant, service), made dense (every day from the service's first one to
 * yesterday, 0 without spend), the 14 days before each day as a window, their median and MAD sorted
 * in SQL, and the decision of `scoring.ts` (its pure functions are the reference the tests hold this
 * statement to). New anomalies are stored in one statement and emit `anomaly.detected`, in one
 * transaction; one already stored for (tenant, service, day) is left as it is (the unique key
 * decides between concurrent detections). Returns the new ones, by tenant, service and day.
 */
export async function detectOrganizationAnomalies(
  prisma: Prisma,
  organizationId: string,
  tenantIds: readonly string[],
  request: DetectAnomaliesRequest,
  now = new Date(),
): Promise<{ detected: number; anomalies: (Anomaly & { tenant_id: string })[] }> {
  if (tenantIds.length === 0) return { detected: 0, anomalies: [] };
  const settings = await loadOrganizationSettings(prisma, organizationId);
  const today = utcDay(now);
  const from = new Date(today.getTime() - request.days * DAY_MS);
  const historyFrom = new Date(from.getTime() - BASELINE_DAYS * DAY_MS);
  const found = await detectAnomalyRows(prisma, organizationId, tenantIds, {
    currency: CURRENCY,
    historyFrom: dayOf(historyFrom),
    end: dayOf(today),
    from: dayOf(from),
    minUsd: String(settings.anomaly_min_usd),
    minPercent: String(settings.anomaly_min_percent),
    madScale: MAD_SCALE.toString(),
    minScaledMad: MIN_SCALED_MAD.toString(),
    scoreThreshold: SCORE_THRESHOLD,
  });
  if (found.length === 0) return { detected: 0, anomalies: [] };
  const created = await prisma.$transaction(async (tx) => {
    const stored = await insertAnomalies(
      tx,
      organizationId,
      found.map((a) => ({ ...a, id: newId("ano") })),
    );
    const anomalies = stored.map((row) => ({
      tenant_id: row.tenant_id,
      id: row.id,
      day: row.day,
      service_name: row.service_name,
      cost: cents(row.cost),
      expected: cents(row.expected),
      impact: cents(row.impact),
      score: cents(row.score),
      feedback: row.feedback as Anomaly["feedback"],
    }));
    for (const { tenant_id, ...anomaly } of anomalies) await emitWebhookEvent(tx, { organizationId, type: "anomaly.detected", data: { tenant_id, anomaly } });
    return anomalies;
  }, TRANSACTION_OPTIONS);
  return { detected: created.length, anomalies: created };
}

const cents = (value: string) => new Decimal(value).toFixed(2, Decimal.ROUND_HALF_UP);

export async function listAnomalies(prisma: Prisma, tenant: TenantRef, query: AnomaliesQuery, now = new Date()) {
  const end = query.end ?? dayOf(new Date(utcDay(now).getTime() + DAY_MS));
  const start = query.start ?? dayOf(new Date(utcDay(now).getTime() - 30 * DAY_MS));
  if (start >= end) throw badRequest("start must be before end.", [{ path: "start", message: "must be before end" }]);
  if (Date.parse(end) - Date.parse(start) > 400 * DAY_MS)
    throw badRequest("At most 400 days between start and end.", [{ path: "end", message: "at most 400 days after start" }]);
  const rows = await findAnomalies(prisma, tenant, new Date(start), new Date(end));
  return { start, end, items: rows.map(toAnomaly) };
}

export async function setAnomalyFeedback(prisma: Prisma, tenant: TenantRef, id: string, feedback: "yes" | "no" | "planned_activity"): Promise<Anomaly> {
  const row = await updateFeedback(prisma, tenant, id, feedback);
  if (!row) throw notFound(`Anomaly ${id} is not in this tenant.`);
  return toAnomaly(row);
}

/** Tenants with USD spend in the last `days` days (the daily detection runs over these). */
export async function tenantsWithRecentSpend(prisma: Prisma, now: Date, days = 2): Promise<TenantRef[]> {
  return tenantsWithSpendSince(prisma, new Date(utcDay(now).getTime() - days * DAY_MS), CURRENCY);
}
