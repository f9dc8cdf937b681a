// Mixed load against both services as real processes (bench/reliability/stack.ts): summary reads,
// compute price queries, model price registrations and metric ingest, each offered at its own fixed
// rate at once (open loop, evenly spaced: ./open-loop.ts says why not autocannon's rate limit), while
// an analysis cycle is started every few seconds. Latencies count from when a request was due.
//
//   pnpm --filter @cloudcost/bench bench:mixed        (PGlite; BENCH_DATABASE_URL / TEST_DATABASE_URL: PostgreSQL)
//
// Knobs: LOAD_DURATION (600 s main run: a service that falls behind shows it as a trend, which a
// short run hides; CI's .ci/reliability.sh runs 10 s), LOAD_WARMUP (10 s phases: before, repeated until RSS settles,
// and once after), LOAD_SETTLE (5 s, unmeasured, after the leak check's heap snapshots), LOAD_FLEET (1000 resources), LOAD_SCALE (1: the request rates in KINDS),
// LOAD_ANALYZE_EVERY_MS (5000; 0: no cycles during the phases), LOAD_ENFORCE_TARGETS=1 (a p99 over its target fails the run),
// LOAD_KINDS (a comma list of kinds), LOAD_CURRENT_SAMPLES=0 (ingest never moves heartbeats forward),
// BENCH_SERVICE_NODE_OPTIONS (added to the services' NODE_OPTIONS, e.g. `--require` a profiler hook),
// LOAD_TRACE=1 (every answer's due time and latency, and every cycle's span, to bench/results/mixed-load-trace.json),
// LOAD_CANARY_RATE (20 req/s to an empty server, ./canary.ts: the machine's latency floor in the same run; 0: none),
// LOAD_TREND_WINDOW (60 s: the latency of each kind per window of the run, first and last compared;
// shorter runs use a quarter of their length).
// Targets (a miss is reported, and fails the run with LOAD_ENFORCE_TARGETS=1): each kind's p99, the
// last window's median within 1.5x of the first's for every kind, cycles < 30 s.
// Hard checks (exit 1): no 5xx and no socket errors in any phase; each service's RSS after the run
// (and a second warm-up) within 20% of its RSS after the warm-up. Figures go to
// bench/results/mixed-load.json.
import fs from "node:fs";
import os from "node:os";
import { monitorEventLoopDelay } from "node:perf_hooks";
import path from "node:path";
import { env, percentile, round, writeResults } from "../measure";
import { startCanary, type Canary } from "./canary";
import { openLoop, type OpenLoopResult, type PlannedRequest } from "./open-loop";
import { Client } from "pg";
import { analyzeDatabases, json, modelEntries, rssKiB, seedFleet, startStack, rid, type Stack } from "./stack";

