/**
 * Dimensions benchmark (not a test), PostgreSQL only, over the spend benchmarks' ledger
 * (BENCH_DIMENSION_LINES, default 10 M lines: 20 tenants, 90 days, 200 models over 30 services, a
 * `team` tag of 7 values):
 * 1. Applying a version of 200 rules (199 on the model, the last the `team` tag's value) and 3
 *    splits to every line (applyOrganizationDimensions: the background apply, a month per
 *    transaction), target under 2 minutes.
 * 2. A tenant's 90 days by day and `dimension:team` with the splits (spendReport), p50 of
 *    BENCH_DIMENSION_CALLS, target under 150 ms; baseline: the same lines' direct cost by value
 *    read from the lines (grouped by what the rules read, each group assigned), as the query would
 *    without the roll-up. The answer's total must equal the tenant's total without the dimension.
 *
 *   BENCH_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres pnpm --filter @cloudcost/bench exec tsx dimensions.ts
 *
 * Writes bench/results/dimensions.json; without BENCH_DATABASE_URL it says so and exits 0.
 */
import os from "node:os";
import path from "node:path";
import { applyOrganizationDimensions } from "../apps/main-api/src/dimensions/apply";
import { compileAssigner } from "../apps/main-api/src/dimensions/rollup";
import { createPrisma } from "../apps/main-api/src/db";
import { spendReport } from "../apps/main-api/src/spend/dimension-query";
import { lineDirectRows, readVersionsOf } from "../apps/main-api/src/spend/dimension-spend-repository";
import { querySpend, type SpendQueryInput } from "../apps/main-api/src/spend/query";
import { spendReadsOver } from "../apps/main-api/src/spend/spend-reads";
import { openBenchDatabase, openKeptDatabase } from "./bench-database";
import { RULES, SPLITS, TEAM_VERSION_SQL, teamVersionParams } from "./dimension-rules";
import { env, round, runBenchmark, time, writeResults } from "./measure";
import { loadLedger } from "./spend-ledger";

const LINES = env("BENCH_DIMENSION_LINES", 10_000_000);
const CALLS = env("BENCH_DIMENSION_CALLS", 20);
const BASELINE_CALLS = env("BENCH_DIMENSION_BASELINE_CALLS", 3);
const ORG = "org_bench_dimensions";
const TENANT = "ten_03";

async function main() {
  const serverUrl = process.env.BENCH_DATABASE_URL;
  if (!serverUrl) {
    console.log("dimensions: skipped, BENCH_DATABASE_URL (PostgreSQL) is not set");
    return;
  }
  // BENCH_DIMENSION_DB=<a database kept with BENCH_KEEP=1>: its ledger again, the dimension applied afresh.
  const kept = process.env.BENCH_DIMENSION_DB;
  const { db, drop } = kept ? await openKeptDatabase(serverUrl, kept) : await openBenchDatabase(serverUrl, "dimensions", 10);
  const prisma = createPrisma(db.adapter);
  try {
    const ledger = kept ? { lines: LINES, kept } : await loadLedger(db, ORG, LINES);
    console.log(JSON.stringify({ ledger }));
    await db.sql.exec(`DELETE FROM spend_dimension_daily; DELETE FROM spend_dimension_value_daily; DELETE FROM dimension_versions; DELETE FROM webhook_events;
      DELETE FROM organizations WHERE id = '${ORG}'`);
    // The organization row (the applied event's webhook_events row refers to it); the ledger needs none.
    await db.sql.query("INSERT INTO organizations (id, name, slug) VALUES ($1, 'Bench dimensions', 'bench-dimensions')", [ORG]);
    await db.sql.query(TEAM_VERSION_SQL, teamVersionParams(ORG));
    const loadAverageAtApply = os.loadavg().map((l) => round(l));
    const t0 = performance.now();
    const applied = await applyOrganizationDimensions({ prisma }, ORG);
    const applyS = (performance.now() - t0) / 1000;
    if (applied.length !== 1) throw new Error(`expected one version applied, got ${JSON.stringify(applied)}`);
    await db.sql.exec("ANALYZE spend_dimension_daily");
    const [{ rows: rollupRows }] = await db.sql.query<{ rows: number }>("SELECT count(*)::int AS rows FROM spend_dimension_daily WHERE organization_id = $1", [
      ORG,
    ]);
    console.log(JSON.stringify({ apply_s: round(applyS), rollup_rows: rollupRows }));

    const scope = { organizationId: ORG, tenantIds: [TENANT] };
    const query: SpendQueryInput = {
      start: "2026-07-01T00:00:00.000Z",
      end: "2026-09-29T00:00:00.000Z",
      granularity: "day",
      metric: "billed_cost",
      group_by: ["dimension:team"],
      filters: {},
      tags: {},
    };
    const reads = spendReadsOver(db.sql);
    const report = await spendReport(reads, scope, query);
    const plain = await querySpend(reads, scope, { ...query, group_by: [] });
    if (JSON.stringify(report.totals) !== JSON.stringify(plain.totals))
      throw new Error(`totals differ: by dimension ${JSON.stringify(report.totals)}, without ${JSON.stringify(plain.totals)}`);
    const loadAverageAtQuery = os.loadavg().map((l) => round(l));
    const byDimension = await time(CALLS, () => spendReport(reads, scope, query));
    const { versions } = await readVersionsOf(db.sql, ORG, ["team"]);
    const assigner = compileAssigner(versions);
    const baseline = await time(
      BASELINE_CALLS,
      async () => {
        const rows = await lineDirectRows(
          db.sql,
          { organizationId: ORG, tenantIds: [TENANT], filters: {}, tags: {}, other: undefined, metric: "billed_cost" },
          assigner.fields,
          query.start,
          query.end,
        );
        // The sums only as floats: this is the baseline's timing, the exact figures are the query's.
        const byValue = new Map<string, number>();
        for (const row of rows) {
          const value = assigner.assign(row.day.slice(0, 7), row.fields ?? []).get("team") ?? "";
          byValue.set(`${row.day}|${value}`, (byValue.get(`${row.day}|${value}`) ?? 0) + Number(row.cost));
        }
        return byValue;
      },
      1,
    );
    const results = {
      lines: LINES,
      rules: RULES.length,
      splits: SPLITS.length,
      ledger,
      apply_s: round(applyS),
      apply_target_s: 120,
      rollup_rows: rollupRows,
      by_dimension_day_90d_p50_ms: byDimension.p50_ms,
      by_dimension_day_90d_p99_ms: byDimension.p99_ms,
      by_dimension_target_ms: 150,
      baseline_over_lines_p50_ms: baseline.p50_ms,
      rows: report.rows.length,
      load_average_at_apply: loadAverageAtApply,
      load_average_at_query: loadAverageAtQuery,
      cpus: os.cpus().length,
      measured_at: new Date().toISOString(),
    };
    console.log(JSON.stringify(results, null, 2));
    writeResults(path.join(__dirname, "results", "dimensions.json"), results);
  } finally {
    await prisma.$disconnect();
    await db.close();
    await drop();
  }
}

runBenchmark(main);
