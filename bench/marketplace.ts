// Marketplace benchmark: the pricing API in-process on a fresh embedded database (temp dir),
// registering 1000 model entries in one request and pricing 10000 usage lines in one request,
// RUNS times each. Prints the medians and writes bench/results/marketplace.json.
// Needs the workspace built (`pnpm build`): run `pnpm --filter @cloudcost/bench bench:marketplace`.
import fs from "node:fs";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import pino from "pino";
import { openMigratedDatabase } from "@cloudcost/db";
import { createApp } from "../apps/pricing-api/src/app";
import { buildDeps } from "../apps/pricing-api/src/compose";
import { loadConfig } from "../apps/pricing-api/src/config";
import { MIGRATIONS_DIR } from "../apps/pricing-api/src/db";
import { median, round, writeResults } from "./measure";

const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const ENTRIES = 1000;
const LINES = 10000;
const TARGET_REGISTER_MS = 300;
const TARGET_USAGE_MS = 500;
const BUCKETS = ["input", "output", "cache_read", "cache_write"] as const;

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cloudcost-bench-"));
  const logger = pino({ level: "silent" });
  const db = await openMigratedDatabase({ dataDir, migrationsDir: MIGRATIONS_DIR, logger });
  const config = loadConfig({ LOG_LEVEL: "silent", PRICING_API_DATA_DIR: dataDir, RATE_LIMIT_PER_IP: "0", RATE_LIMIT_PER_CREDENTIAL: "0" });
  const deps = buildDeps({ config, db, logger, serviceSecret: new TextEncoder().encode("bench-secret-".repeat(4)) });
  const { apiKeys, prisma } = deps;
  const app = createApp(deps);
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { key } = await apiKeys.create("bench", "bench");

  const call = async (method: string, url: string, body: unknown, expected: number) => {
    const payload = JSON.stringify(body); // client-side work, not timed
    const started = performance.now();
    const cpuBefore = process.cpuUsage();
    const res = await fetch(`${base}${url}`, {
      method,
      headers: { "content-type": "application/json", "x-api-key": key },
      body: payload,
    });
    const json = (await res.json()) as Record<string, unknown>;
    const ms = performance.now() - started;
    const cpu = process.cpuUsage(cpuBefore);
    const cpuMs = (cpu.user + cpu.system) / 1000;
    if (res.status !== expected) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(json).slice(0, 300)}`);
    return { ms, cpuMs, json };
  };

  const label = `${config.labelPrefix}/pricing-id`;
  const database = await call(
    "POST",
    "/marketplace/providers/databases",
    { entries: [{ provider: "aws", service: "rds", region: "eu-west-1", cost_per_hour: 0.258, cost_per_storage_gb_hour: 0.000158 }] },
    201,
  );
  const databaseId = (database.json.entries as { id: string }[])[0].id;

  const registerMs: number[] = [];
  const usageMs: number[] = [];
  // CPU time of this process (server and client share it): what the wall time would be on an idle
  // machine, give or take; reported beside the wall time because shared CI machines are noisy.
  const registerCpuMs: number[] = [];
  const usageCpuMs: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    // Fresh identities each run: 250 models x 4 token buckets.
    const entries = Array.from({ length: ENTRIES }, (_, i) => ({
      provider: "bench",
      publisher: "Bench",
      model: `model-${run}-${Math.floor(i / BUCKETS.length)}`,
      model_id: `m-${run}-${Math.floor(i / BUCKETS.length)}`,
      region: "global",
      token_bucket: BUCKETS[i % BUCKETS.length],
      unit_price_per_mtok: 0.15 + (i % 7) * 0.05,
      modalities_input: ["text"],
      tags: { run },
    }));
    const registered = await call("POST", "/marketplace/providers/models", { entries }, 201);
    registerMs.push(registered.ms);
    registerCpuMs.push(registered.cpuMs);
    const ids = (registered.json.entries as { id: string; token_bucket: string }[]).filter((e) => e.token_bucket === "input").map((e) => e.id);

    const timestamp = new Date().toISOString();
    const usage = Array.from({ length: LINES }, (_, i) =>
      i % 4 === 3
        ? {
            resource_id: `db-${i}`,
            kind: "database",
            timestamp,
            labels: { [`${label}.database`]: databaseId },
            quantities: { hours: 1, storage_gb_hours: 100 },
          }
        : {
            resource_id: `dep-${i}`,
            kind: "model",
            timestamp,
            labels: { [`${label}.model`]: ids[i % ids.length] },
            quantities: { input: 1_234_567, output: 45_678, cache_read: 1000 },
          },
    );
    const priced = await call("POST", "/v1/pricing/usage", { usage }, 200);
    usageMs.push(priced.ms);
    usageCpuMs.push(priced.cpuMs);
    const unresolved = (priced.json.lines as { resolved: boolean }[]).filter((line) => !line.resolved).length;
    if (unresolved) throw new Error(`${unresolved} usage lines did not resolve`);
    process.stdout.write(
      `run ${run + 1}/${RUNS}: register ${registered.ms.toFixed(1)} ms (cpu ${registered.cpuMs.toFixed(1)}), ` +
        `usage ${priced.ms.toFixed(1)} ms (cpu ${priced.cpuMs.toFixed(1)})\n`,
    );
  }

  const result = {
    benchmark: "marketplace",
    database: "embedded PGlite (fresh, temp dir)",
    runs: RUNS,
    register_1000_models: summary(registerMs, registerCpuMs, TARGET_REGISTER_MS),
    price_10000_usage_lines: summary(usageMs, usageCpuMs, TARGET_USAGE_MS),
    load_average: os.loadavg().map(round),
    cpus: os.cpus().length,
    node: process.version,
    at: new Date().toISOString(),
  };
  const out = path.join(__dirname, "results", "marketplace.json");
  writeResults(out, result);
  process.stdout.write(
    `median register 1000 model entries: ${result.register_1000_models.median_ms} ms, cpu ${result.register_1000_models.median_cpu_ms} ms (target < ${TARGET_REGISTER_MS})\n` +
      `median price 10000 usage lines:     ${result.price_10000_usage_lines.median_ms} ms, cpu ${result.price_10000_usage_lines.median_cpu_ms} ms (target < ${TARGET_USAGE_MS})\n` +
      `load average ${result.load_average.join(" ")} on ${result.cpus} cpus\n` +
      `written to ${path.relative(process.cwd(), out) || out}\n`,
  );

  server.close();
  await apiKeys.stop();
  await prisma.$disconnect();
  await db.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

const summary = (wall: number[], cpu: number[], target: number) => ({
  median_ms: round(median(wall)),
  median_cpu_ms: round(median(cpu)),
  target_ms: target,
  samples_ms: wall.map(round),
});

main().catch((err) => {
  process.stderr.write(`bench failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