const DURATION = env("LOAD_DURATION", 600);
// Windows of the main run whose medians are compared (the trend): a minute, or a quarter of a short run.
const TREND_WINDOW_S = Math.max(1, Math.min(env("LOAD_TREND_WINDOW", 60), Math.floor(DURATION / 4)));
/** The last window's median may be at most this multiple of the first's (issue 55). */
const TREND_LIMIT = 1.5;
const WARMUP = env("LOAD_WARMUP", 10);
const SETTLE = env("LOAD_SETTLE", 5);
const FLEET = env("LOAD_FLEET", 1000);
const ANALYZE_EVERY_MS = env("LOAD_ANALYZE_EVERY_MS", 5000);
const ENFORCE = process.env.LOAD_ENFORCE_TARGETS === "1";
const TRACE = process.env.LOAD_TRACE === "1";
const CANARY_RATE = env("LOAD_CANARY_RATE", 20);
// Per phase: every kind's [due, latency] pairs, the cycles' spans (ms since the phase's origin) and that origin (epoch ms).
const traces: Record<string, Record<string, [number, number][] | number>> = {};
const INGEST_BATCH = env("LOAD_INGEST_BATCH", 1000);
// The offered sample rate stays 10,000 samples/s whatever the batch size.
const INGEST_RATE = 10_000 / INGEST_BATCH;
// Every batch carries newer timestamps than the last, as live agents send, so each one also moves
// every resource's heartbeat forward; LOAD_CURRENT_SAMPLES=0 sends each further back instead (no bumps).
const CURRENT_SAMPLES = process.env.LOAD_CURRENT_SAMPLES !== "0";
// LOAD_SCALE multiplies every kind's request rate (2 doubles the load).
const LOAD_SCALE = env("LOAD_SCALE", 1);
// Warm-up phases are repeated (at most this many) until neither service's RSS grew by more than
// 5% in the last one: the leak check compares against a process at its working set, not one still
// filling its caches and JIT code.
const WARMUP_MAX_PHASES = env("LOAD_WARMUP_MAX_PHASES", 4);
const WARM_GROWTH = 0.05;
const REGISTER_BATCH = 10;
const RSS_TOLERANCE = 0.2;
// The leak check is on the live heap (a heap snapshot forces a full GC first). RSS is reported and
// fails the run only with LOAD_ENFORCE_RSS=1: under allocation-heavy load V8 grows its heap capacity
// and keeps it, so RSS rises to a plateau with no object retained (docs/performance.md, "Memory").
const ENFORCE_RSS = process.env.LOAD_ENFORCE_RSS === "1";
// BENCH_SERVICE_NODE_OPTIONS adds options to the services (e.g. `--require` a profiler hook).
const SNAPSHOT_ENV = { NODE_OPTIONS: `--heapsnapshot-signal=SIGUSR2 ${process.env.BENCH_SERVICE_NODE_OPTIONS ?? ""}`.trim() };

/**
 * Per request kind: its connections (most requests in flight at once), the request rate it is
 * offered (evenly spaced), and its p99 target, derived from the issues' targets (see `basis`). The
 * rates are fixed, below what this machine saturates at: a closed loop at full speed only measures
 * queueing (p99 ~ connections / throughput), not how long a request takes.
 */
const KINDS = {
  summary: { connections: 4, rate: 20, target_p99_ms: 100, basis: "issue 55: summary p99 < 100 ms over 10 minutes of this load" },
  compute_query: { connections: 4, rate: 200, target_p99_ms: 100, basis: "a 1000-item compute batch < 100 ms, so one query well within" },
  model_registration: {
    connections: 1,
    rate: 4,
    target_p99_ms: 300,
    basis: `register 1000 model entries < 300 ms (here ${REGISTER_BATCH} entries, each a price change)`,
  },
  metric_ingest: {
    connections: 2,
    rate: INGEST_RATE,
    target_p99_ms: 300,
    basis: `issue 55: ingest p99 < 300 ms over 10 minutes of this load (here ${INGEST_BATCH} samples a batch)`,
  },
} as const;
type Kind = keyof typeof KINDS;
// LOAD_KINDS=summary,metric_ingest drives only those kinds (to tell their effects on each other apart).
const ACTIVE = (process.env.LOAD_KINDS?.split(",") ?? Object.keys(KINDS)) as Kind[];
for (const k of ACTIVE) if (!(k in KINDS)) throw new Error(`LOAD_KINDS: unknown kind ${k} (known: ${Object.keys(KINDS).join(", ")})`);

// Counters across phases: every registration a new price, every ingest batch new timestamps.
let registrations = 0;
let ingests = 0;

