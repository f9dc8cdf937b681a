/**
 * Recommendations over time benchmark (not a test): an analysis cycle of a 10,000-resource fleet in
 * which some resources were just resized (their statistics come from raw samples since the resize)
 * and some retired, and the realized-savings endpoint over that fleet with 28 days of daily bill
 * lines for every resource.
 *
 *   pnpm --filter @cloudcost/bench bench:savings                      # PGlite in a temp dir
 *   BENCH_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres pnpm --filter @cloudcost/bench bench:savings
 *
 * Knobs: BENCH_RESOURCES (10000), BENCH_CHANGES (1000 resized after their recommendation),
 * BENCH_RETIRED (200), BENCH_SAMPLE_MINUTES (60: step of the 14-day backfill), BENCH_SAVINGS_CALLS (50).
 * Targets: the steady analysis cycle < 30 s; GET /api/v1/tenant/compute/savings p50 < 200 ms.
 */
import path from "node:path";
import { benchCredentials, startBenchMainApi } from "./bench-identity";
import { openBenchOrLocalDatabase } from "./bench-database";
import { env, round, time, writeResults } from "./measure";

const RESOURCES = env("BENCH_RESOURCES", 10_000);
const CHANGES = Math.min(RESOURCES, env("BENCH_CHANGES", 1000));
const RETIRED = Math.min(RESOURCES - CHANGES, env("BENCH_RETIRED", 200));
const SAMPLE_MINUTES = env("BENCH_SAMPLE_MINUTES", 60);
const SAVINGS_CALLS = env("BENCH_SAVINGS_CALLS", 50);
const DAY = 86_400_000;
const rid = (i: number) => `s-${String(i).padStart(6, "0")}`;

