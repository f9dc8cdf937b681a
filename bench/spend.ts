/**
 * Spend benchmark (not a test), PostgreSQL only:
 * 1. Usage ingestion: batches of 10,000 model usage lines priced by the real pricing API (in
 *    process, its own database) and stored through the ledger (service level: ingestUsage).
 * 2. Spend queries over a ledger of BENCH_SPEND_LINES lines (default 10 M: one organization, 20
 *    tenants, 90 days, 200 models over 30 services) through querySpend (the daily roll-up),
 *    beside the same aggregation straight over the lines (the baseline), p50 of BENCH_SPEND_CALLS;
 *    `tag:<key>` grouping (read from spend_tag_daily: every line carries a `team` tag of 7 values)
 *    and a tag filter beside a service grouping (read from spend_tag_service_daily), each beside the
 *    same aggregation written by hand over the lines, whose answer it must equal.
 *
 *   BENCH_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres pnpm --filter @cloudcost/bench exec tsx spend.ts
 *
 * The ledger is loaded with one INSERT ... SELECT FROM generate_series and the four roll-ups built
 * with one GROUP BY each (spend_tag_service_daily with its migration's own statement) (what the ledger's writes maintain line by line; test/spend-ledger.test.ts
 * checks that they agree). BENCH_KEEP=1 keeps the database. Writes bench/results/spend.json; without
 * BENCH_DATABASE_URL it says so and exits 0 (pnpm bench then reports it as not run).
 * Knobs: BENCH_SPEND_LINES, BENCH_SPEND_CALLS (20), BENCH_USAGE_BATCHES (7), BENCH_SKIP_USAGE,
 * BENCH_SKIP_QUERIES (the usage figure only, written over the last full run's), BENCH_SPEND_BASELINE_CALLS (3), BENCH_SPEND_TAG_CALLS (5), BENCH_SPEND_DB=<kept database> (queries only,
 * roll-ups rebuilt unless BENCH_SPEND_KEEP_ROLLUPS=1).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pino from "pino";
import { IngestUsageRequest } from "@cloudcost/contracts";
import { openMigratedDatabase, type Database } from "@cloudcost/db";
import { buildDeps } from "../apps/main-api/src/compose";
import { loadConfig } from "../apps/main-api/src/config";
import { MIGRATIONS_DIR, SESSION_SETTINGS } from "../apps/main-api/src/db";
import { querySpend, type SpendQueryInput } from "../apps/main-api/src/spend/query";
import { spendReadsOver } from "../apps/main-api/src/spend/spend-reads";
import { spendLinesRepository } from "../apps/main-api/src/spend/lines-repository";
import { usageRepository } from "../apps/main-api/src/spend/usage-repository";
import { createUsageService } from "../apps/main-api/src/spend/usage-service";
import { TEST_SERVICE_TOKEN_SECRET } from "../apps/main-api/test/helpers/context";
import { startPricingApi } from "../apps/main-api/test/helpers/pricing-api";
import { modelUsage, registerModelPrices } from "../apps/main-api/test/helpers/spend";
import { openBenchDatabase } from "./bench-database";
import { buildRollup, loadLedger } from "./spend-ledger";
import { env, percentile, round, runBenchmark, time, writeResults } from "./measure";

const LINES = env("BENCH_SPEND_LINES", 10_000_000);
const CALLS = env("BENCH_SPEND_CALLS", 20);
/** The baseline aggregates millions of lines per call (tens of seconds on a loaded machine): fewer calls, one warm-up. */
const BASELINE_CALLS = env("BENCH_SPEND_BASELINE_CALLS", 3);
const BATCHES = env("BENCH_USAGE_BATCHES", 7);
/** `tag:<key>` queries read the tenant's lines (seconds each on a loaded machine): fewer calls, one warm-up. */
const TAG_CALLS = env("BENCH_SPEND_TAG_CALLS", 5);
const ORG = "org_bench_spend";