/** The k-th request of a kind; bodies that cost real work to build are built before the phase. */
function target(stack: Stack, kind: Kind, seconds: number): { url: string; headers: Record<string, string>; request: (k: number) => PlannedRequest } {
  const pricingHeaders = { "x-api-key": stack.pricingKey, "content-type": "application/json" };
  const mainHeaders = { ...stack.owner.headers, "content-type": "application/json" };
  switch (kind) {
    case "summary": {
      const paths = ["", "?provider=aws,gcp&active=true", "?region=us-east-1&region=eastus", "?resource_type=virtual_machine&architecture=x86_64"].map(
        (q) => `/api/v1/tenant/compute/recommendations/summary${q}`,
      );
      return { url: stack.main.url, headers: stack.owner.headers, request: (k) => ({ method: "GET", path: paths[k % paths.length] }) };
    }
    case "compute_query": {
      const bodies = [
        { provider: "aws", region: "us-east-1", instance_type: "m5.large" },
        { provider: "gcp", region: "us-central1", instance_type: "n2-standard-4" },
        { provider: "azure", region: "eastus", instance_type: "Standard_D2s_v5" },
        { provider: "aws", region: "us-east-1", instance_type: "unknown-type", vm: { cpu_cores: 4, ram_gb: 16 } },
      ].map((query) => JSON.stringify(query));
      return {
        url: stack.pricing.url,
        headers: pricingHeaders,
        request: (k) => ({ method: "POST", path: "/v1/pricing/compute", body: bodies[k % bodies.length] }),
      };
    }
    case "model_registration":
      // A new price each time: the open rows close and new versions open (the write path).
      return {
        url: stack.pricing.url,
        headers: pricingHeaders,
        request: () => {
          registrations += 1;
          return {
            method: "POST",
            path: "/marketplace/providers/models",
            body: JSON.stringify({ entries: modelEntries("load", REGISTER_BATCH, 0.1 + (registrations % 1000) / 1000) }),
          };
        },
      };
    case "metric_ingest": {
      // One sample per resource per request, each request later than the previous one (or, with
      // LOAD_CURRENT_SAMPLES=0, a second further back): new rows, never a conflict. Built up front so
      // the client spends no time on them meanwhile.
      const count = Math.ceil(KINDS.metric_ingest.rate * LOAD_SCALE * seconds);
      // Current samples: request j of the phase is due at (phase start + j x spacing) or later, so a
      // second before that is always in the past and always newer than the previous request's.
      const built = Date.now();
      const spacing = 1000 / (KINDS.metric_ingest.rate * LOAD_SCALE);
      const perResource = Math.ceil(INGEST_BATCH / FLEET);
      const bodies = Array.from({ length: count }, (_, j) => {
        const n = ++ingests;
        const base = Date.now() - 60_000 - (n % 1000);
        const samples = Array.from({ length: INGEST_BATCH }, (_, i) => ({
          resource_id: rid((n * INGEST_BATCH + i) % FLEET),
          timestamp: new Date(
            CURRENT_SAMPLES
              ? built - 1000 + j * spacing - Math.floor(i / FLEET) * (spacing / perResource)
              : base - Math.floor((n * INGEST_BATCH + i) / FLEET) * 1000,
          ).toISOString(),
          cpu_utilization: (i * 7) % 100,
        }));
        return JSON.stringify({ samples });
      });
      return {
        url: stack.main.url,
        headers: mainHeaders,
        request: (k) => ({ method: "POST", path: "/api/v1/tenant/compute/metrics", body: bodies[k % bodies.length] }),
      };
    }
  }
}

/** Latency per window of a phase (by due time): the trend a p99 over the whole run does not show. */
interface WindowFigures {
  from_s: number;
  requests: number;
  p50_ms: number;
  p99_ms: number;
}

interface KindFigures {
  /** Per TREND_WINDOW_S of the phase. */
  windows: WindowFigures[];
  /** The last whole window's median over the first's. */
  trend: { first_p50_ms: number; last_p50_ms: number; ratio: number };
  requests: number;
  requests_per_s: number;
  p50_ms: number;
  p99_ms: number;
  max_ms: number;
  /** The same answers split by whether they were due while an analysis cycle ran. */
  during_cycles: { requests: number; p50_ms: number; p99_ms: number };
  outside_cycles: { requests: number; p50_ms: number; p99_ms: number };
  status_counts: Record<string, number>;
  errors: number;
  error_codes: Record<string, number>;
  timeouts: number;
}

