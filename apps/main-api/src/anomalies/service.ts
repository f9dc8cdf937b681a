import type { Anomaly, AnomaliesQuery, DetectAnomaliesRequest } from "@cloudcost/contracts";
import { newId, TRANSACTION_OPTIONS } from "@cloudcost/db";
import { badRequest, notFound } from "@cloudcost/http";
import Decimal from "decimal.js";
import type { Prisma } from "../db";
import type { SpendAnomaly } from "../generated/prisma/client";
import { loadOrganizationSettings } from "../settings/repository";
import { emitWebhookEvent } from "../webhooks/events";
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
  // Planned without JIT (SESSION_SETTINGS): its estimated cost grows with the tenants and days past
  // the point where PostgreSQL would compile it, which took seconds for a query of a few hundred ms.
  const found = await prisma.$queryRawUnsafe<
    { tenant_id: string; service_name: string; day: string; cost: string; expected: string; impact: string; score: string }[]
  >(
    DETECT_SQL,
    organizationId,
    [...tenantIds],
    CURRENCY,
    dayOf(historyFrom),
    dayOf(today),
    dayOf(from),
    String(settings.anomaly_min_usd),
    String(settings.anomaly_min_percent),
    MAD_SCALE.toString(),
    MIN_SCALED_MAD.toString(),
    SCORE_THRESHOLD,
  );
  if (found.length === 0) return { detected: 0, anomalies: [] };
  const created = await prisma.$transaction(async (tx) => {
    const stored = await tx.$queryRawUnsafe<
      {
        tenant_id: string;
        id: string;
        service_name: string;
        day: string;
        cost: string;
        expected: string;
        impact: string;
        score: string;
        feedback: string | null;
      }[]
    >(
      `WITH inserted AS (
         INSERT INTO spend_anomalies (organization_id, tenant_id, id, service_name, day, cost, expected, impact, score)
         SELECT $1, a.tenant_id, a.id, a.service_name, a.day::date, a.cost::numeric, a.expected::numeric, a.impact::numeric, a.score::numeric
           FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[])
                AS a(tenant_id, id, service_name, day, cost, expected, impact, score)
         ON CONFLICT (organization_id, tenant_id, service_name, day) DO NOTHING
         RETURNING tenant_id, id, service_name, day, cost, expected, impact, score, feedback)
       SELECT tenant_id, id, service_name, to_char(day, 'YYYY-MM-DD') AS day, cost::text, expected::text, impact::text, score::text, feedback
         FROM inserted ORDER BY tenant_id, service_name, day`,
      organizationId,
      found.map((a) => a.tenant_id),
      found.map(() => newId("ano")),
      found.map((a) => a.service_name),
      found.map((a) => a.day),
      found.map((a) => a.cost),
      found.map((a) => a.expected),
      found.map((a) => a.impact),
      found.map((a) => a.score),
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

/**
 * The anomalies among the days from $6 to $5 (exclusive) of the tenants $2 of organization $1,
 * with history from $4: per tenant, service and day, the median of the 14 days before (the middle
 * two of them sorted, halved exactly), the MAD the same way over the absolute deviations from it,
 * the score rounded half away from zero to 4 decimals, and both floors ($7 USD, $8 percent of the
 * median) and the score threshold ($11) passed. The roll-up is read through its tenant-leading key.
 */
const MIDDLE = `(s[(${BASELINE_DAYS} + 1) / 2] + s[${BASELINE_DAYS} / 2 + 1]) * 0.5`;
const DETECT_SQL = `
  WITH daily AS (
    SELECT tenant_id, service_name, day, sum(billed_cost) AS cost
      FROM spend_daily
     WHERE organization_id = $1 AND tenant_id = ANY($2::text[]) AND currency = $3 AND day >= $4::date AND day < $5::date
     GROUP BY tenant_id, service_name, day),
  series AS (
    SELECT f.tenant_id, f.service_name, g.day, COALESCE(d.cost, 0) AS cost
      FROM (SELECT tenant_id, service_name, min(day) AS first FROM daily GROUP BY tenant_id, service_name) f
      JOIN (SELECT $4::date + i AS day FROM generate_series(0, $5::date - $4::date - 1) AS i) g ON g.day >= f.first
      LEFT JOIN daily d ON d.tenant_id = f.tenant_id AND d.service_name = f.service_name AND d.day = g.day),
  windowed AS (
    SELECT tenant_id, service_name, day, cost,
           array_agg(cost) OVER (PARTITION BY tenant_id, service_name ORDER BY day ROWS BETWEEN ${BASELINE_DAYS} PRECEDING AND 1 PRECEDING) AS history,
           row_number() OVER (PARTITION BY tenant_id, service_name ORDER BY day) AS n
      FROM series),
  baseline AS (
    SELECT w.tenant_id, w.service_name, w.day, w.cost, w.history, m.expected
      FROM windowed w
      CROSS JOIN LATERAL (SELECT ${MIDDLE} AS expected FROM (SELECT array_agg(v ORDER BY v) AS s FROM unnest(w.history) AS v) sorted) m
     WHERE w.n > ${BASELINE_DAYS} AND w.day >= $6::date),
  scored AS (
    SELECT b.tenant_id, b.service_name, b.day, b.cost, b.expected, b.cost - b.expected AS impact,
           round((b.cost - b.expected) / greatest(mad.mad * $9::numeric, $10::numeric), 4) AS score
      FROM baseline b
      CROSS JOIN LATERAL (
        SELECT ${MIDDLE} AS mad FROM (SELECT array_agg(abs(v - b.expected) ORDER BY abs(v - b.expected)) AS s FROM unnest(b.history) AS v) sorted) mad)
  SELECT tenant_id, service_name, to_char(day, 'YYYY-MM-DD') AS day, cost::text, expected::text, impact::text, score::text
    FROM scored
   WHERE impact > $7::numeric AND impact > expected * $8::numeric / 100 AND score > $11::numeric
   ORDER BY tenant_id, service_name, day`;

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
