import type { TenantRef } from "../context";
import type { Prisma } from "../db";
import type { CheckedStatement, RowOf } from "@cloudcost/db";
import type { Tx } from "../transactions";
import { BASELINE_DAYS, HISTORY_DAYS, MAX_SERVICE_MONITORS, MONTHLY_MONTHS, MONTHLY_TOLERANCE, NEW_SERVICE_DAYS, WEEKDAY_WEEKS } from "./scoring";

const MONTHLY_TOLERANCE_TEXT = MONTHLY_TOLERANCE.toFixed();

type Db = Prisma | Tx;

/** A scored day of one monitor as the detection statement returns it (days as YYYY-MM-DD, amounts as decimal text). */
const DETECTED_COLUMNS = {
  tenant_id: "text",
  currency: "text",
  monitor_kind: "text",
  dimension_key: "text",
  service_name: "text",
  day: "text",
  cost: "text",
  expected: "text",
  impact: "text",
  score: "text",
  reason: "text",
} as const;
export type DetectedRow = RowOf<typeof DETECTED_COLUMNS>;

const STORED_COLUMNS = {
  tenant_id: "text",
  id: "text",
  monitor_kind: "text",
  dimension_key: "text",
  service_name: "text",
  currency: "text",
  start_day: "text",
  end_day: "text",
  days: "int4",
  cost: "text",
  expected: "text",
  impact: "text",
  score: "text",
  peak_cost: "text",
  reason: "text",
  feedback: "text null",
  feedback_at: "timestamptz null",
} as const;
export type StoredRow = RowOf<typeof STORED_COLUMNS>;

const TENANT_COLUMNS = { organization_id: "text", tenant_id: "text" } as const;

/**
 * The anomalous days among the days from $5 to $4 (exclusive) of the tenants $2 of organization $1,
 * with history from $3. Monitors: per tenant and currency, each service and the total, over the
 * usage lines only (charge category Usage, frequency Usage-Based) of the service roll-up, read
 * through its tenant-leading key, summed in one pass (grouping sets). A tenant's service monitors are
 * at most MAX_SERVICE_MONITORS: the services with the most cost in the days scored (per currency,
 * the currencies taking turns), and its total is watched in the currencies of those services, so the
 * dense series below stay bounded whatever the number of services or currencies. Each monitor's
 * series is dense from its first day (0 without cost); `history` holds the (up to 28) days before
 * each day. The
 * baseline: a service without cost in them, once its tenant has 14 days of history in the currency,
 * is new (baseline 0), and so is each of its next 13 days while every day since its first is above
 * the floors against 0 (`ramp_start`, `ramp_lapse`); else with 28 days before, the same weekday of
 * the 4 weeks before; else with 14, those 14 days; else the day is not scored. A day within 20 % of
 * the same day of the month in each of the 2 months before (`monthly`, joined on the dense series;
 * the history from $3 reaches 62 days back) is expected. Its median and MAD are the middle two of the sorted
 * values halved exactly; the score is rounded half away from zero to 4 decimals; both floors ($6 in
 * the monitor's currency, $7 percent of the median) and the score threshold ($10) must be passed.
 */
