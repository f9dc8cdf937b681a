import type { TenantRef } from "../context";
import type { Prisma } from "../db";
import type { SpendAnomaly } from "../generated/prisma/client";
import type { CheckedStatement, RowOf } from "../sql-columns";
import type { Tx } from "../transactions";
import { BASELINE_DAYS } from "./scoring";

type Db = Prisma | Tx;

/** A scored day as the detection statement returns it (days as YYYY-MM-DD, amounts as decimal text). */
const DETECTED_COLUMNS = { tenant_id: "text", service_name: "text", day: "text", cost: "text", expected: "text", impact: "text", score: "text" } as const;
export type DetectedRow = RowOf<typeof DETECTED_COLUMNS>;

const STORED_COLUMNS = {
  tenant_id: "text",
  id: "text",
  service_name: "text",
  day: "text",
  cost: "text",
  expected: "text",
  impact: "text",
  score: "text",
  feedback: "text null",
} as const;
export type StoredRow = RowOf<typeof STORED_COLUMNS>;

const TENANT_COLUMNS = { organization_id: "text", tenant_id: "text" } as const;

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

/** The detection's inputs: days as YYYY-MM-DD, numbers as decimal text. */
export interface DetectionWindow {
  currency: string;
  historyFrom: string;
  end: string;
  from: string;
  minUsd: string;
  minPercent: string;
  madScale: string;
  minScaledMad: string;
  scoreThreshold: number;
}

export function detectAnomalyRows(
  db: Pick<Db, "$queryRawUnsafe">,
  organizationId: string,
  tenantIds: readonly string[],
  w: DetectionWindow,
): Promise<DetectedRow[]> {
  // Planned without JIT (SESSION_SETTINGS): its estimated cost grows with the tenants and days past
  // the point where PostgreSQL would compile it, which took seconds for a query of a few hundred ms.
  return db.$queryRawUnsafe<DetectedRow[]>(
    DETECT_SQL,
    organizationId,
    [...tenantIds],
    w.currency,
    w.historyFrom,
    w.end,
    w.from,
    w.minUsd,
    w.minPercent,
    w.madScale,
    w.minScaledMad,
    w.scoreThreshold,
  );
}

const INSERT_SQL = `WITH inserted AS (
         INSERT INTO spend_anomalies (organization_id, tenant_id, id, service_name, day, cost, expected, impact, score)
         SELECT $1, a.tenant_id, a.id, a.service_name, a.day::date, a.cost::numeric, a.expected::numeric, a.impact::numeric, a.score::numeric
           FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[])
                AS a(tenant_id, id, service_name, day, cost, expected, impact, score)
         ON CONFLICT (organization_id, tenant_id, service_name, day) DO NOTHING
         RETURNING tenant_id, id, service_name, day, cost, expected, impact, score, feedback)
       SELECT tenant_id, id, service_name, to_char(day, 'YYYY-MM-DD') AS day, cost::text, expected::text, impact::text, score::text, feedback
         FROM inserted ORDER BY tenant_id, service_name, day`;

/**
 * Stores the anomalies in one statement; one already stored for (tenant, service, day) is left as it
 * is (the unique key decides between concurrent detections). Returns the new ones, by tenant,
 * service and day.
 */
export function insertAnomalies(tx: Tx, organizationId: string, rows: readonly (DetectedRow & { id: string })[]): Promise<StoredRow[]> {
  return tx.$queryRawUnsafe<StoredRow[]>(
    INSERT_SQL,
    organizationId,
    rows.map((a) => a.tenant_id),
    rows.map((a) => a.id),
    rows.map((a) => a.service_name),
    rows.map((a) => a.day),
    rows.map((a) => a.cost),
    rows.map((a) => a.expected),
    rows.map((a) => a.impact),
    rows.map((a) => a.score),
  );
}

const RECENT_SPEND_SQL = `SELECT DISTINCT organization_id, tenant_id FROM spend_daily WHERE day >= $1::date AND tenant_id <> '' AND currency = $2`;

/** Tenants of every organization with spend in `currency` since `since` (the daily detection runs over these). */
export async function tenantsWithSpendSince(db: Pick<Db, "$queryRawUnsafe">, since: Date, currency: string): Promise<TenantRef[]> {
  const rows = await db.$queryRawUnsafe<RowOf<typeof TENANT_COLUMNS>[]>(RECENT_SPEND_SQL, since, currency);
  return rows.map((row) => ({ id: row.tenant_id, organizationId: row.organization_id }));
}

/** The raw statements of this module, for test/repository-row-types.test.ts. */
export function checkedStatements(): CheckedStatement[] {
  return [
    { name: "anomaly detection", sql: DETECT_SQL, columns: DETECTED_COLUMNS },
    { name: "anomaly insert", sql: INSERT_SQL, columns: STORED_COLUMNS },
    { name: "tenants with recent spend", sql: RECENT_SPEND_SQL, columns: TENANT_COLUMNS },
  ];
}

export function findAnomalies(db: Db, tenant: TenantRef, start: Date, end: Date): Promise<SpendAnomaly[]> {
  return db.spendAnomaly.findMany({
    where: { organizationId: tenant.organizationId, tenantId: tenant.id, day: { gte: start, lt: end } },
    orderBy: [{ day: "desc" }, { serviceName: "asc" }],
  });
}

/** Returns the anomaly after the change, or null when it is not in this tenant. */
export async function updateFeedback(db: Db, tenant: TenantRef, id: string, feedback: string): Promise<SpendAnomaly | null> {
  const { count } = await db.spendAnomaly.updateMany({ where: { organizationId: tenant.organizationId, tenantId: tenant.id, id }, data: { feedback } });
  if (count === 0) return null;
  return db.spendAnomaly.findUniqueOrThrow({ where: { organizationId_id: { organizationId: tenant.organizationId, id } } });
}