/** The answers of each window of `windowS` seconds of a phase (by due time), and first vs last. */
function windowsOf(trace: [number, number][], seconds: number, windowS: number): Pick<KindFigures, "windows" | "trend"> {
  const count = Math.max(1, Math.floor(seconds / windowS));
  const buckets: number[][] = Array.from({ length: count }, () => []);
  for (const [due, latency] of trace) buckets[Math.min(count - 1, Math.max(0, Math.floor(due / 1000 / windowS)))].push(latency);
  const windows = buckets.map((values, i) => {
    values.sort((a, b) => a - b);
    return { from_s: i * windowS, requests: values.length, p50_ms: round(percentile(values, 0.5)), p99_ms: round(percentile(values, 0.99)) };
  });
  const first = windows[0].p50_ms;
  const last = windows[windows.length - 1].p50_ms;
  return { windows, trend: { first_p50_ms: first, last_p50_ms: last, ratio: Number((last / Math.max(first, 0.1)).toFixed(2)) } };
}
const latencyFigures = (result: OpenLoopResult, duringCycle: (due: number) => boolean) => ({
  requests: result.requests,
  requests_per_s: result.requests_per_s,
  p50_ms: round(percentile(result.latencies_ms, 0.5)),
  p99_ms: round(percentile(result.latencies_ms, 0.99)),
  max_ms: round(result.latencies_ms.at(-1) ?? 0),
  ...splitByCycles(result.trace, duringCycle),
});
const splitByCycles = (trace: [number, number][], inside: (due: number) => boolean) => {
  const split = (keep: boolean) =>
    trace
      .filter(([due]) => inside(due) === keep)
      .map(([, latency]) => latency)
      .sort((a, b) => a - b);
  const figures = (values: number[]) => ({ requests: values.length, p50_ms: round(percentile(values, 0.5)), p99_ms: round(percentile(values, 0.99)) });
  return { during_cycles: figures(split(true)), outside_cycles: figures(split(false)) };
};

