// Compute price query benchmark (not a test: figures are printed and written, never asserted).
//   pnpm --filter @cloudcost/bench bench:compute          (BENCH_DURATION=seconds per in-process run, default 20)
// The figure against the target is measured from outside (compute-outside.ts): autocannon in its own
// process against the built pricing API in its own process, for an account with negotiated entries
// and one without, alternating with a bare Express route in its own process
// (BENCH_OUTSIDE_DURATION=seconds per run, default 6; BENCH_ALTERNATIONS, default 3).
// Beside it, the earlier in-process figure: the real pricing app in this process on an embedded
// database in a temp dir (migrated, catalog seed loaded, one API key), and a bare Express route
// answering a constant JSON body of the same size, each driven by autocannon on a worker thread
// (10 connections, 127.0.0.1 only); then a 1000-item batch is timed.
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import express from "express";
import pino from "pino";
import { openMigratedDatabase } from "@cloudcost/db";
import { createApp } from "../apps/pricing-api/src/app";
import { buildDeps } from "../apps/pricing-api/src/compose";
import { loadSeedCatalog, refreshCatalogStore } from "../apps/pricing-api/src/compute/catalog-loader";
import { loadConfig } from "../apps/pricing-api/src/config";
import { MIGRATIONS_DIR } from "../apps/pricing-api/src/db";
import { measureOutside } from "./compute-outside";
import { writeResults } from "./measure";

const DURATION = Number(process.env.BENCH_DURATION ?? 20);
const CONNECTIONS = 10;
const WARMUP = 3;
const OUTSIDE_DURATION = Number(process.env.BENCH_OUTSIDE_DURATION ?? 6);
const ALTERNATIONS = Number(process.env.BENCH_ALTERNATIONS ?? 3);
const QUERY = { provider: "aws", region: "us-east-1", instance_type: "m5.large" };

function listen(app: express.Express): Promise<{ url: string; close: () => Promise<void> }> {
  return new Promise((resolve) => {
    const server = app.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      resolve({ url: `http://127.0.0.1:${port}`, close: () => new Promise((done) => server.close(() => done())) });
    });
  });
}

async function drive(url: string, headers: Record<string, string>, duration: number) {
  const result = await autocannon({
    url,
    method: "POST",
    connections: CONNECTIONS,
    duration,
    // The load generator runs on its own thread, so it does not compete with the servers' event loop.
    workers: 1,
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(QUERY),
  });
  if (result.non2xx || result.errors) throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return { requests_per_s: result.requests.average, p99_ms: result.latency.p99, mean_ms: result.latency.mean, total: result.requests.total };
}

type Run = Awaited<ReturnType<typeof drive>>;