async function benchIngestion(db: Database) {
  const pricingApi = await startPricingApi(TEST_SERVICE_TOKEN_SECRET);
  try {
    const config = loadConfig({
      LOG_LEVEL: "silent",
      PRICING_API_URL: pricingApi.url,
      PRICING_API_TIMEOUT_MS: "60000",
      SERVICE_TOKEN_SECRET: TEST_SERVICE_TOKEN_SECRET,
      MAIN_API_DEV_ISSUER_DIR: fs.mkdtempSync(path.join(os.tmpdir(), "cloudcost-bench-issuer-")),
    });
    const deps = buildDeps({ config, db, logger: pino({ level: "silent" }) });
    const { ingestUsage } = createUsageService({ ...deps, lines: spendLinesRepository, usage: usageRepository });
    const prices = await registerModelPrices(pricingApi, "org_bench_usage", "bench-model", [
      { bucket: "input", perMtok: 2.5 },
      { bucket: "output", perMtok: 10 },
    ]);
    const times: number[] = [];
    const pricing: number[] = [];
    for (let b = 0; b < BATCHES; b++) {
      const raw = Array.from({ length: 10_000 }, (_, i) =>
        modelUsage(
          prices.input,
          { input: 1000 + i, output: 200 + (i % 50) },
          { event_id: `bench-${b}-${i}`, timestamp: new Date(Date.UTC(2026, 9, 1, 0, 0, i)).toISOString() },
        ),
      );
      const t0 = performance.now();
      const { usage } = IngestUsageRequest.parse({ usage: raw });
      const result = await ingestUsage({ id: "ten_bench_usage", organizationId: "org_bench_usage" }, usage);
      times.push(performance.now() - t0);
      if (result.accepted !== 10_000 || result.priced !== 10_000) throw new Error(`unexpected ingestion result ${JSON.stringify(result)}`);
      // The pricing call alone for the same lines (part of the figure above), for the breakdown.
      const t1 = performance.now();
      await deps.pricingApi.priceUsage(
        "org_bench_usage",
        usage.map(({ event_id: _eventId, ...line }) => line),
      );
      pricing.push(performance.now() - t1);
    }
    await deps.prisma.$disconnect();
    return { batches: BATCHES, p50_ms: round(percentile(times, 0.5)), max_ms: round(Math.max(...times)), pricing_call_p50_ms: round(percentile(pricing, 0.5)) };
  } finally {
    await pricingApi.close();
  }
}