async function phase(stack: Stack, canary: Canary, seconds: number, label: string, windowS = seconds) {
  const targets = ACTIVE.map((kind) => [kind, target(stack, kind, seconds)] as const);
  // Started once the bodies are built (synchronous work that would delay the first requests of all),
  // and the origin of the cycles' spans as of the requests' due times.
  const phaseStart = Date.now();
  // The client's own event-loop delay: a late client delays every kind's answers alike.
  const clientDelay = monitorEventLoopDelay({ resolution: 10 });
  clientDelay.enable();
  const floor =
    CANARY_RATE > 0
      ? openLoop({ url: canary.url, headers: {}, request: () => ({ method: "GET", path: "/" }), connections: 2, rate: CANARY_RATE, seconds, timeoutMs: 30_000 })
      : undefined;
  const cannons = targets.map(async ([kind, { url, headers, request }]) => {
    const { connections, rate } = KINDS[kind];
    return [kind, await openLoop({ url, headers, request, connections, rate: rate * LOAD_SCALE, seconds, timeoutMs: 30_000 })] as const;
  });

  // Analysis cycles meanwhile: one every ANALYZE_EVERY_MS (never two at once from here).
  const analysis = { started: 0, status_counts: {} as Record<string, number>, durations_ms: [] as number[] };
  const spans: [number, number][] = [];
  const deadline = Date.now() + seconds * 1000;
  const analyzer = (async () => {
    while (ANALYZE_EVERY_MS > 0 && Date.now() < deadline - 1000) {
      const t0 = Date.now();
      analysis.started++;
      const res = await json(stack.main.url, "POST", "/api/v1/tenant/compute/recommendations/analyze", stack.owner.headers, undefined, 60_000);
      analysis.status_counts[res.status] = (analysis.status_counts[res.status] ?? 0) + 1;
      if (res.status === 200) analysis.durations_ms.push((res.body as { data: { duration_ms: number } }).data.duration_ms);
      spans.push([t0 - phaseStart, Date.now() - phaseStart]);
      const wait = ANALYZE_EVERY_MS - (Date.now() - t0);
      if (wait > 0) await new Promise((r) => setTimeout(r, Math.min(wait, Math.max(0, deadline - Date.now()))));
    }
  })();
  const results = await Promise.all(cannons);
  await analyzer;
  const duringCycle = (due: number) => spans.some(([from, to]) => due >= from && due <= to);
  const canaryResult = await floor;
  clientDelay.disable();
  const client_loop_delay_ms = { p99: round(clientDelay.percentile(99) / 1e6), max: round(clientDelay.max / 1e6) };
  const canaryFigures = canaryResult && { ...latencyFigures(canaryResult, duringCycle), errors: canaryResult.errors };
  const kinds = Object.fromEntries(
    results.map(([kind, result]) => {
      const figures: KindFigures = {
        ...windowsOf(result.trace, seconds, windowS),
        ...latencyFigures(result, duringCycle),
        status_counts: result.status_counts,
        errors: result.errors,
        error_codes: result.error_codes,
        timeouts: result.timeouts,
      };
      return [kind, figures];
    }),
  ) as Record<Kind, KindFigures>;
  if (TRACE)
    traces[label] = {
      ...Object.fromEntries(results.map(([kind, result]) => [kind, result.trace])),
      ...(canaryResult && { canary: canaryResult.trace }),
      analysis: spans,
      origin_epoch_ms: phaseStart,
    };
  const fivexx =
    Object.values(kinds).reduce(
      (sum, k) =>
        sum +
        Object.entries(k.status_counts)
          .filter(([c]) => c.startsWith("5"))
          .reduce((s, [, n]) => s + n, 0),
      0,
    ) +
    Object.entries(analysis.status_counts)
      .filter(([c]) => c.startsWith("5") || c === "0")
      .reduce((s, [, n]) => s + n, 0);
  const errors = Object.values(kinds).reduce((sum, k) => sum + k.errors, 0);
  const codes = Object.entries(kinds)
    .filter(([, f]) => f.errors)
    .map(([k, f]) => `${k} ${JSON.stringify(f.error_codes)}`);
  const split = (f: Pick<KindFigures, "during_cycles" | "outside_cycles">) =>
    spans.length ? ` (during cycles ${f.during_cycles.p99_ms}, outside ${f.outside_cycles.p99_ms})` : "";
  console.log(
    `[${label}] ${seconds} s: ${Object.entries(kinds)
      .map(([k, f]) => `${k} ${f.requests} req p99 ${f.p99_ms} ms${split(f)}`)
      .join(
        "; ",
      )}${canaryFigures ? `; empty server p99 ${canaryFigures.p99_ms} ms${split(canaryFigures)}` : ""}; client loop delay p99 ${client_loop_delay_ms.p99} ms, max ${client_loop_delay_ms.max} ms; analysis ${JSON.stringify(analysis.status_counts)}; 5xx ${fivexx}, errors ${errors}${codes.length ? ` (${codes.join("; ")})` : ""}`,
  );
  return { seconds, kinds, canary: canaryFigures, client_loop_delay_ms, analysis, fivexx, errors };
}

/** The main API's tables updated in place, whose dead rows the run samples (PostgreSQL only). */
const WATCHED_TABLES = ["compute_resources", "compute_resource_heartbeats", "compute_sample_tail", "compute_sample_tail_status"];

/**
 * Live and dead rows of WATCHED_TABLES every LOAD_DEAD_ROWS_EVERY seconds (15) during the main run,
 * from pg_stat_user_tables of the main API's database, with the autovacuum runs so far: a summary
 * whose cost grows over the run is most often a table filling with dead row versions. Nothing on
 * PGlite (the service holds its only connection).
 */
