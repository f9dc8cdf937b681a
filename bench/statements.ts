/**
 * Statements benchmark (not a test), PostgreSQL only, over the spend benchmarks' ledger
 * (BENCH_STATEMENT_LINES, default 10 M lines over 2026-07-01 to 2026-09-28: 20 tenants, 200 models,
 * a `team` tag of 7 values) with the dimensions benchmark's `team` dimension applied (200 rules, 3
 * splits): a month's statements (August 2026, about 3.4 M lines) created through the statements
 * service, p50 of BENCH_STATEMENT_CALLS, each deleted after it was timed:
 * 1. by `dimension:team` (the roll-up by value, the splits per day, the correction lines), target
 *    under 5 s; baseline: the same month's direct cost by value read from the lines (grouped by
 *    what the rules read, each group assigned), as a statement would without the roll-up;
 * 2. by tenant (reported), baseline the month's lines summed by tenant, category and service.
 * Each statement's reconciliation must hold (difference 0), and the team statement's total must
 * equal the month's bill.
 *
 *   BENCH_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres pnpm --filter @cloudcost/bench exec tsx statements.ts
 *
 * BENCH_STATEMENT_DB=<a database kept with BENCH_KEEP=1 by this or the dimensions benchmark> reuses
 * its ledger (the dimension is applied afresh). Writes bench/results/statements.json; without
 * BENCH_DATABASE_URL it says so and exits 0.
 */
import os from "node:os";
import path from "node:path";
import type { Principal } from "../apps/main-api/src/auth/principal";
import { applyOrganizationDimensions } from "../apps/main-api/src/dimensions/apply";
import { compileAssigner } from "../apps/main-api/src/dimensions/rollup";
import { createPrisma } from "../apps/main-api/src/db";
import { organizationRepository } from "../apps/main-api/src/organizations/repository";
import { metricAmountsRepository } from "../apps/main-api/src/business-metrics/amounts-repository";
import { dimensionSpendRepository, lineDirectRows, readVersionsOf } from "../apps/main-api/src/spend/dimension-spend-repository";
import { statementCostRepository } from "../apps/main-api/src/statements/cost-repository";
import { statementRepository } from "../apps/main-api/src/statements/repository";
import { createStatementService } from "../apps/main-api/src/statements/service";
import { openBenchDatabase, openKeptDatabase } from "./bench-database";
import { TEAM_VERSION_SQL, teamVersionParams } from "./dimension-rules";
import { env, median, round, runBenchmark, writeResults } from "./measure";
import { loadLedger } from "./spend-ledger";

const LINES = env("BENCH_STATEMENT_LINES", 10_000_000);
const CALLS = env("BENCH_STATEMENT_CALLS", 5);
const BASELINE_CALLS = env("BENCH_STATEMENT_BASELINE_CALLS", 3);
const ORG = "org_bench_dimensions";
const PERIOD = "2026-08";
const FROM = "2026-08-01T00:00:00.000Z";
const TO = "2026-09-01T00:00:00.000Z";

async function timed<T>(calls: number, fn: () => Promise<T>, after: (result: T) => Promise<void> = async () => undefined) {
  const times: number[] = [];
  let last: T | undefined;
  for (let i = 0; i < calls; i++) {
    const t0 = performance.now();
    last = await fn();
    times.push(performance.now() - t0);
    await after(last);
  }
  return { p50_ms: round(median(times)), max_ms: round(Math.max(...times)), calls, last: last as T };
}