async function main() {
  const started = Date.now();
  const log = (msg: string) => console.error(`[${((Date.now() - started) / 1000).toFixed(1)} s] ${msg}`);
  const { db, drop, kind } = await openBenchOrLocalDatabase("savings");
  const mainApi = await startBenchMainApi(db);
  const { config, app, base } = mainApi;
  const results: Record<string, unknown> = { database: kind, resources: RESOURCES, changes: CHANGES, retired: RETIRED, sample_minutes: SAMPLE_MINUTES };

  try {
    const fleet = await benchCredentials({ app, config });
    const call = async (method: string, url: string, body?: unknown) => {
      const response = await fetch(base + url, {
        method,
        headers: { ...fleet.headers, "x-service-tenant-id": fleet.tenantId, "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (response.status === 204) return null;
      const json = (await response.json()) as { data: unknown; message: string };
      if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${json.message}`);
      return json.data;
    };
    const vm = (i: number, instance_type: string, extra: object = {}) => ({
      resource_id: rid(i),
      provider: "aws",
      region: "us-east-1",
      instance_type,
      architecture: "x86_64",
      operating_system: "linux",
      ...extra,
    });
    const upsertAll = async (pick: (i: number) => object, count: number) => {
      for (let start = 0; start < count; start += 1000) {
        const resources = Array.from({ length: Math.min(1000, count - start) }, (_, k) => pick(start + k));
        await call("PUT", "/api/v1/tenant/compute/resources", { resources });
      }
    };

    // 1. The fleet: m5.2xlarge at ~20 % CPU (DOWNSIZE) for the first CHANGES + RETIRED, idle (TERMINATE) for the retired ones.
    await upsertAll((i) => vm(i, "m5.2xlarge"), RESOURCES);
    const now = Date.now();
    await db.sql.query(
      `INSERT INTO compute_samples (tenant_id, resource_id, ts, cpu_utilization, memory_utilization)
       SELECT $1, r.resource_id, ts,
              CASE WHEN substring(r.resource_id from 3)::int BETWEEN $4::int AND $5::int THEN 1 ELSE round((15 + (hashtext(r.resource_id || ts::text) & 1023) / 102.4)::numeric, 2)::float8 END,
              round((20 + (hashtext(ts::text || r.resource_id) & 1023) / 102.4)::numeric, 2)::float8
       FROM compute_resources r
       CROSS JOIN generate_series($2::timestamptz - interval '14 days', $2::timestamptz, make_interval(mins => $3)) AS ts
       WHERE r.tenant_id = $1
       ON CONFLICT DO NOTHING`,
      [fleet.tenantId, new Date(now - 60_000), SAMPLE_MINUTES, CHANGES, CHANGES + RETIRED - 1],
    );
    if (kind === "postgres") await db.sql.query("ANALYZE compute_samples");
    log("fleet and 14 days of samples loaded");
    const cycle = async () => {
      const t = performance.now();
      const data = (await call("POST", "/api/v1/tenant/compute/recommendations/analyze")) as { analyzed_resources: number };
      return { resources: data.analyzed_resources, seconds: round((performance.now() - t) / 1000, 2) };
    };
    const cold = await cycle();
    log(`cycle 1 (builds roll-ups): ${cold.resources} resources in ${cold.seconds} s`);

    // 2. Resize the first CHANGES to m5.xlarge 14 days ago (the bill's midpoint), retire the idle ones.
    const changeAt = new Date(Math.floor((now - 14 * DAY) / DAY) * DAY);
    await upsertAll((i) => (i < CHANGES ? vm(i, "m5.xlarge", { observed_at: changeAt.toISOString() }) : vm(i, "m5.2xlarge")), RESOURCES);
    // Resized 3 days ago instead for a share of them: their statistics come from the raw samples since.
    const recent = new Date(now - 3 * DAY).toISOString();
    await upsertAll((i) => vm(i, "m5.large", { observed_at: recent }), Math.floor(CHANGES / 10));
    for (let i = CHANGES; i < CHANGES + RETIRED; i++) await call("DELETE", `/api/v1/tenant/compute/resources/${rid(i)}`);
    const steady = await cycle();
    log(`cycle 2 (steady, ${CHANGES} resized, ${RETIRED} retired): ${steady.resources} resources in ${steady.seconds} s`);
    results.analysis = { cold_seconds: cold.seconds, steady_seconds: steady.seconds, resources: steady.resources };

    // 3. 28 daily bill lines per resource, the price halving at the change for the resized ones.
    const t0 = performance.now();
    await db.sql.query(
      `INSERT INTO spend_lines (organization_id, id, tenant_id, source, charge_period_start, charge_period_end, charge_category,
         provider, service_name, resource_id, billed_cost, effective_cost, list_cost, currency, priced, charge_frequency, pricing_category)
       SELECT $1, 'bench-' || r.resource_id || '-' || d::date, $2, 'focus_import', d, d + interval '1 day', 'Usage',
         'aws', 'Amazon EC2', r.resource_id, c.cost, c.cost, c.cost, 'USD', true, 'Usage-Based', 'Standard'
       FROM compute_resources r
       CROSS JOIN generate_series($3::timestamptz - interval '14 days', $3::timestamptz + interval '13 days', interval '1 day') AS d
       CROSS JOIN LATERAL (SELECT CASE WHEN substring(r.resource_id from 3)::int < $4::int AND d >= $3 THEN 4.608 ELSE 9.216 END AS cost) c
       WHERE r.tenant_id = $2`,
      [fleet.organizationId, fleet.tenantId, changeAt, CHANGES],
    );
    if (kind === "postgres") await db.sql.query("ANALYZE spend_lines");
    const [{ n }] = await db.sql.query<{ n: number }>("SELECT count(*)::int AS n FROM spend_lines WHERE organization_id = $1", [fleet.organizationId]);
    log(`${n} bill lines loaded in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

    // 4. The savings endpoint over the month around the changes.
    const query = `start=${new Date(changeAt.getTime() - DAY).toISOString()}&end=${new Date(Date.now() + 60_000).toISOString()}`;
    const first = (await call("GET", `/api/v1/tenant/compute/savings?${query}`)) as { items: unknown[]; totals: { estimated: number; realized: number } };
    const { p50_ms, p99_ms } = await time(SAVINGS_CALLS, () => call("GET", `/api/v1/tenant/compute/savings?${query}`), 3, 2);
    results.savings = { items: first.items.length, totals: first.totals, bill_lines: n, p50_ms, p99_ms };
    results.total_seconds = round((Date.now() - started) / 1000);
    writeResults(path.join(__dirname, "results", "savings.json"), results);
    console.log(`recommendations over time on ${kind}`);
    console.log(`analysis cycle (${steady.resources} resources, ${CHANGES} resized): ${steady.seconds} s steady | < 30 s`);
    console.log(
      `GET /compute/savings (${first.items.length} changes, ${n} bill lines): p50 ${(results.savings as { p50_ms: number }).p50_ms} ms, p99 ${(results.savings as { p99_ms: number }).p99_ms} ms | p50 < 200 ms`,
    );
  } finally {
    await mainApi.close();
    await db.close();
    await drop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
