/**
 * Budgets and anomalies benchmark (not a test), on PostgreSQL:
 * - budget status: `listBudgets` of a tenant with 20 budgets (monthly, quarterly and annual, half
 *   narrowed to services) over the daily roll-up of a 10-million-line ledger (20 tenants, 120 days,
 *   30 services, 10 regions: 720,000 roll-up rows counting 10,080,000 lines); p50 and p99 of the call.
 * - anomaly detection: every one of the 20 tenants x 30 services x 120 days, one after the other.
 * Budget status and detection read only the roll-up (spend_daily), so the lines themselves are not
 * written: the roll-up rows are generated as the ledger's writes would have left them.
 * Baselines, measured in the same run and interleaved with the figures (the machine is shared):
 * - budgets: the bare read any status needs, one sum over the tenant's roll-up rows of its widest
 *   period (annual) through the same tenant-leading key; and the index the status statement's plan
 *   uses (EXPLAIN), which must be that key.
 * - detection: the figure is one call per tenant (as POST .../anomalies/detect makes); one call for
 *   the organization's 20 tenants (as the daily schedule makes) is reported beside it.
 *   Baseline: per tenant, the bare read of its daily cost per service (what any detection reads).
 * - forecast endpoint: forecastSpend of the tenant's month (what GET /api/v1/tenant/spend/forecast
 *   runs), beside the bare read of the tenant's roll-up rows of the month.
 * Writes bench/results/alerts.json. PostgreSQL only: without BENCH_DATABASE_URL it skips (exit 0).
 *
 *   BENCH_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres pnpm --filter @cloudcost/bench exec tsx alerts.ts
 *
 * Knobs: BENCH_BUDGET_CALLS (50).
 */
import os from "node:os";
import path from "node:path";
import { anomalyServiceOver } from "../apps/main-api/src/anomalies/service";
import { budgetServiceOver } from "../apps/main-api/src/budgets/service";
import { budgetStatuses, budgetStatusReadsOver, specOf } from "../apps/main-api/src/budgets/status";
import { forecastRepository } from "../apps/main-api/src/spend/forecast/repository";
import { createForecastService } from "../apps/main-api/src/spend/forecast/service";
import { spendReadsOver } from "../apps/main-api/src/spend/spend-reads";
import { createPrisma } from "../apps/main-api/src/db";
import { openBenchDatabase } from "./bench-database";
import { percentile, round, writeResults } from "./measure";

const ORG = "org_bench_alerts";
const TENANTS = 20;
const DAYS = 120;
const SERVICES = 30;
const REGIONS = 10;
const LINES_PER_ROW = 14;
const CALLS = Number(process.env.BENCH_BUDGET_CALLS ?? 50);

