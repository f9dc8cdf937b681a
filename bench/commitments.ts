/**
 * Commitments benchmark (not a test), PostgreSQL only: over a ledger of BENCH_COMMITMENT_LINES
 * lines (default 10 M: one organization, 20 tenants, a year of hourly usage over 30 services, 5 %
 * of the lines covered by one of 5 Savings Plans, 1 % Unused commitment lines):
 * 1. utilization of every commitment over the year (findUtilization: spend_commitment_daily),
 * 2. coverage of the year by service (findCoverage: spend_coverage_daily),
 * each beside the same aggregation straight over the lines (the baseline), p50 of BENCH_COMMITMENT_CALLS;
 * 3. a purchase recommendation over 90 days: the hourly on-demand series (spend_ondemand_hourly)
 *    and the best commitment (sortSeries, bestCommitment), beside the series built from the lines.
 *
 *   BENCH_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres pnpm --filter @cloudcost/bench exec tsx commitments.ts
 *
 * The ledger is loaded with one INSERT ... SELECT FROM generate_series and the four roll-ups built
 * with the eligibility migration's rebuild (what the ledger's writes maintain line by line; test/helpers/rollup.ts
 * checks that they agree). Writes bench/results/commitments.json; without BENCH_DATABASE_URL it says
 * so and exits 0. Knobs: BENCH_COMMITMENT_LINES, BENCH_COMMITMENT_CALLS (20), BENCH_COMMITMENT_BASELINE_CALLS (3), BENCH_KEEP=1.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Database } from "@cloudcost/db";
import { bestCommitment, hourlySeries, sortSeries } from "../apps/main-api/src/commitments/purchase";
import { findCoverage, findOnDemandSeries, findUtilization } from "../apps/main-api/src/commitments/repository";
import { MIGRATIONS_DIR } from "../apps/main-api/src/db";
import { eligibleUsage, onDemandEquivalent } from "../apps/main-api/src/spend/commitment-rollups-repository";
import { openBenchDatabase } from "./bench-database";
import { env, round, runBenchmark, time, writeResults } from "./measure";

const LINES = env("BENCH_COMMITMENT_LINES", 10_000_000);
const CALLS = env("BENCH_COMMITMENT_CALLS", 20);
const BASELINE_CALLS = env("BENCH_COMMITMENT_BASELINE_CALLS", 3);
const ORG = "org_bench_commitments";
const YEAR = { start: "2026-01-01T00:00:00.000Z", end: "2027-01-01T00:00:00.000Z" };
const HOUR_MS = 3_600_000;

/**
 * Line i: a tenant (its own sub-account), a service (a third Compute; its region follows it), an hour
 * of the year; every 20th covered by one of 5 plans, every 100th (+1) a plan's Unused hour.
 */
async function loadLedger(db: Database) {
  const t0 = performance.now();
  await db.sql.exec("ALTER TABLE spend_lines SET (autovacuum_enabled = false);");
  await db.sql.query(
    `INSERT INTO spend_lines (organization_id, id, tenant_id, source, charge_period_start, charge_period_end, charge_category, provider, service_name,
        service_category, region, sub_account_id, billing_account_id, billed_cost, effective_cost, list_cost, currency, tags, priced, charge_frequency,
        pricing_category, commitment_discount_id, commitment_discount_category, commitment_discount_type, commitment_discount_status, pricing_unit)
     SELECT $1, 'spl_' || i, 'ten_' || lpad(t::text, 2, '0'), 'focus_import', ts, ts + interval '1 hour', 'Usage', 'AWS', 'service-' || lpad(s::text, 2, '0'),
       CASE WHEN s % 3 = 0 THEN 'Compute' ELSE 'Databases' END, 'region-' || (s % 4), 'acct-' || t, 'payer',
       CASE WHEN covered OR unused THEN 0 ELSE cost END, CASE WHEN covered OR unused THEN cost * 0.72 ELSE cost END, CASE WHEN unused THEN 0 ELSE cost END,
       'USD', '{}', true, 'Usage-Based', CASE WHEN covered OR unused THEN 'Committed' ELSE 'Standard' END,
       CASE WHEN covered OR unused THEN 'sp-' || (i % 5) END, CASE WHEN covered OR unused THEN 'Spend' END,
       CASE WHEN covered OR unused THEN 'Compute Savings Plan' END, CASE WHEN covered THEN 'Used' WHEN unused THEN 'Unused' END, 'Hrs'
     FROM generate_series(1, $2::int) AS i,
       LATERAL (SELECT abs(hashint4(i)) % 30 AS s, abs(hashint4(-i)) % 20 AS t, i % 20 = 0 AS covered, i % 100 = 1 AS unused,
                       timestamptz '2026-01-01' + (abs(hashint4(i # 7654321)) % 8760) * interval '1 hour' AS ts,
                       (0.01 + (i % 500) / 100.0)::numeric AS cost) x`,
    [ORG, LINES],
  );
  const loaded = performance.now();
  const migration = fs.readFileSync(path.join(MIGRATIONS_DIR, "20261203990000_commitment_eligibility", "migration.sql"), "utf8");
  // The migration's rebuild (its statements after the column changes) fills the four roll-ups from
  // the eligible lines, as on upgrade; in one transaction (its eligible lines are a temporary table).
  const statements = migration
    .split("\n")
    .filter((line) => !line.trimStart().startsWith("--"))
    .join("\n")
    .split(";")
    .filter((statement) => statement.trim() !== "" && !/^\s*ALTER TABLE/.test(statement));
  await db.sql.exec(`BEGIN;\n${statements.join(";\n")};\nCOMMIT;`);
  await db.sql.exec(
    "ANALYZE spend_lines; ANALYZE spend_commitment_daily; ANALYZE spend_coverage_daily; ANALYZE spend_coverage_monthly; ANALYZE spend_ondemand_hourly;",
  );
  const [{ daily, coverage, hourly }] = await db.sql.query<{ daily: number; coverage: number; hourly: number }>(
    `SELECT (SELECT count(*)::int FROM spend_commitment_daily WHERE organization_id = $1) AS daily,
       (SELECT count(*)::int FROM spend_coverage_daily WHERE organization_id = $1) AS coverage,
       (SELECT count(*)::int FROM spend_ondemand_hourly WHERE organization_id = $1) AS hourly`,
    [ORG],
  );
  return {
    lines: LINES,
    commitment_rollup_rows: daily,
    coverage_rollup_rows: coverage,
    ondemand_hourly_rows: hourly,
    insert_s: round((loaded - t0) / 1000),
    rollup_s: round((performance.now() - loaded) / 1000),
  };
}