function sampleDeadRows(stack: Stack) {
  const url = stack.main.databaseUrl;
  const samples: { at_s: number; tables: Record<string, { live: number; dead: number; autovacuums: number }> }[] = [];
  if (!url) return { stop: async () => samples };
  const every = env("LOAD_DEAD_ROWS_EVERY", 15) * 1000;
  const client = new Client({ connectionString: url });
  const started = Date.now();
  let stopped = false;
  const take = async () => {
    const rows = await client.query<{ relname: string; live: string; dead: string; autovacuums: string }>(
      `SELECT relname, n_live_tup AS live, n_dead_tup AS dead, autovacuum_count AS autovacuums FROM pg_stat_user_tables WHERE relname = ANY($1)`,
      [WATCHED_TABLES],
    );
    samples.push({
      at_s: Math.round((Date.now() - started) / 1000),
      tables: Object.fromEntries(rows.rows.map((r) => [r.relname, { live: Number(r.live), dead: Number(r.dead), autovacuums: Number(r.autovacuums) }])),
    });
  };
  const loop = (async () => {
    await client.connect();
    while (!stopped) {
      await take();
      for (let waited = 0; waited < every && !stopped; waited += 250) await new Promise((r) => setTimeout(r, 250));
    }
    await take();
    await client.end();
  })().catch((err) => console.warn(`dead-row sampling stopped: ${(err as Error).message}`));
  return {
    async stop() {
      stopped = true;
      await loop;
      const last = samples.at(-1);
      if (last)
        console.log(
          `dead rows after ${last.at_s} s: ${Object.entries(last.tables)
            .map(([t, v]) => `${t} ${v.dead} dead / ${v.live} live (${v.autovacuums} autovacuums)`)
            .join("; ")}`,
        );
      return samples;
    },
  };
}

const rss = (stack: Stack) => ({ main_api_kib: rssKiB(stack.main.process.pid), pricing_api_kib: rssKiB(stack.pricing.process.pid) });

/** V8 heap in use (prom-client's gauge on the metrics listener): reported beside RSS, which also counts freed-but-kept pages. */
async function heapUsedMiB(stack: Stack) {
  const of = async (metricsUrl: string) => {
    const text = await fetch(metricsUrl)
      .then((r) => r.text())
      .catch(() => "");
    const m = /^nodejs_heap_size_used_bytes\S* (\d+(?:\.\d+)?(?:e\+\d+)?)/m.exec(text);
    return m ? Math.round(Number(m[1]) / 2 ** 20) : null;
  };
  return { main_api: await of(stack.main.metricsUrl), pricing_api: await of(stack.pricing.metricsUrl) };
}

/** Size of a heap snapshot (taken after a full GC, so live objects only) of one service, in MiB. */
async function liveHeapMiB(service: Stack["main"]): Promise<number> {
  const existing = new Set(fs.readdirSync(service.dataDir));
  service.process.kill("SIGUSR2");
  let file: string | undefined;
  let size = -1;
  for (let i = 0; i < 240; i++) {
    await new Promise((r) => setTimeout(r, 250));
    file ??= fs.readdirSync(service.dataDir).find((f) => !existing.has(f) && f.endsWith(".heapsnapshot"));
    if (!file) continue;
    const now = fs.statSync(path.join(service.dataDir, file)).size;
    if (now > 0 && now === size) break; // written completely
    size = now;
  }
  if (!file) throw new Error(`${service.name}: no heap snapshot written`);
  fs.rmSync(path.join(service.dataDir, file));
  return Number((size / 2 ** 20).toFixed(1));
}

const liveHeaps = async (stack: Stack) => ({ main_api: await liveHeapMiB(stack.main), pricing_api: await liveHeapMiB(stack.pricing) });