const MEDIAN = "(s[(cardinality(s) + 1) / 2] + s[cardinality(s) / 2 + 1]) * 0.5";
const DETECT_SQL = `
  WITH daily AS (
    SELECT tenant_id, currency,
           CASE WHEN grouping(service_name) = 1 THEN 'total' ELSE 'service' END AS monitor_kind,
           CASE WHEN grouping(service_name) = 1 THEN '' ELSE service_name END AS service_name,
           day, sum(billed_cost) AS cost
      FROM spend_service_daily
     WHERE organization_id = $1 AND tenant_id = ANY($2::text[]) AND day >= $3::date AND day < $4::date
       AND charge_category = 'Usage' AND charge_frequency = 'Usage-Based'
     GROUP BY GROUPING SETS ((tenant_id, currency, service_name, day), (tenant_id, currency, day))),
  ranked AS (
    SELECT tenant_id, currency, service_name,
           row_number() OVER (PARTITION BY tenant_id ORDER BY in_currency, currency, service_name) AS rank
      FROM (SELECT tenant_id, currency, service_name,
                   row_number() OVER (PARTITION BY tenant_id, currency
                                      ORDER BY sum(cost) FILTER (WHERE day >= $5::date) DESC NULLS LAST, service_name) AS in_currency
              FROM daily WHERE monitor_kind = 'service' GROUP BY tenant_id, currency, service_name) s),
  monitored AS (
    SELECT tenant_id, currency, 'service' AS monitor_kind, service_name FROM ranked WHERE rank <= ${MAX_SERVICE_MONITORS}
    UNION
    SELECT tenant_id, currency, 'total', '' FROM ranked WHERE rank <= ${MAX_SERVICE_MONITORS}),
  firsts AS (
    SELECT d.tenant_id, d.currency, d.monitor_kind, d.service_name, min(d.day) AS first
      FROM daily d JOIN monitored m ON m.tenant_id = d.tenant_id AND m.currency = d.currency
                                   AND m.monitor_kind = d.monitor_kind AND m.service_name = d.service_name
     GROUP BY d.tenant_id, d.currency, d.monitor_kind, d.service_name),
  series AS (
    SELECT f.tenant_id, f.currency, f.monitor_kind, f.service_name, g.day, COALESCE(d.cost, 0) AS cost, g.day - t.first AS tenant_history
      FROM firsts f
      JOIN firsts t ON t.tenant_id = f.tenant_id AND t.currency = f.currency AND t.monitor_kind = 'total'
      JOIN (SELECT $3::date + i AS day FROM generate_series(0, $4::date - $3::date - 1) AS i) g ON g.day >= f.first
      LEFT JOIN daily d ON d.tenant_id = f.tenant_id AND d.currency = f.currency AND d.monitor_kind = f.monitor_kind
                       AND d.service_name = f.service_name AND d.day = g.day),
  windowed AS (
    SELECT tenant_id, currency, monitor_kind, service_name, day, cost, tenant_history,
           array_agg(cost) OVER (PARTITION BY tenant_id, currency, monitor_kind, service_name ORDER BY day
                                 ROWS BETWEEN ${HISTORY_DAYS} PRECEDING AND 1 PRECEDING) AS history
      FROM series),
  flagged AS (
    SELECT w.*, w.monitor_kind = 'service' AND w.tenant_history >= ${BASELINE_DAYS} AND COALESCE(0 = ALL(w.history), true) AS new_service,
           (w.cost > $6::numeric AND w.cost > 0 AND round(w.cost / $9::numeric, 4) > $10::numeric) AS above
      FROM windowed w),
  ramped AS (
    SELECT f.*,
           max(day) FILTER (WHERE new_service AND above) OVER ramp AS ramp_start,
           max(day) FILTER (WHERE NOT above) OVER ramp AS ramp_lapse
      FROM flagged f
    WINDOW ramp AS (PARTITION BY tenant_id, currency, monitor_kind, service_name ORDER BY day
                    ROWS BETWEEN ${NEW_SERVICE_DAYS - 1} PRECEDING AND CURRENT ROW)),
  quiet AS (
    SELECT r.*, r.new_service OR (r.ramp_start IS NOT NULL AND (r.ramp_lapse IS NULL OR r.ramp_lapse < r.ramp_start)) AS is_new,
           COALESCE(cardinality(r.history), 0) AS n
      FROM ramped r
     WHERE r.day >= $5::date),
  based AS (
    SELECT q.tenant_id, q.currency, q.monitor_kind, q.service_name, q.day, q.cost,
           CASE WHEN q.is_new THEN 'new_service' ELSE 'spike' END AS reason,
           CASE WHEN q.is_new THEN ARRAY[0::numeric]
                WHEN q.n = ${HISTORY_DAYS} THEN ARRAY[${Array.from({ length: WEEKDAY_WEEKS }, (_, w) => `q.history[${1 + w * 7}]`).join(", ")}]
                WHEN q.n >= ${BASELINE_DAYS} THEN q.history[q.n - ${BASELINE_DAYS - 1}:q.n]
           END AS baseline,
           -- A monthly job: within ${MONTHLY_TOLERANCE_TEXT} of the same day of the month in each of the previous ${MONTHLY_MONTHS} months.
           ${Array.from({ length: MONTHLY_MONTHS }, (_, k) => `abs(q.cost - m${k + 1}.cost) <= m${k + 1}.cost * ${MONTHLY_TOLERANCE_TEXT}`).join(" AND ")} AS monthly
      FROM quiet q
      ${Array.from(
        { length: MONTHLY_MONTHS },
        (_, k) => `LEFT JOIN series m${k + 1} ON m${k + 1}.tenant_id = q.tenant_id AND m${k + 1}.currency = q.currency
                     AND m${k + 1}.monitor_kind = q.monitor_kind AND m${k + 1}.service_name = q.service_name
                     AND m${k + 1}.day = (q.day - interval '${k + 1} month')::date AND extract(day FROM m${k + 1}.day) = extract(day FROM q.day)`,
      ).join("\n      ")}),
  scored AS (
    SELECT b.tenant_id, b.currency, b.monitor_kind, b.service_name, b.day, b.cost, b.reason, b.monthly, m.expected, b.cost - m.expected AS impact,
           round((b.cost - m.expected) / greatest(mad.mad * $8::numeric, $9::numeric), 4) AS score
      FROM based b
      CROSS JOIN LATERAL (SELECT ${MEDIAN} AS expected FROM (SELECT array_agg(v ORDER BY v) AS s FROM unnest(b.baseline) AS v) sorted) m
      CROSS JOIN LATERAL (
        SELECT ${MEDIAN} AS mad FROM (SELECT array_agg(abs(v - m.expected) ORDER BY abs(v - m.expected)) AS s FROM unnest(b.baseline) AS v) sorted) mad
     WHERE b.baseline IS NOT NULL)
  SELECT tenant_id, currency, monitor_kind, '' AS dimension_key, service_name, to_char(day, 'YYYY-MM-DD') AS day, cost::text, expected::text, impact::text, score::text, reason
    FROM scored
   WHERE impact > $6::numeric AND impact > expected * $7::numeric / 100 AND score > $10::numeric AND NOT COALESCE(monthly, false)
   ORDER BY tenant_id, currency, monitor_kind, service_name, day`;