async function main() {
  const serverUrl = process.env.BENCH_DATABASE_URL;
  if (!serverUrl) {
    console.log("statements: skipped, BENCH_DATABASE_URL (PostgreSQL) is not set");
    return;
  }
  const kept = process.env.BENCH_STATEMENT_DB;
  const { db, drop } = kept ? await openKeptDatabase(serverUrl, kept) : await openBenchDatabase(serverUrl, "statements", 10);
  const prisma = createPrisma(db.adapter);
  try {
    const ledger = kept ? { lines: LINES, kept } : await loadLedger(db, ORG, LINES);
    console.log(JSON.stringify({ ledger }));
    await db.sql.exec(`DELETE FROM spend_dimension_daily; DELETE FROM spend_dimension_value_daily; DELETE FROM dimension_versions; DELETE FROM webhook_events;
      DELETE FROM statement_recipients; DELETE FROM statements; DELETE FROM organizations WHERE id = '${ORG}'`);
    await db.sql.query("INSERT INTO organizations (id, name, slug) VALUES ($1, 'Bench statements', 'bench-statements')", [ORG]);
    await db.sql.query(TEAM_VERSION_SQL, teamVersionParams(ORG));
    const t0 = performance.now();
    await applyOrganizationDimensions({ prisma }, ORG);
    const applyS = (performance.now() - t0) / 1000;
    await db.sql.exec("ANALYZE spend_dimension_daily; ANALYZE spend_dimension_value_daily");

    const statements = createStatementService({
      prisma,
      sql: db.sql,
      clock: () => new Date(),
      statements: statementRepository,
      costs: statementCostRepository,
      dimensionSpend: dimensionSpendRepository,
      metricAmounts: metricAmountsRepository,
      organizations: organizationRepository,
    });
    const ctx = { organization: { id: ORG }, principal: {} as Principal };
    const remove = async (statement: { id: string }) => statements.remove(ctx, statement.id);
    const loadAverage = os.loadavg().map((l) => round(l));
    const byTeam = await timed(
      CALLS,
      () => statements.create(ctx, { period: PERIOD, by: "dimension:team", metric: "effective_cost", currency: "USD" }),
      remove,
    );
    const byTenant = await timed(CALLS, () => statements.create(ctx, { period: PERIOD, by: "tenant", metric: "effective_cost", currency: "USD" }), remove);
    for (const [name, statement] of [
      ["team", byTeam.last],
      ["tenant", byTenant.last],
    ] as const)
      if (statement.reconciliation.difference !== "0") throw new Error(`${name}: reconciliation ${JSON.stringify(statement.reconciliation)}`);

    const { versions } = await readVersionsOf(db.sql, ORG, ["team"]);
    const assigner = compileAssigner(versions);
    const teamBaseline = await timed(BASELINE_CALLS, async () => {
      const rows = await lineDirectRows(
        db.sql,
        { organizationId: ORG, tenantIds: null, filters: {}, tags: {}, other: "service_name", metric: "effective_cost" },
        assigner.fields,
        FROM,
        TO,
      );
      // Floats: this is the baseline's timing; the exact figures are the statement's.
      const byValue = new Map<string, number>();
      for (const row of rows) {
        const value = assigner.assign(PERIOD, row.fields ?? []).get("team") ?? "";
        byValue.set(value, (byValue.get(value) ?? 0) + Number(row.cost));
      }
      return byValue;
    });
    const tenantBaseline = await timed(BASELINE_CALLS, () =>
      db.sql.query(
        `SELECT tenant_id, charge_category, service_name, sum(effective_cost)::text AS cost FROM spend_lines
          WHERE organization_id = $1 AND charge_period_start >= $2::timestamptz AND charge_period_start < $3::timestamptz GROUP BY 1, 2, 3`,
        [ORG, FROM, TO],
      ),
    );
    const results = {
      lines: LINES,
      period: PERIOD,
      ledger,
      apply_s: round(applyS),
      by_team_p50_ms: byTeam.p50_ms,
      by_team_max_ms: byTeam.max_ms,
      by_team_target_ms: 5000,
      by_team_recipients: byTeam.last.recipients.length,
      by_team_baseline_over_lines_p50_ms: teamBaseline.p50_ms,
      by_tenant_p50_ms: byTenant.p50_ms,
      by_tenant_recipients: byTenant.last.recipients.length,
      by_tenant_baseline_over_lines_p50_ms: tenantBaseline.p50_ms,
      bill_total: byTeam.last.reconciliation.bill_total,
      load_average: loadAverage,
      cpus: os.cpus().length,
      measured_at: new Date().toISOString(),
    };
    console.log(JSON.stringify(results, null, 2));
    writeResults(path.join(__dirname, "results", "statements.json"), results);
  } finally {
    await prisma.$disconnect();
    await db.close();
    await drop();
  }
}

runBenchmark(main);
