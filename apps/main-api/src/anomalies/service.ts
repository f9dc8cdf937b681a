import type { Anomaly, AnomaliesQuery, DetectAnomaliesRequest } from "@cloudcost/contracts";
import { newId, TRANSACTION_OPTIONS } from "@cloudcost/db";
import { badRequest, notFound } from "@cloudcost/http";
import Decimal from "decimal.js";
import type { Prisma } from "../db";
import type { SpendAnomaly } from "../generated/prisma/client";
import { loadOrganizationSettings } from "../settings/repository";
import { emitWebhookEvent } from "../webhooks/events";
import { BASELINE_DAYS, type DayCost, detectAnomalies } from "./scoring";

const DAY_MS = 86_400_000;
/** Anomalies are scored on USD spend: the floors are in USD. */
const CURRENCY = "USD";

export interface TenantRef {
  id: string;
  organizationId: string;
}

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
 * before each, from the daily roll-up aggregated in the database. A new anomaly is stored and emits
 * `anomaly.detected` in one transaction; one already stored for (tenant, service, day) is left as
 * it is (the unique key decides between concurrent detections). Returns the new ones.
 */
export async function detectTenantAnomalies(
  prisma: Prisma,
  tenant: TenantRef,
  request: DetectAnomaliesRequest,
  now = new Date(),
): Promise<{ detected: number; anomalies: Anomaly[] }> {
  const settings = await loadOrganizationSettings(prisma, tenant.organizationId);
  const today = utcDay(now);
  const from = new Date(today.getTime() - request.days * DAY_MS);
  const historyFrom = new Date(from.getTime() - BASELINE_DAYS * DAY_MS);
  const rows = await prisma.$queryRawUnsafe<{ service_name: string; day: string; cost: string }[]>(
    `SELECT service_name, to_char(day, 'YYYY-MM-DD') AS day, sum(billed_cost)::text AS cost
       FROM spend_daily
      WHERE organization_id = $1 AND tenant_id = $2 AND currency = $3 AND day >= $4::date AND day < $5::date
      GROUP BY service_name, day
      ORDER BY service_name, day`,
    tenant.organizationId,
    tenant.id,
    CURRENCY,
    historyFrom,
    today,
  );
  const floors = { minUsd: settings.anomaly_min_usd, minPercent: settings.anomaly_min_percent };
  const found: { service: string; day: string; cost: Decimal; expected: Decimal; impact: Decimal; score: Decimal }[] = [];
  for (const [service, costs] of groupByService(rows)) {
    for (const scored of detectAnomalies(denseSeries(costs, today), floors)) {
      if (scored.day >= dayOf(from)) found.push({ service, ...scored });
    }
  }
  if (found.length === 0) return { detected: 0, anomalies: [] };
  const created = await prisma.$transaction(async (tx) => {
    const stored: SpendAnomaly[] = [];
    for (const a of found) {
      const [row] = await tx.$queryRawUnsafe<SpendAnomaly[]>(
        `INSERT INTO spend_anomalies (organization_id, tenant_id, id, service_name, day, cost, expected, impact, score)
         VALUES ($1, $2, $3, $4, $5::date, $6::numeric, $7::numeric, $8::numeric, $9::numeric)
         ON CONFLICT (organization_id, tenant_id, service_name, day) DO NOTHING
         RETURNING id`,
        tenant.organizationId,
        tenant.id,
        newId("ano"),
        a.service,
        a.day,
        a.cost.toString(),
        a.expected.toString(),
        a.impact.toString(),
        a.score.toString(),
      );
      if (!row) continue;
      const anomaly = await tx.spendAnomaly.findUniqueOrThrow({ where: { organizationId_id: { organizationId: tenant.organizationId, id: row.id } } });
      await emitWebhookEvent(tx, {
        organizationId: tenant.organizationId,
        type: "anomaly.detected",
        data: { tenant_id: tenant.id, anomaly: toAnomaly(anomaly) },
      });
      stored.push(anomaly);
    }
    return stored;
  }, TRANSACTION_OPTIONS);
  return { detected: created.length, anomalies: created.map(toAnomaly) };
}

function groupByService(rows: { service_name: string; day: string; cost: string }[]): Map<string, Map<string, string>> {
  const services = new Map<string, Map<string, string>>();
  for (const row of rows) {
    const days = services.get(row.service_name) ?? new Map<string, string>();
    days.set(row.day, row.cost);
    services.set(row.service_name, days);
  }
  return services;
}

/** Every day from the service's first one to yesterday; days without spend cost 0. */
function denseSeries(costs: Map<string, string>, today: Date): DayCost[] {
  const first = [...costs.keys()][0];
  const series: DayCost[] = [];
  for (let t = Date.parse(`${first}T00:00:00.000Z`); t < today.getTime(); t += DAY_MS) {
    const day = dayOf(new Date(t));
    series.push({ day, cost: costs.get(day) ?? "0" });
  }
  return series;
}

export async function listAnomalies(prisma: Prisma, tenant: TenantRef, query: AnomaliesQuery, now = new Date()) {
  const end = query.end ?? dayOf(new Date(utcDay(now).getTime() + DAY_MS));
  const start = query.start ?? dayOf(new Date(utcDay(now).getTime() - 30 * DAY_MS));
  if (start >= end) throw badRequest("start must be before end.", [{ path: "start", message: "must be before end" }]);
  if (Date.parse(end) - Date.parse(start) > 400 * DAY_MS)
    throw badRequest("At most 400 days between start and end.", [{ path: "end", message: "at most 400 days after start" }]);
  const rows = await prisma.spendAnomaly.findMany({
    where: { organizationId: tenant.organizationId, tenantId: tenant.id, day: { gte: new Date(start), lt: new Date(end) } },
    orderBy: [{ day: "desc" }, { serviceName: "asc" }],
  });
  return { start, end, items: rows.map(toAnomaly) };
}

export async function setAnomalyFeedback(prisma: Prisma, tenant: TenantRef, id: string, feedback: "yes" | "no" | "planned_activity"): Promise<Anomaly> {
  const { count } = await prisma.spendAnomaly.updateMany({ where: { organizationId: tenant.organizationId, tenantId: tenant.id, id }, data: { feedback } });
  if (count === 0) throw notFound(`Anomaly ${id} is not in this tenant.`);
  return toAnomaly(await prisma.spendAnomaly.findUniqueOrThrow({ where: { organizationId_id: { organizationId: tenant.organizationId, id } } }));
}

/** Tenants with USD spend in the last `days` days (the daily detection runs over these). */
export async function tenantsWithRecentSpend(prisma: Prisma, now: Date, days = 2): Promise<TenantRef[]> {
  const rows = await prisma.$queryRawUnsafe<{ organization_id: string; tenant_id: string }[]>(
    `SELECT DISTINCT organization_id, tenant_id FROM spend_daily WHERE day >= $1::date AND tenant_id <> '' AND currency = $2`,
    new Date(utcDay(now).getTime() - days * DAY_MS),
    CURRENCY,
  );
  return rows.map((row) => ({ id: row.tenant_id, organizationId: row.organization_id }));
}
