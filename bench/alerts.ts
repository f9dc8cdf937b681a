/**
 * Budgets and anomalies benchmark (not a test), on PostgreSQL:
 * - budget status: `listBudgets` of a tenant with 20 budgets (monthly, quarterly and annual, half
 *   narrowed to services) over the daily roll-up of a 10-million-line ledger (20 tenants, 120 days,
 *   30 services, 10 regions: 720,000 roll-up rows counting 10,080,000 lines); p50 and p99 of the call.
 * - anomaly detection: every one of the 20 tenants x 30 services x 120 days, one after the other.
 * Budget status and detection read only the roll-up (spend_daily), so the lines themselves are not
 * written: the roll-up rows are generated as the ledger's writes would have left them.
 *
 *   BENCH_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres pnpm --filter @cloudcost/bench exec tsx alerts.ts
 *
 * Knobs: BENCH_BUDGET_CALLS (50).
 */
import { Client } from "pg";
import pino from "pino";
import { openMigratedDatabase } from "@cloudcost/db";
import { detectTenantAnomalies } from "../apps/main-api/src/anomalies/service";
import { createBudget, listBudgets } from "../apps/main-api/src/budgets/service";
import { createPrisma } from "../apps/main-api/src/db";
import { MIGRATIONS_DIR, SESSION_SETTINGS } from "../apps/main-api/src/db";

const ORG = "org_bench_alerts";
const TENANTS = 20;
const DAYS = 120;
const SERVICES = 30;
const REGIONS = 10;
const LINES_PER_ROW = 14;
const CALLS = Number(process.env.BENCH_BUDGET_CALLS ?? 50);

const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.max(0, Math.ceil(p * values.length) - 1)];
const round = (n: number, digits = 1) => Number(n.toFixed(digits));

async function main() {
  const serverUrl = process.env.BENCH_DATABASE_URL;
  if (!serverUrl) throw new Error("BENCH_DATABASE_URL is required (the figures are for PostgreSQL)");
  const name = `cloudcost_bench_alerts_${Date.now().toString(36)}`;
  const admin = async (sql: string) => {
    const client = new Client({ connectionString: serverUrl });
    await client.connect();
    await client.query(sql).finally(() => client.end());
  };
  await admin(`CREATE DATABASE "${name}"`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const db = await openMigratedDatabase({
    url: url.toString(),
    dataDir: "",
    migrationsDir: MIGRATIONS_DIR,
    logger: pino({ level: "warn" }),
    poolSize: 4,
    sessionSettings: SESSION_SETTINGS,
  });
  const prisma = createPrisma(db.adapter);
  try {
    await db.sql.query("INSERT INTO organizations (id, name, slug) VALUES ($1, 'Bench', 'bench-alerts')", [ORG]);
    const t0 = performance.now();
    // Daily cost per (tenant, service, region): a weekly pattern, and one spike per tenant. Written
    // day by day, as imports and ingestion write them.
    await db.sql.query(
      `INSERT INTO spend_daily (organization_id, tenant_id, day, dims_key, currency, source, charge_category, provider, service_name,
              service_category, region, sub_account_id, model, unpriced_reason, billed_cost, effective_cost, list_cost, line_count)
       SELECT $1, 'ten_' || t, d, md5(s || '/' || r), 'USD', 'focus_import', 'Usage', 'aws', 'service-' || s, 'Compute', 'region-' || r, '', '', '',
              c, c, c, $2
         FROM generate_series(1, $3::int) t, generate_series(1, $5::int) s, generate_series(1, $6::int) r,
              generate_series(current_date - $4::int, current_date - 1, interval '1 day') g(d),
              LATERAL (SELECT round((20 + (t * 7 + s * 13 + r * 3) % 40 + CASE WHEN extract(isodow FROM d) >= 6 THEN -10 ELSE 0 END
                         + CASE WHEN s = t AND d = current_date - 5 THEN 400 ELSE 0 END)::numeric, 4) AS c) cost
        ORDER BY d, t, s, r`,
      [ORG, LINES_PER_ROW, TENANTS, DAYS, SERVICES, REGIONS],
    );
    await db.sql.query("ANALYZE spend_daily");
    const [{ rows, lines }] = await db.sql.query<{ rows: string; lines: string }>(
      "SELECT count(*)::text AS rows, sum(line_count)::text AS lines FROM spend_daily",
    );
    const loadMs = performance.now() - t0;

    const tenant = { id: "ten_1", organizationId: ORG };
    const periods = ["monthly", "quarterly", "annual"] as const;
    for (let i = 0; i < 20; i++) {
      await createBudget(prisma, tenant, {
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
    for (let i = 0; i < 5; i++) await listBudgets(prisma, tenant);
    const times: number[] = [];
    for (let i = 0; i < CALLS; i++) {
      const start = performance.now();
      const { items } = await listBudgets(prisma, tenant);
      times.push(performance.now() - start);
      if (items.length !== 20) throw new Error("expected 20 budgets");
    }

    const d0 = performance.now();
    let anomalies = 0;
    for (let t = 1; t <= TENANTS; t++)
      anomalies += (await detectTenantAnomalies(prisma, { id: `ten_${t}`, organizationId: ORG }, { days: DAYS - 14 })).detected;
    const detectMs = performance.now() - d0;

    console.log(
      JSON.stringify(
        {
          database: "postgres",
          rollup_rows: Number(rows),
          ledger_lines: Number(lines),
          load_s: round(loadMs / 1000),
          budget_status_20_budgets: { calls: CALLS, p50_ms: round(percentile(times, 0.5), 2), p99_ms: round(percentile(times, 0.99), 2) },
          anomaly_detection: { tenants: TENANTS, services: SERVICES, days: DAYS, total_s: round(detectMs / 1000, 2), anomalies },
        },
        null,
        2,
      ),
    );
  } finally {
    await prisma.$disconnect();
    await db.close();
    if (!process.env.BENCH_KEEP) await admin(`DROP DATABASE "${name}" WITH (FORCE)`);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