async function benchQueries(db: Database) {
  const base = { granularity: "day" as const, metric: "billed_cost" as const, filters: {}, tags: {} };
  const tenantQuery: SpendQueryInput = { ...base, start: "2026-07-01T00:00:00.000Z", end: "2026-09-29T00:00:00.000Z", group_by: ["service_name"] };
  const orgQuery: SpendQueryInput = {
    ...base,
    granularity: "month",
    start: "2026-08-01T00:00:00.000Z",
    end: "2026-09-01T00:00:00.000Z",
    group_by: ["tenant", "service_name"],
  };
  const tenant = { organizationId: ORG, tenantIds: ["ten_03"] };
  const org = { organizationId: ORG, tenantIds: null };
  const reads = spendReadsOver(db.sql);
  const check = await querySpend(reads, tenant, tenantQuery);
  const tenantRollup = await time(CALLS, () => querySpend(reads, tenant, tenantQuery));
  const tenantLines = await time(
    BASELINE_CALLS,
    () =>
      db.sql.query(
        `SELECT (charge_period_start AT TIME ZONE 'UTC')::date AS day, service_name, currency, sum(billed_cost)::text AS cost FROM spend_lines
        WHERE organization_id = $1 AND tenant_id = $2 AND charge_period_start >= $3 AND charge_period_start < $4 GROUP BY 1, 2, 3`,
        [ORG, "ten_03", tenantQuery.start, tenantQuery.end],
      ),
    1,
  );
  const orgRollup = await time(CALLS, () => querySpend(reads, org, orgQuery));
  const orgLines = await time(
    BASELINE_CALLS,
    () =>
      db.sql.query(
        `SELECT tenant_id, service_name, currency, sum(billed_cost)::text AS cost FROM spend_lines
        WHERE organization_id = $1 AND charge_period_start >= $2 AND charge_period_start < $3 GROUP BY 1, 2, 3`,
        [ORG, orgQuery.start, orgQuery.end],
      ),
    1,
  );
  // `tag:<key>` grouping reads spend_tag_daily (beside spend_service_daily for the lines without the
  // tag); a tag filter beside a service grouping reads spend_tag_service_daily. Each beside the same
  // aggregation written straight over the lines, whose answer it must equal.
  const tagGrouped: SpendQueryInput = { ...tenantQuery, group_by: ["tag:team"] };
  const tagCheck = await querySpend(reads, tenant, tagGrouped);
  const tagExpected = await db.sql.query<{ cost: string }>(
    `SELECT trim_scale(sum(billed_cost))::text AS cost FROM spend_lines
      WHERE organization_id = $1 AND tenant_id = $2 AND charge_period_start >= $3 AND charge_period_start < $4`,
    [ORG, "ten_03", tenantQuery.start, tenantQuery.end],
  );
  if (tagCheck.totals[0]?.cost !== tagExpected[0].cost) throw new Error(`tag roll-up total ${tagCheck.totals[0]?.cost} != lines ${tagExpected[0].cost}`);
  const tagRoute = await time(TAG_CALLS, () => querySpend(reads, tenant, tagGrouped), 1);
  const tagLines = await time(
    BASELINE_CALLS,
    () =>
      db.sql.query(
        `SELECT (charge_period_start AT TIME ZONE 'UTC')::date AS day, tags ->> 'team' AS team, currency, sum(billed_cost)::text AS cost FROM spend_lines
        WHERE organization_id = $1 AND tenant_id = $2 AND charge_period_start >= $3 AND charge_period_start < $4 GROUP BY 1, 2, 3`,
        [ORG, "ten_03", tenantQuery.start, tenantQuery.end],
      ),
    1,
  );
  const tagFiltered: SpendQueryInput = { ...tenantQuery, tags: { team: ["team-3"] } };
  const filteredCheck = await querySpend(reads, tenant, tagFiltered);
  const filteredExpected = await db.sql.query<{ cost: string }>(
    `SELECT trim_scale(sum(billed_cost))::text AS cost FROM spend_lines
      WHERE organization_id = $1 AND tenant_id = $2 AND charge_period_start >= $3 AND charge_period_start < $4 AND tags ->> 'team' = 'team-3'`,
    [ORG, "ten_03", tenantQuery.start, tenantQuery.end],
  );
  if (filteredCheck.totals[0]?.cost !== filteredExpected[0].cost)
    throw new Error(`tag-filtered roll-up total ${filteredCheck.totals[0]?.cost} != lines ${filteredExpected[0].cost}`);
  const filteredRoute = await time(TAG_CALLS, () => querySpend(reads, tenant, tagFiltered), 1);
  const filteredLines = await time(
    BASELINE_CALLS,
    () =>
      db.sql.query(
        `SELECT (charge_period_start AT TIME ZONE 'UTC')::date AS day, service_name, currency, sum(billed_cost)::text AS cost FROM spend_lines
        WHERE organization_id = $1 AND tenant_id = $2 AND charge_period_start >= $3 AND charge_period_start < $4 AND tags ->> 'team' = ANY($5::text[])
        GROUP BY 1, 2, 3`,
        [ORG, "ten_03", tenantQuery.start, tenantQuery.end, ["team-3"]],
      ),
    1,
  );
  return {
    tenant_90_days_by_day_and_service: {
      rows: check.rows.length,
      rollup: tenantRollup,
      lines_baseline: tenantLines,
      ratio: round(tenantLines.p50_ms / tenantRollup.p50_ms),
    },
    org_month_by_tenant_and_service: { rollup: orgRollup, lines_baseline: orgLines, ratio: round(orgLines.p50_ms / orgRollup.p50_ms) },
    tenant_90_days_by_day_and_tag: {
      source: "spend_tag_daily",
      rows: tagCheck.rows.length,
      query: tagRoute,
      lines_baseline: tagLines,
      ratio: round(tagLines.p50_ms / tagRoute.p50_ms, 2),
    },
    tenant_90_days_by_day_and_service_filtered_by_tag: {
      source: "spend_tag_service_daily",
      rows: filteredCheck.rows.length,
      query: filteredRoute,
      lines_baseline: filteredLines,
      ratio: round(filteredLines.p50_ms / filteredRoute.p50_ms, 2),
    },
  };
}