/** The detection's inputs: days as YYYY-MM-DD, numbers as decimal text. */
export interface DetectionWindow {
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

const STORED_SELECT = `tenant_id, id, monitor_kind, dimension_key, service_name, currency, to_char(start_day, 'YYYY-MM-DD') AS start_day,
       to_char(end_day, 'YYYY-MM-DD') AS end_day, days, cost::text, expected::text, impact::text, score::text, peak_cost::text, reason, feedback, feedback_at`;

/** Serializes the detections of one organization (replicas, the schedule, imports): taken in the writing transaction. */
const LOCK_SQL = `SELECT pg_advisory_xact_lock(${0x616e6f6d}, hashtext($1))::text AS locked`;

export async function lockOrganizationDetection(tx: Tx, organizationId: string): Promise<void> {
  await tx.$queryRawUnsafe(LOCK_SQL, organizationId);
}

/**
 * The stored anomalies of the tenants $2 a detection of the days from $3 (to $4, exclusive) can
 * extend or is muted by: those starting before $4 that end on or after the day before $3, or whose
 * feedback was given since $5 (a week before $3: their mute may reach into the days).
 */
const NEARBY_SQL = `SELECT ${STORED_SELECT}
  FROM spend_anomalies
 WHERE organization_id = $1 AND tenant_id = ANY($2::text[]) AND start_day < $4::date
   AND (end_day >= $3::date - 1 OR feedback_at >= $5::timestamptz)
 ORDER BY tenant_id, start_day`;

export function nearbyAnomalies(
  tx: Tx,
  organizationId: string,
  tenantIds: readonly string[],
  from: string,
  end: string,
  feedbackSince: Date,
): Promise<StoredRow[]> {
  return tx.$queryRawUnsafe<StoredRow[]>(NEARBY_SQL, organizationId, [...tenantIds], from, end, feedbackSince);
}

export interface NewAnomaly {
  tenant_id: string;
  id: string;
  monitor_kind: string;
  /** '' unless a dimension monitor's. */
  dimension_key: string;
  service_name: string;
  currency: string;
  start_day: string;
  end_day: string;
  days: number;
  cost: string;
  expected: string;
  impact: string;
  score: string;
  /** The highest daily cost of its days. */
  peak_cost: string;
  reason: string;
}

const INSERT_SQL = `WITH inserted AS (
         INSERT INTO spend_anomalies (organization_id, tenant_id, id, monitor_kind, dimension_key, service_name, currency, start_day, end_day, days,
                                      cost, expected, impact, score, peak_cost, reason)
         SELECT $1, a.tenant_id, a.id, a.monitor_kind, a.dimension_key, a.service_name, a.currency, a.start_day::date, a.end_day::date, a.days,
                a.cost::numeric, a.expected::numeric, a.impact::numeric, a.score::numeric, a.peak_cost::numeric, a.reason
           FROM unnest($2::text[], $3::text[], $4::text[], $16::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::int4[],
                       $10::text[], $11::text[], $12::text[], $13::text[], $15::text[], $14::text[])
                AS a(tenant_id, id, monitor_kind, dimension_key, service_name, currency, start_day, end_day, days, cost, expected, impact, score, peak_cost, reason)
         ON CONFLICT (organization_id, tenant_id, monitor_kind, dimension_key, service_name, currency, start_day) DO NOTHING
         RETURNING *)
       SELECT ${STORED_SELECT} FROM inserted ORDER BY tenant_id, currency, monitor_kind, dimension_key, service_name, start_day`;

/**
 * Stores new anomalies in one statement; one already stored for (tenant, monitor, currency, first
 * day) is left as it is. Returns the new ones.
 */
export function insertAnomalies(tx: Tx, organizationId: string, rows: readonly NewAnomaly[]): Promise<StoredRow[]> {
  const column = <K extends keyof NewAnomaly>(key: K) => rows.map((a) => a[key]);
  return tx.$queryRawUnsafe<StoredRow[]>(
    INSERT_SQL,
    organizationId,
    column("tenant_id"),
    column("id"),
    column("monitor_kind"),
    column("service_name"),
    column("currency"),
    column("start_day"),
    column("end_day"),
    column("days"),
    column("cost"),
    column("expected"),
    column("impact"),
    column("score"),
    column("reason"),
    column("peak_cost"),
    column("dimension_key"),
  );
}

/** Days added to a stored anomaly: its new first and last day, and the sums, highest score and largest day of the added days. */
export interface AnomalyExtension {
  id: string;
  start_day: string;
  end_day: string;
  cost: string;
  expected: string;
  impact: string;
  score: string;
  peak_cost: string;
}

const EXTEND_SQL = `WITH extended AS (
         UPDATE spend_anomalies a
            SET start_day = least(a.start_day, e.start_day::date), end_day = greatest(a.end_day, e.end_day::date),
                days = greatest(a.end_day, e.end_day::date) - least(a.start_day, e.start_day::date) + 1,
                cost = a.cost + e.cost::numeric, expected = a.expected + e.expected::numeric, impact = a.impact + e.impact::numeric,
                score = greatest(a.score, e.score::numeric), peak_cost = greatest(a.peak_cost, e.peak_cost::numeric), updated_at = now()
           FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[])
                AS e(id, start_day, end_day, cost, expected, impact, score, peak_cost)
          WHERE a.organization_id = $1 AND a.id = e.id
         RETURNING a.*)
       SELECT ${STORED_SELECT} FROM extended ORDER BY tenant_id, currency, monitor_kind, dimension_key, service_name, start_day`;

/** Adds days to stored anomalies in one statement (sums added, score the higher); returns them after the change. */
export function extendAnomalies(tx: Tx, organizationId: string, rows: readonly AnomalyExtension[]): Promise<StoredRow[]> {
  const column = <K extends keyof AnomalyExtension>(key: K) => rows.map((a) => a[key]);
  return tx.$queryRawUnsafe<StoredRow[]>(
    EXTEND_SQL,
    organizationId,
    column("id"),
    column("start_day"),
    column("end_day"),
    column("cost"),
    column("expected"),
    column("impact"),
    column("score"),
    column("peak_cost"),
  );
}

const RECENT_SPEND_SQL = `SELECT DISTINCT organization_id, tenant_id FROM spend_service_daily
  WHERE day >= $1::date AND tenant_id <> '' AND charge_category = 'Usage' AND charge_frequency = 'Usage-Based'`;

/** Tenants of every organization with usage cost (in any currency) since `since` (the daily detection runs over these). */
export async function tenantsWithSpendSince(db: Pick<Db, "$queryRawUnsafe">, since: Date): Promise<TenantRef[]> {
  const rows = await db.$queryRawUnsafe<RowOf<typeof TENANT_COLUMNS>[]>(RECENT_SPEND_SQL, since);
  return rows.map((row) => ({ id: row.tenant_id, organizationId: row.organization_id }));
}

const LIST_SQL = `SELECT ${STORED_SELECT}
  FROM spend_anomalies
 WHERE organization_id = $1 AND tenant_id = $2 AND end_day >= $3::date AND start_day < $4::date
   AND ($5::text IS NULL OR (monitor_kind = 'dimension' AND dimension_key = $5::text AND (cardinality($6::text[]) = 0 OR service_name = ANY($6::text[]))))
 ORDER BY end_day DESC, start_day DESC, monitor_kind = 'dimension', monitor_kind, dimension_key, service_name, currency`;

/**
 * The tenant's anomalies with a day from `start` to `end` (exclusive), latest end first, then the
 * services, the total and the dimensions' values; with `dimension`, only that dimension's monitors
 * (of `values`, '' for the unallocated cost; all when none is given).
 */
export function findAnomalies(
  db: Pick<Db, "$queryRawUnsafe">,
  tenant: TenantRef,
  start: string,
  end: string,
  dimension?: { key: string; values: string[] },
): Promise<StoredRow[]> {
  return db.$queryRawUnsafe<StoredRow[]>(LIST_SQL, tenant.organizationId, tenant.id, start, end, dimension?.key ?? null, dimension?.values ?? []);
}

const FEEDBACK_SQL = `WITH updated AS (
         UPDATE spend_anomalies SET feedback = $4, feedback_at = $5::timestamptz, updated_at = now()
          WHERE organization_id = $1 AND tenant_id = $2 AND id = $3
         RETURNING *)
       SELECT ${STORED_SELECT} FROM updated`;

/** Records the feedback and when it was given; returns the anomaly after the change, or null when it is not in this tenant. */
export async function updateFeedback(db: Pick<Db, "$queryRawUnsafe">, tenant: TenantRef, id: string, feedback: string, at: Date): Promise<StoredRow | null> {
  const rows = await db.$queryRawUnsafe<StoredRow[]>(FEEDBACK_SQL, tenant.organizationId, tenant.id, id, feedback, at);
  return rows[0] ?? null;
}

const ORGANIZATION_TENANTS_COLUMNS = { id: "text" } as const;
const ORGANIZATION_TENANTS_SQL = "SELECT id FROM tenants WHERE organization_id = $1 ORDER BY id";

/** The ids of every tenant of the organization, archived ones too (a re-detection after an import scores them all). */
export async function organizationTenantIds(db: Pick<Db, "$queryRawUnsafe">, organizationId: string): Promise<string[]> {
  const rows = await db.$queryRawUnsafe<RowOf<typeof ORGANIZATION_TENANTS_COLUMNS>[]>(ORGANIZATION_TENANTS_SQL, organizationId);
  return rows.map((row) => row.id);
}

/** The raw statements of this module, for test/repository-row-types.test.ts. */
export function checkedStatements(): CheckedStatement[] {
  return [
    { name: "anomaly detection", sql: DETECT_SQL, columns: DETECTED_COLUMNS },
    { name: "anomaly detection lock", sql: LOCK_SQL, columns: { locked: "text" } },
    { name: "anomalies near a detection", sql: NEARBY_SQL, columns: STORED_COLUMNS },
    { name: "anomaly insert", sql: INSERT_SQL, columns: STORED_COLUMNS },
    { name: "anomaly extension", sql: EXTEND_SQL, columns: STORED_COLUMNS },
    { name: "anomaly list", sql: LIST_SQL, columns: STORED_COLUMNS },
    { name: "anomaly feedback", sql: FEEDBACK_SQL, columns: STORED_COLUMNS },
    { name: "tenants with recent spend", sql: RECENT_SPEND_SQL, columns: TENANT_COLUMNS },
    { name: "tenants of an organization", sql: ORGANIZATION_TENANTS_SQL, columns: ORGANIZATION_TENANTS_COLUMNS },
  ];
}

/** What the anomaly service reads and writes, through Prisma's raw queries; each function takes the client or the transaction it runs in. */
export const anomalyRepository = {
  detectAnomalyRows,
  lockOrganizationDetection,
  nearbyAnomalies,
  insertAnomalies,
  extendAnomalies,
  tenantsWithSpendSince,
  findAnomalies,
  updateFeedback,
  organizationTenantIds,
};
export type AnomalyRepository = typeof anomalyRepository;