async function main() {
  const serverUrl = process.env.BENCH_DATABASE_URL;
  if (!serverUrl) {
    console.log("alerts: skipped (the figures are for PostgreSQL: set BENCH_DATABASE_URL)");
    return;
  }
  const { db, drop } = await openBenchDatabase(serverUrl, "alerts");
  const prisma = createPrisma(db.adapter);
  const budgetService = budgetServiceOver(prisma);
  const anomalyService = anomalyServiceOver(prisma);
  const { forecastSpend } = createForecastService({ reads: spendReadsOver(db.sql), prisma, forecasts: forecastRepository });
  try {
    await db.sql.query("INSERT INTO organizations (id, name, slug) VALUES ($1, 'Bench', 'bench-alerts')", [ORG]);
    const t0 = performance.now();
    // Daily cost per (tenant, service, region): a weekly pattern, and one spike per tenant. Written
    // day by day, as imports and ingestion write them.
    await db.sql.query(
      `INSERT INTO spend_daily (organization_id, tenant_id, day, dims_key, currency, source, charge_category, charge_frequency, pricing_category,
              provider, service_name, service_category, region, sub_account_id, model, unpriced_reason, billed_cost, effective_cost, list_cost,
              contracted_cost, line_count)
       SELECT $1, 'ten_' || t, d, md5(s || '/' || r), 'USD', 'focus_import', 'Usage', 'Usage-Based', 'Standard', 'aws', 'service-' || s, 'Compute',
              'region-' || r, '', '', '', c, c, c, c, $2
         FROM generate_series(1, $3::int) t, generate_series(1, $5::int) s, generate_series(1, $6::int) r,
              generate_series(current_date - $4::int, current_date - 1, interval '1 day') g(d),
              LATERAL (SELECT round((20 + (t * 7 + s * 13 + r * 3) % 40 + CASE WHEN extract(isodow FROM d) >= 6 THEN -10 ELSE 0 END
                         + CASE WHEN s = t AND d = current_date - 5 THEN 400 ELSE 0 END)::numeric, 4) AS c) cost
        ORDER BY d, t, s, r`,
      [ORG, LINES_PER_ROW, TENANTS, DAYS, SERVICES, REGIONS],
    );
    // The service roll-up, as the ledger's writes keep it beside spend_daily (detection reads it).
    await db.sql.query(
      `INSERT INTO spend_service_daily (organization_id, tenant_id, day, dims_key, currency, source, charge_category, charge_frequency, pricing_category,
              provider, service_name, service_category, unpriced_reason, billed_cost, effective_cost, list_cost, contracted_cost, line_count)
       SELECT organization_id, tenant_id, day, md5(service_name), currency, source, charge_category, charge_frequency, pricing_category, provider,
              service_name, service_category, unpriced_reason, sum(billed_cost), sum(effective_cost), sum(list_cost), sum(contracted_cost), sum(line_count)
         FROM spend_daily GROUP BY organization_id, tenant_id, day, currency, source, charge_category, charge_frequency, pricing_category, provider,
              service_name, service_category, unpriced_reason`,
    );
    await db.sql.query("ANALYZE spend_daily");
    await db.sql.query("ANALYZE spend_service_daily");
    const [{ rows, lines }] = await db.sql.query<{ rows: string; lines: string }>(
      "SELECT count(*)::text AS rows, sum(line_count)::text AS lines FROM spend_daily",
    );
    const loadMs = performance.now() - t0;

    const tenant = { id: "ten_1", organizationId: ORG };
    const periods = ["monthly", "quarterly", "annual"] as const;
    for (let i = 0; i < 20; i++) {
      await budgetService.createBudget(tenant, {
        name: `budget ${i}`,
        period: periods[i % 3],
        amount: String(10_000 * (i + 1)),
        currency: "USD",
        metric: "billed_cost",
        filters: i % 2 ? { service_name: [`service-${i}`, `service-${i + 1}`] } : {},
        thresholds: [
          { percent: 50, kind: "actual" },
          { percent: 80, kind: "forecast" },
          { percent: 100, kind: "forecast" },
        ],
      });
    }
    // The bare read: the tenant's rows of its widest period (the annual budgets'), summed once.
    const year = new Date().getUTCFullYear();
    const bareBudgetRead = () =>
      db.sql.query("SELECT sum(billed_cost)::text AS s FROM spend_daily WHERE organization_id = $1 AND tenant_id = $2 AND day >= $3::date AND day < $4::date", [
        ORG,
        tenant.id,
        `${year}-01-01`,
        `${year + 1}-01-01`,
      ]);
    for (let i = 0; i < 5; i++) {
      await budgetService.listBudgets(tenant);
      await bareBudgetRead();
    }
    const times: number[] = [];
    const bareTimes: number[] = [];
    for (let i = 0; i < CALLS; i++) {
      // Alternating which goes first, so neither always finds the other's pages warm.
      for (const which of i % 2 ? ["bare", "status"] : ["status", "bare"]) {
        const start = performance.now();
        if (which === "bare") {
          await bareBudgetRead();
          bareTimes.push(performance.now() - start);
        } else {
          const { items } = await budgetService.listBudgets(tenant);
          times.push(performance.now() - start);
          if (items.length !== 20) throw new Error("expected 20 budgets");
        }
      }
    }
    // The forecast endpoint's work for the tenant's month, beside the bare read of the month's roll-up rows.
    const month = new Date().toISOString().slice(0, 8);
    const bareMonthRead = () =>
      db.sql.query("SELECT sum(billed_cost)::text AS s FROM spend_daily WHERE organization_id = $1 AND tenant_id = $2 AND day >= $3::date", [
        ORG,
        tenant.id,
        `${month}01`,
      ]);
    const forecastQuery = { period: "monthly", metric: "billed_cost", currency: "USD", filters: {}, tags: {}, dimension_filters: {} } as const;
    for (let i = 0; i < 5; i++) {
      await forecastSpend(tenant, forecastQuery);
      await bareMonthRead();
    }
    const forecastTimes: number[] = [];
    const bareMonthTimes: number[] = [];
    for (let i = 0; i < CALLS; i++) {
      for (const which of i % 2 ? ["bare", "forecast"] : ["forecast", "bare"]) {
        const start = performance.now();
        if (which === "bare") {
          await bareMonthRead();
          bareMonthTimes.push(performance.now() - start);
        } else {
          const forecast = await forecastSpend(tenant, forecastQuery);
          forecastTimes.push(performance.now() - start);
          if (forecast.forecast === null) throw new Error("expected a forecast");
        }
      }
    }
    const planIndexes = await statusPlanIndexes(db.sql, await prisma.budget.findMany({ where: { organizationId: ORG, tenantId: tenant.id } }));

    // Detection: the figure is the first detection of every tenant (it stores that tenant's spike);
    // each tenant's bare read and JavaScript scoring are measured beside it, in a rotating order.
    const today = new Date(Math.floor(Date.now() / 86_400_000) * 86_400_000);
    const detectDays = DAYS - 14;
    const historyFrom = new Date(today.getTime() - DAYS * 86_400_000).toISOString().slice(0, 10);
    const dailyRead = (tenantId: string) =>
      db.sql.query<{ service_name: string; day: string; cost: string }>(
        `SELECT service_name, to_char(day, 'YYYY-MM-DD') AS day, sum(billed_cost)::text AS cost
           FROM spend_daily
          WHERE organization_id = $1 AND tenant_id = $2 AND currency = 'USD' AND day >= $3::date AND day < $4::date
          GROUP BY service_name, day ORDER BY service_name, day`,
        [ORG, tenantId, historyFrom, today.toISOString().slice(0, 10)],
      );
    for (let t = 1; t <= TENANTS; t++) await dailyRead(`ten_${t}`); // every path finds the same warm pages
    const spent = { detect: 0, bare: 0 };
    let anomalies = 0;
    const steps: Record<keyof typeof spent, (tenantId: string) => Promise<void>> = {
      detect: async (tenantId) => {
        anomalies += (await anomalyService.detectTenantAnomalies({ id: tenantId, organizationId: ORG }, { days: detectDays })).detected;
      },
      bare: async (tenantId) => {
        await dailyRead(tenantId);
      },
    };
    const order = ["detect", "bare"] as const;
    for (let t = 1; t <= TENANTS; t++) {
      for (let k = 0; k < order.length; k++) {
        const step = order[(t + k) % order.length];
        const start = performance.now();
        await steps[step](`ten_${t}`);
        spent[step] += performance.now() - start;
      }
    }
    // The daily schedule's way: one statement for all the organization's tenants (the anomalies
    // stored above are removed first, so it stores them again).
    await db.sql.query("DELETE FROM spend_anomalies WHERE organization_id = $1", [ORG]);
    const o0 = performance.now();
    const tenantIds = Array.from({ length: TENANTS }, (_, i) => `ten_${i + 1}`);
    const organizationCall = await anomalyService.detectOrganizationAnomalies(ORG, tenantIds, { days: detectDays });
    const organizationMs = performance.now() - o0;
    if (organizationCall.detected !== anomalies) throw new Error(`one call for the organization found ${organizationCall.detected} anomalies`);

    const p50 = percentile(times, 0.5);
    const bareP50 = percentile(bareTimes, 0.5);
    const results = {
      database: "postgres",
      load_average: os.loadavg().map((l) => round(l)),
      rollup_rows: Number(rows),
      ledger_lines: Number(lines),
      load_s: round(loadMs / 1000),
      budget_status_20_budgets: {
        calls: CALLS,
        p50_ms: round(p50, 2),
        p99_ms: round(percentile(times, 0.99), 2),
        bare_read_p50_ms: round(bareP50, 2),
        ratio_p50: round(p50 / bareP50, 2),
        plan_indexes: planIndexes,
        target_p50_ms: 50,
      },
      forecast_endpoint: {
        calls: CALLS,
        p50_ms: round(percentile(forecastTimes, 0.5), 2),
        p99_ms: round(percentile(forecastTimes, 0.99), 2),
        bare_read_p50_ms: round(percentile(bareMonthTimes, 0.5), 2),
        ratio_p50: round(percentile(forecastTimes, 0.5) / percentile(bareMonthTimes, 0.5), 2),
        target_p50_ms: 50,
      },
      anomaly_detection: {
        tenants: TENANTS,
        services: SERVICES,
        days: DAYS,
        total_s: round(spent.detect / 1000, 2),
        anomalies,
        bare_read_s: round(spent.bare / 1000, 2),
        ratio_to_bare_read: round(spent.detect / spent.bare, 2),
        organization_call_s: round(organizationMs / 1000, 2),
        target_s: 5,
      },
    };
    writeResults(path.join(__dirname, "results", "alerts.json"), results);
    console.log(JSON.stringify(results, null, 2));
  } finally {
    await prisma.$disconnect();
    await db.close();
    await drop();
  }
}

