// What every benchmark measures with: numeric knobs from the environment, nearest-rank
// percentiles, a timed loop after warm-up calls; and how it ends: its results written, the process exited.
import fs from "node:fs";
import path from "node:path";

/** A numeric knob: `process.env[name]`, else `fallback`. */
export const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);

/** The nearest-rank `p` percentile of `values` (rank ceil(p x n)); 0 when there is none. */
export const percentile = (values: number[], p: number) =>
  values.length === 0 ? 0 : [...values].sort((a, b) => a - b)[Math.max(0, Math.ceil(p * values.length) - 1)];

export const round = (n: number, digits = 1) => Number(n.toFixed(digits));

/** The median of `values` (the mean of the middle two for an even count). */
export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** p50 and p99 (ms, to `digits` decimals) of `calls` runs of `fn`, after `warmups` untimed runs. */
export async function time(calls: number, fn: () => Promise<unknown>, warmups = 2, digits = 1) {
  for (let i = 0; i < warmups; i++) await fn();
  const times: number[] = [];
  for (let i = 0; i < calls; i++) {
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
  }
  return { p50_ms: round(percentile(times, 0.5), digits), p99_ms: round(percentile(times, 0.99), digits), calls };
}

/** `results` as indented JSON (and a final newline) in `file`, its folder made when missing. */
export function writeResults(file: string, results: unknown) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
}

/** Runs a benchmark's `main`, then exits: 0 once it is done, 1 (the error printed) when it fails. */
export function runBenchmark(main: () => Promise<void>) {
  main().then(
    () => process.exit(0),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