async function main() {
  const started = Date.now();
  const stack = await startStack({ main: SNAPSHOT_ENV, pricing: SNAPSHOT_ENV });
  const canary = await startCanary().catch(async (err) => {
    await stack.close();
    throw err;
  });
  try {
    console.log(`services up on ${stack.databaseKind} in ${((Date.now() - started) / 1000).toFixed(1)} s; seeding ${FLEET} resources...`);
    await seedFleet(stack, FLEET);
    const prices = await json(
      stack.pricing.url,
      "POST",
      "/marketplace/providers/models",
      { "x-api-key": stack.pricingKey },
      { entries: modelEntries("seed", 100) },
    );
    if (prices.status !== 201) throw new Error(`model prices answered ${prices.status}`);
    const first = await json(stack.main.url, "POST", "/api/v1/tenant/compute/recommendations/analyze", stack.owner.headers, undefined, 120_000);
    if (first.status !== 200) throw new Error(`first analysis answered ${first.status}: ${JSON.stringify(first.body)}`);
    await analyzeDatabases(stack);
    const rssStart = rss(stack);

    const warmups1: Awaited<ReturnType<typeof phase>>[] = [];
    let rssBefore = rss(stack);
    for (let i = 0; i < WARMUP_MAX_PHASES; i++) {
      const previous = rssBefore;
      warmups1.push(await phase(stack, canary, WARMUP, `warm-up ${i + 1}`));
      rssBefore = rss(stack);
      const settled =
        rssBefore.main_api_kib <= previous.main_api_kib * (1 + WARM_GROWTH) && rssBefore.pricing_api_kib <= previous.pricing_api_kib * (1 + WARM_GROWTH);
      console.log(`RSS after warm-up ${i + 1}: main ${rssBefore.main_api_kib} KiB, pricing ${rssBefore.pricing_api_kib} KiB${settled ? " (settled)" : ""}`);
      if (settled && i > 0) break;
    }
    const heapBefore = await heapUsedMiB(stack);
    const liveBefore = await liveHeaps(stack);
    // The heap snapshots just taken (a full collection and a file written by each service) disturb
    // the first seconds after them: an unmeasured phase at the same load lets that pass.
    if (SETTLE > 0) await phase(stack, canary, SETTLE, "settle after snapshots");
    const deadRows = sampleDeadRows(stack);
    const run = await phase(stack, canary, DURATION, "load", TREND_WINDOW_S);
    const dead_rows = await deadRows.stop();
    for (const kind of ACTIVE)
      console.log(
        `${kind} median per ${TREND_WINDOW_S} s: ${run.kinds[kind].windows.map((w) => w.p50_ms).join(", ")} ms (p99 per window: ${run.kinds[kind].windows.map((w) => w.p99_ms).join(", ")})`,
      );
    const warmup2 = await phase(stack, canary, WARMUP, "second warm-up");
    const rssAfter = rss(stack);
    const heapAfter = await heapUsedMiB(stack);
    const liveAfter = await liveHeaps(stack);

    const growth = (after: number, before: number) => round(after / before - 1, 3);
    const checks: { name: string; pass: boolean; detail: string; hard: boolean }[] = [];
    for (const p of [...warmups1, run, warmup2]) {
      checks.push({ name: `no 5xx (${p === run ? "load" : "warm-up"})`, pass: p.fivexx === 0, detail: `${p.fivexx} 5xx`, hard: true });
      checks.push({ name: `no socket errors (${p === run ? "load" : "warm-up"})`, pass: p.errors === 0, detail: `${p.errors} errors`, hard: true });
    }
    for (const [service, key] of [
      ["main-api", "main_api_kib"],
      ["pricing-api", "pricing_api_kib"],
    ] as const) {
      const g = growth(rssAfter[key], rssBefore[key]);
      checks.push({
        name: `${service} RSS within 20%`,
        pass: g <= RSS_TOLERANCE,
        detail: `${rssBefore[key]} -> ${rssAfter[key]} KiB (${(g * 100).toFixed(1)}%)`,
        hard: ENFORCE_RSS,
      });
    }
    for (const [service, key] of [
      ["main-api", "main_api"],
      ["pricing-api", "pricing_api"],
    ] as const) {
      const g = growth(liveAfter[key], liveBefore[key]);
      checks.push({
        name: `${service} live heap within 20% (leak check)`,
        pass: g <= RSS_TOLERANCE,
        detail: `heap snapshot ${liveBefore[key]} -> ${liveAfter[key]} MiB (${(g * 100).toFixed(1)}%)`,
        hard: true,
      });
    }
    const p99: Record<string, unknown> = {};
    for (const kind of ACTIVE) {
      const f = run.kinds[kind];
      const within = f.p99_ms <= KINDS[kind].target_p99_ms;
      p99[kind] = { p99_ms: f.p99_ms, target_p99_ms: KINDS[kind].target_p99_ms, within, basis: KINDS[kind].basis, empty_server_p99_ms: run.canary?.p99_ms };
      checks.push({ name: `${kind} p99 within target`, pass: within, detail: `${f.p99_ms} ms (target ${KINDS[kind].target_p99_ms} ms)`, hard: ENFORCE });
    }
    for (const kind of ACTIVE) {
      const { trend } = run.kinds[kind];
      checks.push({
        name: `${kind} last ${TREND_WINDOW_S} s median within ${TREND_LIMIT}x of the first`,
        pass: trend.ratio <= TREND_LIMIT,
        detail: `${trend.first_p50_ms} -> ${trend.last_p50_ms} ms (${trend.ratio}x)`,
        hard: ENFORCE,
      });
    }
    const analysisMax = Math.max(0, ...run.analysis.durations_ms);
    checks.push({
      name: "analysis cycles succeed under load",
      pass: ANALYZE_EVERY_MS === 0 || (run.analysis.status_counts[200] ?? 0) > 0,
      detail: JSON.stringify(run.analysis.status_counts),
      hard: true,
    });
    checks.push({ name: "analysis cycle < 30 s", pass: analysisMax < 30_000, detail: `max ${analysisMax} ms for ${FLEET} resources`, hard: ENFORCE });

    const results = {
      benchmark: "mixed-load",
      database: stack.databaseKind,
      fleet: FLEET,
      duration_s: DURATION,
      warmup_s: WARMUP,
      ingest_batch: INGEST_BATCH,
      register_batch: REGISTER_BATCH,
      analyze_every_ms: ANALYZE_EVERY_MS,
      trend_window_s: TREND_WINDOW_S,
      trend_limit: TREND_LIMIT,
      trend: Object.fromEntries(ACTIVE.map((k) => [k, run.kinds[k].trend])),
      dead_rows,
      load: run,
      p99,
      analysis_ms: run.analysis.durations_ms,
      rss_kib: { after_seed: rssStart, before: rssBefore, after: rssAfter, tolerance: RSS_TOLERANCE },
      heap_used_mib: { before: heapBefore, after: heapAfter },
      live_heap_mib: { before: liveBefore, after: liveAfter, tolerance: RSS_TOLERANCE },
      load_scale: LOAD_SCALE,
      rates_per_s: Object.fromEntries(ACTIVE.map((k) => [k, KINDS[k].rate * LOAD_SCALE])),
      warmups: [...warmups1, warmup2],
      checks,
      passed: checks.every((c) => c.pass || !c.hard),
      machine: {
        cpus: os.cpus().length,
        memory_gib: Math.round(os.totalmem() / 2 ** 30),
        node: process.version,
        load_average: os.loadavg().map((n) => round(n, 2)),
      },
      total_seconds: Math.round((Date.now() - started) / 1000),
      at: new Date().toISOString(),
    };
    writeResults(path.join(__dirname, "../results/mixed-load.json"), results);
    if (TRACE) fs.writeFileSync(path.join(__dirname, "../results/mixed-load-trace.json"), JSON.stringify(traces));
    console.log(`heap used (MiB) before ${JSON.stringify(heapBefore)}, after ${JSON.stringify(heapAfter)}`);
    for (const c of checks) console.log(`${c.pass ? "PASS" : c.hard ? "FAIL" : "OVER"} ${c.name}: ${c.detail}`);
    console.log(`mixed load ${results.passed ? "PASS" : "FAIL"} (${results.total_seconds} s, ${stack.databaseKind}); written to bench/results/mixed-load.json`);
    if (!results.passed) process.exitCode = 1;
  } finally {
    await canary.close();
    await stack.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