async function benchQueries(db: Database) {
  const range = { organizationId: ORG, tenantIds: null, ...YEAR };
  const utilization = await time(CALLS, () => findUtilization(db.sql, range));
  const utilizationLines = await time(
    BASELINE_CALLS,
    () =>
      db.sql.query(
        `SELECT commitment_discount_id, sum(effective_cost) FILTER (WHERE commitment_discount_status = 'Used')::text AS used,
           sum(effective_cost) FILTER (WHERE commitment_discount_status = 'Unused')::text AS unused
         FROM spend_lines WHERE organization_id = $1 AND charge_category = 'Usage' AND commitment_discount_id IS NOT NULL
           AND charge_period_start >= $2 AND charge_period_start < $3 GROUP BY 1`,
        [ORG, YEAR.start, YEAR.end],
      ),
    1,
  );
  const coverage = await time(CALLS, () => findCoverage(db.sql, range, "service_name"));
  const coverageLines = await time(
    BASELINE_CALLS,
    () =>
      db.sql.query(
        `SELECT l.provider, l.currency, l.service_name, sum(${onDemandEquivalent("l")}) FILTER (WHERE l.pricing_category = 'Committed')::text AS covered,
           sum(l.effective_cost) FILTER (WHERE l.pricing_category = 'Standard')::text AS on_demand
           FROM spend_lines l WHERE l.organization_id = $1 AND ${eligibleUsage("l")} AND coalesce(l.commitment_discount_status, '') <> 'Unused'
            AND l.charge_period_start >= $2 AND l.charge_period_start < $3 GROUP BY 1, 2, 3`,
        [ORG, YEAR.start, YEAR.end],
      ),
    1,
  );
  // 90 days ending with the year, the AWS Compute rate scope (provider only).
  const end = new Date(YEAR.end);
  const start = new Date(end.getTime() - 90 * 24 * HOUR_MS);
  const recommend = async () => {
    const [row] = await findOnDemandSeries(db.sql, ORG, start, end, [{ provider: "aws", serviceCategory: "", region: "" }]);
    return bestCommitment(sortSeries(hourlySeries(row?.hours ?? [], row?.costs ?? [], 90 * 24)), 28);
  };
  const best = await recommend();
  const recommendation = await time(CALLS, recommend);
  const recommendationLines = await time(
    BASELINE_CALLS,
    () =>
      db.sql.query(
        `SELECT date_trunc('hour', l.charge_period_start) AS hour, sum(l.effective_cost)::text FROM spend_lines l
          WHERE l.organization_id = $1 AND ${eligibleUsage("l")} AND l.pricing_category = 'Standard' AND l.charge_period_start >= $2 AND l.charge_period_start < $3
          GROUP BY 1`,
        [ORG, start.toISOString(), end.toISOString()],
      ),
    1,
  );
  return {
    utilization_year: {
      route: utilization,
      lines_baseline: utilizationLines,
      ratio: round(utilizationLines.p50_ms / utilization.p50_ms, 2),
      target_p50_ms: 200,
    },
    coverage_year_by_service: { route: coverage, lines_baseline: coverageLines, ratio: round(coverageLines.p50_ms / coverage.p50_ms, 2), target_p50_ms: 200 },
    recommendation_90_days: {
      route: recommendation,
      lines_baseline: recommendationLines,
      ratio: round(recommendationLines.p50_ms / recommendation.p50_ms, 2),
      target_p50_ms: 500,
      hourly_commitment: best.commitment.toFixed(2),
    },
  };
}

const RESULTS = path.join(__dirname, "results", "commitments.json");

async function main() {
  const serverUrl = process.env.BENCH_DATABASE_URL;
  if (!serverUrl) {
    console.log("commitments: skipped, BENCH_DATABASE_URL (PostgreSQL) is not set");
    return;
  }
  const { db, drop } = await openBenchDatabase(serverUrl, "commitments");
  try {
    const results: Record<string, unknown> = { ledger: await loadLedger(db) };
    console.log(JSON.stringify(results.ledger));
    results.queries = await benchQueries(db);
    results.load_average = os.loadavg().map((l) => round(l));
    console.log(JSON.stringify(results, null, 2));
    if (!process.env.BENCH_NO_WRITE) {
      writeResults(RESULTS, results);
    }
  } finally {
    await db.close();
    await drop();
  }
}

runBenchmark(main);