const RESULTS = path.join(__dirname, "results", "spend.json");
const readResults = (): Record<string, unknown> => (fs.existsSync(RESULTS) ? JSON.parse(fs.readFileSync(RESULTS, "utf8")) : {});

async function main() {
  const serverUrl = process.env.BENCH_DATABASE_URL;
  if (!serverUrl) {
    console.log("spend: skipped, BENCH_DATABASE_URL (PostgreSQL) is not set");
    return;
  }
  // BENCH_SPEND_DB=<name>: the queries only, over a ledger loaded before (BENCH_KEEP=1), its roll-up rebuilt.
  const kept = process.env.BENCH_SPEND_DB;
  if (kept) {
    const url = new URL(serverUrl);
    url.pathname = `/${kept}`;
    const db = await openMigratedDatabase({
      url: url.toString(),
      dataDir: "",
      migrationsDir: MIGRATIONS_DIR,
      logger: pino({ level: "warn" }),
      poolSize: 4,
      sessionSettings: SESSION_SETTINGS,
    });
    const t0 = performance.now();
    // BENCH_SPEND_KEEP_ROLLUPS=1: the roll-ups as they are (e.g. as a new migration filled them).
    if (!process.env.BENCH_SPEND_KEEP_ROLLUPS) {
      await db.sql.query("DELETE FROM spend_daily WHERE organization_id = $1", [ORG]);
      await db.sql.query("DELETE FROM spend_service_daily WHERE organization_id = $1", [ORG]);
      await db.sql.query("DELETE FROM spend_tag_daily WHERE organization_id = $1", [ORG]);
      await db.sql.query("DELETE FROM spend_tag_service_daily WHERE organization_id = $1", [ORG]);
      await buildRollup(db, ORG);
    } else await db.sql.exec("ANALYZE spend_daily; ANALYZE spend_service_daily;");
    console.log(JSON.stringify({ rollup_s: round((performance.now() - t0) / 1000), queries: await benchQueries(db) }, null, 2));
    await db.close();
    return;
  }
  process.env.TEST_DATABASE_URL ??= serverUrl;
  const { db, drop } = await openBenchDatabase(serverUrl, "spend", 10);
  try {
    const results: Record<string, unknown> = {};
    if (!process.env.BENCH_SKIP_USAGE) results.usage_ingestion_10000_lines = await benchIngestion(db);
    console.log(JSON.stringify(results, null, 2));
    if (process.env.BENCH_SKIP_QUERIES) {
      // The usage figure alone (a quick re-run): kept beside the last full run's ledger and query figures.
      if (results.usage_ingestion_10000_lines) writeResults(RESULTS, { ...readResults(), ...results, usage_load_average: os.loadavg().map((l) => round(l)) });
      return;
    }
    results.ledger = await loadLedger(db, ORG, LINES);
    console.log(JSON.stringify(results.ledger));
    results.queries = await benchQueries(db);
    console.log(JSON.stringify(results, null, 2));
    results.load_average = os.loadavg().map((l) => round(l));
    writeResults(RESULTS, results);
  } finally {
    await db.close();
    await drop();
  }
}

runBenchmark(main);
