/**
 * Right-sizing benchmark (not a test): ingest throughput through the HTTP endpoint, one analysis
 * cycle of a 10,000-resource fleet against an in-process stub pricing API, and summary latency at
 * 10,000 and 100,000 resources compared with the bare SQL it runs.
 *
 *   pnpm --filter @cloudcost/bench rightsizing                      # PGlite in a temp dir
 *   BENCH_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres pnpm --filter @cloudcost/bench rightsizing
 *
 * Knobs: BENCH_RESOURCES (10000), BENCH_SUMMARY_RESOURCES (100000), BENCH_SAMPLE_MINUTES (60: step
 * of the 14-day backfill; 5 = the full ~40 M rows), BENCH_HTTP_BATCHES (30 batches of 10,000
 * samples through HTTP), BENCH_SUMMARY_CALLS (200), BENCH_KEEP=1 keeps the PostgreSQL database,
 * BENCH_RAW_STATS=1 also times the raw percentile_disc query the analysis ran before the roll-ups.
 */
import http from "node:http";
import path from "node:path";
import { createComputeServices } from "../apps/main-api/src/compute/services";
import { benchCredentials, startBenchMainApi } from "./bench-identity";
import { openBenchOrLocalDatabase } from "./bench-database";
import { env, round, time, writeResults } from "./measure";

const RESOURCES = env("BENCH_RESOURCES", 10_000);
const SUMMARY_RESOURCES = env("BENCH_SUMMARY_RESOURCES", 100_000);
const SAMPLE_MINUTES = env("BENCH_SAMPLE_MINUTES", 60);
const HTTP_BATCHES = env("BENCH_HTTP_BATCHES", 30);
const SUMMARY_CALLS = env("BENCH_SUMMARY_CALLS", 200);
const LOOKBACK_DAYS = 14;
const TYPES = ["m5.large", "m5.xlarge", "m5.2xlarge", "c5.large", "c5.xlarge", "r5.large"];
const REGIONS = ["us-east-1"];

/** Deterministic PRNG (mulberry32), seeded: the same fleet on every run. */
function prng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const random = prng(20261122);

// Utilization profile by resource number: 0 idle, 1-4 light, 5-7 right-sized, 8 saturated, 9 no history.
const PROFILE_CPU = [1, 15, 15, 15, 15, 55, 55, 55, 90, 50];
const rid = (i: number) => `r-${String(i).padStart(6, "0")}`;

/** p50 and p99 (ms, 2 decimals) of `calls` runs of `fn` after 5 warm-up runs. */
async function timeCalls(calls: number, fn: () => Promise<unknown>) {
  const { p50_ms, p99_ms } = await time(calls, fn, 5, 2);
  return { p50_ms, p99_ms };
}

