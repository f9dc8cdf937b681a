// `pnpm bench`: every benchmark in turn (each writes bench/results/<name>.json), then report.ts
// writes bench/results/latest.md. Sizes default to a run of about ten minutes; every knob can be
// overridden from the environment. A failed benchmark is reported and makes the exit status 1,
// the others still run.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const BENCHMARKS: [string, string, Record<string, string>][] = [
  ["compute-query", "compute-query.ts", { BENCH_DURATION: "10" }],
  ["marketplace", "marketplace.ts", { BENCH_RUNS: "10" }],
  ["rightsizing", "rightsizing.ts", { BENCH_HTTP_BATCHES: "10", BENCH_SUMMARY_CALLS: "100" }],
  ["savings", "savings.ts", { BENCH_SAVINGS_CALLS: "50" }],
  // PostgreSQL only: without BENCH_DATABASE_URL it prints that it skipped and exits 0 (no figure).
  ["alerts", "alerts.ts", { BENCH_BUDGET_CALLS: "50" }],
  ["mixed-load", "reliability/mixed-load.ts", { LOAD_DURATION: "60", LOAD_WARMUP: "10" }],
  // PostgreSQL only (skipped without BENCH_DATABASE_URL); the issue's query targets are for 10M lines (BENCH_SPEND_LINES=10000000, ~10 min to load).
  ["spend", "spend.ts", { BENCH_SPEND_LINES: "2000000", BENCH_SPEND_CALLS: "20" }],
  ["focus-import", "focus-import.ts", { BENCH_FOCUS_ROWS: "100000" }],
  // PostgreSQL only; the targets (apply < 2 min, by dimension p50 < 150 ms) are for 10M lines (BENCH_DIMENSION_LINES=10000000).
  ["dimensions", "dimensions.ts", { BENCH_DIMENSION_LINES: "2000000" }],
  ["statements", "statements.ts", { BENCH_STATEMENT_LINES: "2000000" }],
  // PostgreSQL only; the targets (p50 < 200 ms for a year, < 500 ms for a 90-day recommendation) are for 10M lines (BENCH_COMMITMENT_LINES=10000000).
  ["commitments", "commitments.ts", { BENCH_COMMITMENT_LINES: "2000000", BENCH_COMMITMENT_CALLS: "20" }],
  // PostgreSQL only; the allocation target (p50 < 500 ms) is for a month of 1,000 nodes and 30,000 pods (the defaults: ~21.6M samples, minutes to load).
  ["kubernetes", "kubernetes.ts", { BENCH_K8S_DAYS: "7" }],
];
const only = process.env.BENCH_ONLY?.split(",");
const results = path.join(__dirname, "results");
fs.mkdirSync(results, { recursive: true });
let failed = 0;
const tsx = path.join(__dirname, "node_modules/.bin/tsx");
for (const [name, file, defaults] of BENCHMARKS) {
  // A name or its first word (BENCH_ONLY=compute runs compute-query).
  if (only && !only.some((o) => o === name || name.split("-")[0] === o)) continue;
  fs.rmSync(path.join(results, `${name}.json`), { force: true }); // never report a stale figure
  const started = Date.now();
  console.log(`\n== ${name} ==`);
  const run = spawnSync(tsx, [file], { cwd: __dirname, stdio: "inherit", env: { ...defaults, ...process.env }, timeout: 15 * 60_000 });
  console.log(`== ${name}: ${run.status === 0 ? "done" : `FAILED (${run.status ?? run.signal})`} in ${Math.round((Date.now() - started) / 1000)} s ==`);
  if (run.status !== 0) failed++;
}
const report = spawnSync(tsx, ["report.ts"], { cwd: __dirname, stdio: "inherit" });
process.exit(failed || report.status ? 1 : 0);
