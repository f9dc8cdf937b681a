import type { CheckedStatement, RowOf, SqlClient, SqlSession } from "@cloudcost/db";

// What an analysis cycle writes, and the lock that keeps one cycle per tenant, through the driver
// (what it reads: rollup-repository.ts and credit-repository.ts).

/** A decision about a recommendation holds while the analysis keeps its action and recommended type. */
const REOPENS = "(r.action IS DISTINCT FROM v.action OR r.recommended_instance_type IS DISTINCT FROM v.recommended_type)";

// The rows are locked in resource_id order first, as ingest, heartbeats and the inventory upsert
// lock or write them (sample-repository.ts, inventory-repository.ts): writers of the same rows in
// different orders can deadlock.
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
    finding_reasons = string_to_array(v.reasons, ','), options = v.options, price = v.price,
    state = CASE WHEN ${REOPENS} THEN 'open' ELSE r.state END,
    state_reason = CASE WHEN ${REOPENS} THEN NULL ELSE r.state_reason END,
    snoozed_until = CASE WHEN ${REOPENS} THEN NULL ELSE r.snoozed_until END
  FROM v JOIN locked l ON l.resource_id = v.resource_id
  WHERE r.tenant_id = $1 AND r.resource_id = v.resource_id`;

/** One cycle's results, a column per field and an element per resource (WRITE_SQL's unnest arrays). */
export interface AnalysisResults {
  resourceIds: string[];
  actions: string[];
  currentTypes: (string | null)[];
  recommendedTypes: (string | null)[];
  currentCosts: (string | null)[];
  recommendedCosts: (string | null)[];
  savings: (string | null)[];
  cpuP95: (number | null)[];
  cpuMax: (number | null)[];
  memoryP95: (number | null)[];
  samples: (number | null)[];
  windowStarts: (Date | null)[];
  windowEnds: (Date | null)[];
  /** Comma-separated finding reasons. */
  reasons: string[];
  /** JSON. */
  options: string[];
  /** JSON. */
  prices: string[];
}

export async function writeAnalysisResults(sql: SqlClient, tenantId: string, analyzedAt: Date, r: AnalysisResults): Promise<void> {
  await sql.query(
    WRITE_SQL,
    [
      tenantId,
      analyzedAt,
      r.resourceIds,
      r.actions,
      r.currentTypes,
      r.recommendedTypes,
      r.currentCosts,
      r.recommendedCosts,
      r.savings,
      r.cpuP95,
      r.cpuMax,
      r.memoryP95,
      r.samples,
      r.windowStarts,
      r.windowEnds,
      r.reasons,
      r.options,
      r.prices,
    ],
    { name: "compute_write_results" },
  );
}

// Advisory lock keyspace of compute analysis ("comp"); the second key is hashtext(tenant id).
const ANALYSIS_LOCK_CLASS = 0x636f6d70;
const ANALYSIS_LOCK_COLUMNS = { locked: "bool" } as const;
const ANALYSIS_LOCK_SQL = "SELECT pg_try_advisory_lock($1, hashtext($2)) AS locked";
const ANALYSIS_UNLOCK_SQL = "SELECT pg_advisory_unlock($1, hashtext($2))";

/** Takes the tenant's analysis lock for the session, if no other session holds it. */
export async function tryLockAnalysis(session: SqlSession, tenantId: string): Promise<boolean> {
  const [{ locked }] = await session.query<RowOf<typeof ANALYSIS_LOCK_COLUMNS>>(ANALYSIS_LOCK_SQL, [ANALYSIS_LOCK_CLASS, tenantId]);
  return locked;
}

export async function unlockAnalysis(session: SqlSession, tenantId: string): Promise<void> {
  await session.query(ANALYSIS_UNLOCK_SQL, [ANALYSIS_LOCK_CLASS, tenantId]);
}

export const analysisRepository = { writeAnalysisResults, tryLockAnalysis, unlockAnalysis };
export type AnalysisRepository = typeof analysisRepository;

/** The raw statements of this module, for test/repository-row-types.test.ts. */
export function checkedStatements(): CheckedStatement[] {
  return [
    { name: "compute analysis results write", sql: WRITE_SQL, columns: null },
    { name: "compute analysis lock", sql: ANALYSIS_LOCK_SQL, columns: ANALYSIS_LOCK_COLUMNS },
    { name: "compute analysis unlock", sql: ANALYSIS_UNLOCK_SQL, columns: null },
  ];
}