async function main() {
  const started = Date.now();
  const { db, drop, kind } = await openBenchOrLocalDatabase("rightsizing");
  const mainApi = await startBenchMainApi(db);
  const { config, app, base } = mainApi;
  const { prisma } = mainApi.deps;
  const { recommendations } = createComputeServices({ prisma, sql: db.sql });
  const results: Record<string, unknown> = { database: kind, resources: RESOURCES, summary_resources: SUMMARY_RESOURCES, sample_minutes: SAMPLE_MINUTES };
  const log = (msg: string) => console.error(`[${((Date.now() - started) / 1000).toFixed(1)} s] ${msg}`);

  try {
    const fleet = await benchCredentials({ app, config });
    const other = await benchCredentials({ app, config });
    const call = async (method: string, url: string, tenantId: string, body?: unknown) => {
      const response = await fetch(base + url, {
        method,
        headers: { ...fleet.headers, "x-service-tenant-id": tenantId, "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const json = (await response.json()) as { data: unknown; message: string };
      if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${json.message}`);
      return json.data;
    };

    // 1. Inventory and ingest through HTTP.
    for (let start = 0; start < RESOURCES; start += 1000) {
      const resources = Array.from({ length: Math.min(1000, RESOURCES - start) }, (_, k) => {
        const i = start + k;
        return {
          resource_id: rid(i),
          name: `vm-${i}`,
          provider: "aws",
          region: REGIONS[i % REGIONS.length],
          availability_zone: `us-east-1${"abc"[i % 3]}`,
          instance_type: TYPES[Math.floor(random() * TYPES.length)],
          architecture: "x86_64",
          operating_system: "linux",
        };
      });
      await call("PUT", "/api/v1/tenant/compute/resources", fleet.tenantId, { resources });
    }
    log(`upserted ${RESOURCES} resources`);
    const now = Date.now();
    const httpEnd = now - 60_000;
    let sent = 0;
    const t0 = performance.now();
    for (let b = 0; b < HTTP_BATCHES; b++) {
      // One 5-minute tick of the whole fleet per batch (10,000 resources × 1 sample), newest first.
      const ts = new Date(httpEnd - b * 5 * 60_000).toISOString();
      const samples = [];
      for (let i = 0; i < 10_000; i++) {
        const r = i % RESOURCES;
        const cpu = Math.min(100, PROFILE_CPU[r % 10] * (0.5 + random()));
        // CPU only: 10,000 samples with memory too would not fit the 1 MiB body limit (~104 bytes a sample).
        samples.push({ resource_id: rid(r), timestamp: ts, cpu_utilization: round(cpu, 1) });
      }
      await call("POST", "/api/v1/tenant/compute/metrics", fleet.tenantId, { samples });
      sent += samples.length;
    }
    const ingestSeconds = (performance.now() - t0) / 1000;
    results.ingest = { samples: sent, batch: 10_000, seconds: round(ingestSeconds, 2), samples_per_second: Math.round(sent / ingestSeconds) };
    log(`HTTP ingest: ${sent} samples in ${ingestSeconds.toFixed(1)} s`);

    // 2. Backfill the rest of the 14 days in SQL (deterministic values), then one analysis cycle.
    const backfillEnd = new Date(httpEnd - HTTP_BATCHES * 5 * 60_000);
    const t1 = performance.now();
    await db.sql.query(
      `INSERT INTO compute_samples (tenant_id, resource_id, ts, cpu_utilization, memory_utilization)
       SELECT $1, r.resource_id, ts,
              -- At the 0.01 resolution ingest stores (inventory-service.ts).
              round(least(100, (ARRAY[${PROFILE_CPU.join(",")}])[substring(r.resource_id from 3)::int % 10 + 1]
                         * (0.5 + ((hashtext(r.resource_id || ts::text) & 1023) / 1023.0)))::numeric, 2)::float8,
              round((30 + (hashtext(ts::text || r.resource_id) & 1023) / 25.6)::numeric, 2)::float8
       FROM compute_resources r
       CROSS JOIN generate_series($2::timestamptz - make_interval(days => $4), $2::timestamptz, make_interval(mins => $3)) AS ts
       WHERE r.tenant_id = $1 AND substring(r.resource_id from 3)::int % 10 <> 9
       ON CONFLICT DO NOTHING`,
      [fleet.tenantId, backfillEnd, SAMPLE_MINUTES, LOOKBACK_DAYS],
    );
    if (kind === "postgres") await db.sql.query("ANALYZE compute_samples");
    const [{ n }] = await db.sql.query<{ n: number }>("SELECT count(*)::int AS n FROM compute_samples");
    results.samples_stored = n;
    log(`backfilled to ${n} samples in ${((performance.now() - t1) / 1000).toFixed(1)} s`);

    // The raw nearest-rank query the analysis ran before the roll-ups (minutes at 40 M rows: opt-in).
    let statsSeconds: number | null = null;
    if (process.env.BENCH_RAW_STATS === "1") {
      const t2 = performance.now();
      await db.sql.query(
        `SELECT resource_id, count(*), percentile_disc(0.95) WITHIN GROUP (ORDER BY cpu_utilization),
                max(cpu_utilization), percentile_disc(0.95) WITHIN GROUP (ORDER BY memory_utilization)
         FROM compute_samples WHERE tenant_id = $1 AND ts >= now() - interval '14 days' GROUP BY resource_id`,
        [fleet.tenantId],
      );
      statsSeconds = (performance.now() - t2) / 1000;
    }
    // First cycle: rolls up the ~13 settled days of the backfill (a one-off: a live fleet gets one
    // new settled day a day). Second cycle: the steady state (roll-ups current, raw edges only).
    const cycle = async () => {
      const t = performance.now();
      const data = (await call("POST", "/api/v1/tenant/compute/recommendations/analyze", fleet.tenantId)) as { analyzed_resources: number };
      return { resources: data.analyzed_resources, seconds: (performance.now() - t) / 1000 };
    };
    const cold = await cycle();
    log(`analysis cycle 1 (builds roll-ups) of ${cold.resources} resources in ${cold.seconds.toFixed(1)} s`);
    const steady = await cycle();
    const analyzed = { analyzed_resources: steady.resources };
    const analysisSeconds = steady.seconds;
    const [{ days, raw, buckets }] = await db.sql.query<{ days: number; raw: number; buckets: number }>(
      `SELECT (SELECT count(*)::int FROM compute_sample_days WHERE tenant_id = $1) AS days,
              (SELECT count(*)::int FROM compute_samples WHERE tenant_id = $1) AS raw,
              (SELECT round(avg(cardinality(cpu_buckets)), 1)::float8 FROM compute_sample_days WHERE tenant_id = $1) AS buckets`,
      [fleet.tenantId],
    );
    const actions = await db.sql.query<{ action: string; n: number }>(
      "SELECT coalesce(action, 'PENDING') AS action, count(*)::int AS n FROM compute_resources WHERE tenant_id = $1 GROUP BY 1 ORDER BY 1",
      [fleet.tenantId],
    );
    results.analysis = {
      resources: analyzed.analyzed_resources,
      samples: n,
      seconds: round(analysisSeconds, 2),
      first_cycle_with_rollups_seconds: round(cold.seconds, 2),
      rollup_rows: days,
      cpu_buckets_per_rollup_row: buckets,
      raw_rows_after_retention: raw,
      bare_stats_sql_seconds: statsSeconds === null ? null : round(statsSeconds, 2),
      actions: Object.fromEntries(actions.map((a) => [a.action, a.n])),
    };
    log(`analysis cycle 2 (steady) of ${analyzed.analyzed_resources} resources in ${analysisSeconds.toFixed(1)} s; ${days} roll-up rows`);

    // 3. Summary latency: the analyzed 10k fleet, and a 100k tenant of inventory + stored results.
    await db.sql.query(
      `INSERT INTO compute_resources (tenant_id, organization_id, resource_id, name, resource_type, provider, region,
         availability_zone, instance_type, architecture, operating_system, action,
         current_instance_type, recommended_instance_type, current_monthly_cost_usd, recommended_monthly_cost_usd,
         savings_monthly_usd, analyzed_at)
       SELECT $1, $2, 'n-' || lpad(i::text, 7, '0'), 'node ' || i, 'virtual_machine',
              (ARRAY['aws','azure','gcp'])[i % 3 + 1], (ARRAY['us-east-1','eu-west-1','eastus','us-central1'])[i % 4 + 1],
              'zone-' || (i % 6), (ARRAY['m5.large','m5.xlarge','c5.large','r5.large'])[i % 4 + 1],
              CASE WHEN i % 5 = 0 THEN 'arm64' ELSE 'x86_64' END, CASE WHEN i % 7 = 0 THEN 'windows' ELSE 'linux' END,
              a.action, 'm5.xlarge', CASE WHEN a.action = 'TERMINATE' THEN '' ELSE 'm5.large' END, 140.16,
              CASE WHEN a.action = 'TERMINATE' THEN 0 ELSE 70.08 END,
              CASE WHEN a.action IN ('DOWNSIZE','TERMINATE') THEN ((hashtext(i::text) & 65535) / 100.0)::numeric(14,2)
                   WHEN a.action = 'UPSIZE' THEN -((hashtext(i::text) & 4095) / 100.0)::numeric(14,2) ELSE 0 END,
              CASE WHEN a.action IS NULL THEN NULL ELSE now() END
       FROM generate_series(1, $3::int) AS i
       CROSS JOIN LATERAL (SELECT (ARRAY['DOWNSIZE','UPSIZE','TERMINATE','NOOP','NO_RECOMMENDATION',NULL,'NOOP','DOWNSIZE'])[i % 8 + 1] AS action) a`,
      [other.tenantId, other.organizationId, SUMMARY_RESOURCES],
    );
    // Half of them seen just now, the other half a day ago (the `active` filter's two sides).
    await db.sql.query(
      `INSERT INTO compute_resource_heartbeats (tenant_id, resource_id, last_heartbeat_at)
       SELECT $1, 'n-' || lpad(i::text, 7, '0'), CASE WHEN i % 2 = 0 THEN now() ELSE now() - interval '1 day' END
       FROM generate_series(1, $2::int) AS i`,
      [other.tenantId, SUMMARY_RESOURCES],
    );
    // What autovacuum (or the service's own pass where none runs) does shortly after a bulk load:
    // statistics, and the visibility map the summary's index-only scans rely on. Both tables: without
    // statistics on the heartbeats the planner guessed a few hundred fresh ones and probed the
    // resources once for each of 50,000 (p50 ~250 ms with filters; ~40 ms with them, hashed).
    if (kind === "postgres") await db.sql.query("VACUUM ANALYZE compute_resources, compute_resource_heartbeats");
    log(`loaded ${SUMMARY_RESOURCES} resources with results into a second tenant`);

    const filtered = "provider=aws,gcp&region=us-east-1&region=us-central1,eu-west-1&architecture=x86_64&active=true";
    // node:http on one keep-alive socket, not fetch: the client shares the service's event loop here,
    // and fetch's own per-call cost would count as the service's latency.
    const summaryAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const summaryOf = (tenantId: string, query: string) =>
      new Promise<void>((resolve, reject) => {
        const headers = { ...(tenantId === other.tenantId ? other.headers : fleet.headers), "x-service-tenant-id": tenantId };
        http
          .get(`${base}/api/v1/tenant/compute/recommendations/summary?${query}`, { agent: summaryAgent, headers }, (response) => {
            response.resume();
            response.on("end", () => (response.statusCode === 200 ? resolve() : reject(new Error(`summary: ${response.statusCode}`))));
            response.on("error", reject);
          })
          .on("error", reject);
      });
    const bare = (tenantId: string, filters: boolean) => () =>
      recommendations.recommendationSummary(
        { id: tenantId, organizationId: tenantId === other.tenantId ? other.organizationId : fleet.organizationId },
        filters
          ? {
              resource_type: "virtual_machine",
              provider: ["aws", "gcp"],
              region: ["us-east-1", "us-central1", "eu-west-1"],
              architecture: ["x86_64"],
              active: true,
            }
          : { resource_type: "virtual_machine" },
      );
    const summary: Record<string, unknown> = {};
    for (const [label, tenantId, size] of [
      ["10k", fleet.tenantId, RESOURCES],
      ["100k", other.tenantId, SUMMARY_RESOURCES],
    ] as const) {
      for (const [variant, query] of [
        ["no_filters", ""],
        ["filters", filtered],
      ] as const) {
        const http = await timeCalls(SUMMARY_CALLS, () => summaryOf(tenantId, query));
        const sql = await timeCalls(SUMMARY_CALLS, bare(tenantId, variant === "filters"));
        summary[`${label}_${variant}`] = { resources: size, http, bare_sql: sql, ratio_p50: round(http.p50_ms / sql.p50_ms, 2) };
        log(`summary ${label} ${variant}: http p50 ${http.p50_ms} ms p99 ${http.p99_ms} ms; bare SQL p50 ${sql.p50_ms} ms`);
      }
    }
    summaryAgent.destroy();
    results.summary = summary;
    results.total_seconds = round((Date.now() - started) / 1000);
    writeResults(path.join(__dirname, "results", "rightsizing.json"), results);
    printTable(results);
  } finally {
    await mainApi.close();
    await db.close();
    await drop();
  }
}

function printTable(results: Record<string, unknown>) {
  const ingest = results.ingest as { samples_per_second: number; samples: number };
  const analysis = results.analysis as {
    resources: number;
    seconds: number;
    first_cycle_with_rollups_seconds: number;
    bare_stats_sql_seconds: number | null;
    samples: number;
  };
  const rows: [string, string, string][] = [
    ["ingest (HTTP, batches of 10,000)", `${ingest.samples_per_second} samples/s`, "> 50,000 samples/s"],
    [
      `analysis cycle (${analysis.resources} resources, ${analysis.samples} samples)`,
      `${analysis.seconds} s steady, ${analysis.first_cycle_with_rollups_seconds} s building roll-ups (raw stats SQL ${analysis.bare_stats_sql_seconds ?? "not run"} s)`,
      "< 30 s",
    ],
  ];
  for (const [key, value] of Object.entries(
    results.summary as Record<string, { http: { p50_ms: number; p99_ms: number }; bare_sql: { p50_ms: number }; ratio_p50: number }>,
  )) {
    rows.push([
      `summary ${key}`,
      `p50 ${value.http.p50_ms} ms, p99 ${value.http.p99_ms} ms, SQL p50 ${value.bare_sql.p50_ms} ms, ×${value.ratio_p50}`,
      key.startsWith("100k") ? "p50 < 50 ms, ≤ 2× SQL" : "≤ 2× SQL",
    ]);
  }
  const width = [0, 1, 2].map((c) => Math.max(...rows.map((r) => r[c].length)));
  console.log(`right-sizing benchmark on ${results.database}`);
  for (const r of rows) console.log(r.map((cell, c) => cell.padEnd(width[c])).join(" | "));
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