/** The indexes the plan of the budget status statement reads spend_daily through (EXPLAIN of the statement listBudgets runs). */
async function statusPlanIndexes(sql: { query<T>(sql: string, params?: unknown[]): Promise<T[]> }, budgets: Parameters<typeof specOf>[0][]): Promise<string[]> {
  let statement: { sql: string; params: unknown[] } | undefined;
  const capture = {
    // The first statement is the daily series over spend_daily; the second reads the recurring lines.
    $queryRawUnsafe: async (text: string, ...params: unknown[]) => {
      statement ??= { sql: text, params };
      return [];
    },
  };
  await budgetStatuses(budgetStatusReadsOver(capture as never), budgets.map(specOf), new Date()).catch(() => undefined);
  if (!statement) throw new Error("no status statement captured");
  const [row] = await sql.query<{ "QUERY PLAN": unknown }>(`EXPLAIN (FORMAT JSON) ${statement.sql}`, statement.params);
  const indexes = new Set<string>();
  const walk = (node: Record<string, unknown>) => {
    if (node["Relation Name"] === "spend_daily" || String(node["Node Type"]).includes("Index")) {
      if (typeof node["Index Name"] === "string") indexes.add(node["Index Name"]);
      else if (node["Relation Name"] === "spend_daily" && node["Node Type"] === "Seq Scan") indexes.add("(sequential scan)");
    }
    for (const child of (node.Plans as Record<string, unknown>[] | undefined) ?? []) walk(child);
  };
  walk((row["QUERY PLAN"] as { Plan: Record<string, unknown> }[])[0].Plan);
  return [...indexes];
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