/** Runs of one target taken together: throughput over all of them, the worst p99. */
const combine = (runs: Run[]): Run => ({
  requests_per_s: Number((runs.reduce((sum, r) => sum + r.requests_per_s, 0) / runs.length).toFixed(1)),
  p99_ms: Math.max(...runs.map((r) => r.p99_ms)),
  mean_ms: Number((runs.reduce((sum, r) => sum + r.mean_ms, 0) / runs.length).toFixed(2)),
  total: runs.reduce((sum, r) => sum + r.total, 0),
});

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-pricing-"));
  const logger = pino({ level: "silent" });
  const t0 = performance.now();
  const db = await openMigratedDatabase({ dataDir: path.join(dir, "db"), migrationsDir: MIGRATIONS_DIR, logger });
  // The production middleware, rate limits included (set high enough never to answer 429 here, so
  // their cost is measured, not their refusals); only request logging is silenced.
  const config = loadConfig({
    LOG_LEVEL: "silent",
    PRICING_API_DATA_DIR: path.join(dir, "db"),
    RATE_LIMIT_PER_IP: "1000000000",
    RATE_LIMIT_PER_CREDENTIAL: "1000000000",
  });
  const deps = buildDeps({ config, db, logger, serviceSecret: randomBytes(32) });
  const { prisma, apiKeys, computeCatalog } = deps;
  const t1 = performance.now();
  await loadSeedCatalog({ db, prisma });
  const t2 = performance.now();
  await refreshCatalogStore({ db, prisma }, computeCatalog);
  const t3 = performance.now();
  const key = (await apiKeys.create("acct_bench", "bench")).key;
  const app = createApp(deps);
  const pricing = await listen(app);

  const sample = await fetch(`${pricing.url}/v1/pricing/compute`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": key },
    body: JSON.stringify(QUERY),
  });
  const constantBody = await sample.text();
  const bareApp = express();
  bareApp.post("/v1/pricing/compute", (_req, res) => {
    res.type("application/json").send(constantBody);
  });
  const bare = await listen(bareApp);

  console.log(`catalog: first load ${Math.round(t2 - t1)} ms, in-process build ${Math.round(t3 - t2)} ms (db open+migrate ${Math.round(t1 - t0)} ms)`);
  console.log(`driving each target for ${DURATION} s (after ${WARMUP} s of warm-up) with ${CONNECTIONS} connections...`);
  // Both targets are warmed up (JIT, caches), then measured in alternating halves so that a slow
  // patch of this shared machine weighs on both alike.
  const targets: { url: string; headers: Record<string, string> }[] = [
    { url: `${pricing.url}/v1/pricing/compute`, headers: { "x-api-key": key } },
    { url: `${bare.url}/v1/pricing/compute`, headers: {} },
  ];
  for (const t of targets) await drive(t.url, t.headers, WARMUP);
  const runs: Run[][] = [[], []];
  for (let round = 0; round < 2; round++) {
    for (const [i, t] of targets.entries()) runs[i].push(await drive(t.url, t.headers, DURATION / 2));
  }
  const compute = combine(runs[0]);
  const bareRoute = combine(runs[1]);

  const items = Array.from({ length: 1000 }, (_, i) =>
    i % 10 === 9
      ? { provider: "aws", region: "us-east-1", instance_type: `unknown-${i}`, vm: { cpu_cores: 4, ram_gb: 16 } }
      : {
          provider: ["aws", "gcp", "azure"][i % 3],
          region: ["us-east-1", "us-central1", "eastus"][i % 3],
          instance_type: ["m5.large", "n2-standard-4", "Standard_D2s_v5"][i % 3],
        },
  );
  const batchBody = JSON.stringify({ items });
  const batchMs: number[] = [];
  for (let i = 0; i < 21; i++) {
    const start = performance.now();
    const res = await fetch(`${pricing.url}/v1/pricing/compute/batch`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": key },
      body: batchBody,
    });
    const body = (await res.json()) as { results: unknown[] };
    if (res.status !== 200 || body.results.length !== 1000) throw new Error(`batch answered ${res.status}`);
    if (i > 0) batchMs.push(performance.now() - start); // the first run warms up
  }
  batchMs.sort((a, b) => a - b);
  const median = (batchMs[9] + batchMs[10]) / 2;

  await pricing.close();
  await bare.close();
  await apiKeys.stop();
  await prisma.$disconnect();
  await db.close();
  fs.rmSync(dir, { recursive: true, force: true });

  console.log(`from a separate process: ${ALTERNATIONS} alternations of ${OUTSIDE_DURATION} s runs, ${CONNECTIONS} connections...`);
  const outside = await measureOutside({ query: QUERY, duration: OUTSIDE_DURATION, warmup: 2, alternations: ALTERNATIONS, connections: CONNECTIONS });

  const results = {
    date: new Date().toISOString(),
    node: process.version,
    duration_s: DURATION,
    warmup_s: WARMUP,
    rate_limits: "on (limits far above the load)",
    connections: CONNECTIONS,
    body_bytes: constantBody.length,
    catalog: { rows: computeCatalog.current.size, first_load_ms: Math.round(t2 - t1), in_process_build_ms: Math.round(t3 - t2) },
    compute_query: compute,
    bare_route: bareRoute,
    ratio: Number((compute.requests_per_s / bareRoute.requests_per_s).toFixed(3)),
    ratio_target: 0.6,
    batch_1000: {
      median_ms: Number(median.toFixed(2)),
      min_ms: Number(batchMs[0].toFixed(2)),
      max_ms: Number(batchMs[19].toFixed(2)),
      runs: 20,
      target_ms: 100,
    },
    separate_process: outside,
  };
  writeResults(path.join(__dirname, "results/compute-query.json"), results);
  console.table({
    "POST /v1/pricing/compute": { "req/s": compute.requests_per_s, "p99 ms": compute.p99_ms },
    "bare Express route": { "req/s": bareRoute.requests_per_s, "p99 ms": bareRoute.p99_ms },
  });
  console.log(`in-process ratio ${results.ratio}; 1000-item batch median ${results.batch_1000.median_ms} ms (target < 100 ms)`);
  console.log(
    `separate process, median of ${ALTERNATIONS}: with negotiated entries ${outside.median_ratio_negotiated}, without ${outside.median_ratio_plain} of the bare route (target >= 0.6 with negotiated entries)`,
  );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
