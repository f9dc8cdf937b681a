// Both services as real processes (apps/<app>/dist/server.js, through e2e/src/services.ts) on their
// own databases: PostgreSQL when BENCH_DATABASE_URL or TEST_DATABASE_URL is set (a new database per
// service, dropped at the end), else embedded PGlite in a temp dir. 127.0.0.1 only.
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { Client } from "pg";
import { openDatabase, type Database } from "@cloudcost/db";
import { freePort } from "../../e2e/src/ports";
import { startService, type Service } from "../../e2e/src/services";

const run = promisify(execFile);
export const ROOT = path.resolve(__dirname, "../..");

export const serverUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
// e2e/src/services.ts reads TEST_DATABASE_URL; BENCH_DATABASE_URL is the benchmarks' own name for it.
if (serverUrl) process.env.TEST_DATABASE_URL = serverUrl;

export interface Stack {
  pricing: Service;
  main: Service;
  databaseKind: "postgres" | "pglite";
  /** Main API owner: bearer headers and the default tenant. */
  owner: { headers: Record<string, string>; tenantId: string; organizationId: string };
  /** A pricing API key of the account `bench`. */
  pricingKey: string;
  close(): Promise<void>;
}

/** VmRSS of a process in KiB (Linux /proc). */
export function rssKiB(pid: number | undefined): number {
  if (!pid) return 0;
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
}

export async function startStack(extraEnv: { main?: NodeJS.ProcessEnv; pricing?: NodeJS.ProcessEnv } = {}): Promise<Stack> {
  const shared: NodeJS.ProcessEnv = {
    SERVICE_TOKEN_SECRET: randomBytes(32).toString("hex"),
    RATE_LIMIT_PER_IP: "0",
    RATE_LIMIT_PER_CREDENTIAL: "0",
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? "warn",
    SHUTDOWN_TIMEOUT_MS: "10000",
  };
  const issuerDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-issuer-"));
  // Both start at once (each initialises its own database); the main API only needs the pricing URL.
  const pricingPort = await freePort();
  const [pricingStart, mainStart] = await Promise.allSettled([
    startService("pricing-api", { ...shared, COMPUTE_CATALOG_REFRESH_MS: "0", ...extraEnv.pricing }, { port: pricingPort }),
    startService("main-api", {
      ...shared,
      PRICING_API_URL: `http://127.0.0.1:${pricingPort}`,
      MAIN_API_DEV_ISSUER_DIR: issuerDir,
      ANALYSIS_INTERVAL_MINUTES: "0",
      OUTBOX_POLL_MS: "1000",
      ...extraEnv.main,
    }),
  ]);
  if (pricingStart.status === "rejected" || mainStart.status === "rejected") {
    for (const started of [pricingStart, mainStart]) if (started.status === "fulfilled") await started.value.stop("SIGKILL");
    throw ((pricingStart.status === "rejected" ? pricingStart : mainStart) as PromiseRejectedResult).reason;
  }
  const pricing = pricingStart.value;
  const main = mainStart.value;
  const cli = async (script: string, args: string[], env: NodeJS.ProcessEnv) =>
    (await run(process.execPath, [path.join(ROOT, script), ...args], { env: { PATH: process.env.PATH, ...env }, timeout: 30_000 })).stdout.trim();

  const email = `owner-${randomBytes(4).toString("hex")}@bench.test`;
  const token = await cli("apps/main-api/dist/cli/dev-token.js", ["--email", email, "--ttl", "7200"], main.env);
  const signup = await json(
    main.url,
    "POST",
    "/api/v1/signup/complete",
    { authorization: `Bearer ${token}` },
    {
      company_name: "Bench Corp",
      first_name: "Bench",
      last_name: "Owner",
    },
  );
  if (signup.status !== 201) throw new Error(`sign-up answered ${signup.status}: ${JSON.stringify(signup.body)}`);
  const data = (signup.body as { data: { default_tenant: { id: string }; organization: { id: string } } }).data;
  const pricingKey = await cli("apps/pricing-api/dist/cli/pricing-key.js", ["--account", "bench"], { ...pricing.env, PRICING_API_URL: pricing.url });

  return {
    pricing,
    main,
    databaseKind: serverUrl ? "postgres" : "pglite",
    owner: {
      headers: { authorization: `Bearer ${token}`, "x-service-tenant-id": data.default_tenant.id },
      tenantId: data.default_tenant.id,
      organizationId: data.organization.id,
    },
    pricingKey,
    async close() {
      await Promise.all([main.stop(), pricing.stop()]);
      for (const service of [main, pricing]) await dropStorage(service);
      fs.rmSync(issuerDir, { recursive: true, force: true });
    },
  };
}

const upperOf = (service: Service) => (service.name === "main-api" ? "MAIN_API" : "PRICING_API");

/** Opens a stopped service's database directly (to count what it really stored). */
export async function openServiceDatabase(service: Service): Promise<Database> {
  const url = service.env[`${upperOf(service)}_DATABASE_URL`];
  return openDatabase(url ? { url, poolSize: 2 } : { dataDir: service.env[`${upperOf(service)}_DATA_DIR`]! });
}

async function dropStorage(service: Service) {
  const url = service.env[`${upperOf(service)}_DATABASE_URL`];
  if (url && serverUrl) {
    const name = new URL(url).pathname.slice(1);
    const client = new Client({ connectionString: serverUrl });
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).finally(() => client.end());
  }
  const dataDir = service.env[`${upperOf(service)}_DATA_DIR`];
  if (dataDir) fs.rmSync(path.dirname(dataDir), { recursive: true, force: true });
}

export interface JsonAnswer {
  status: number;
  body: unknown;
  contentType: string;
}

/** One JSON request with a time limit; network failures come back as status 0. */
export async function json(
  base: string,
  method: string,
  url: string,
  headers: Record<string, string>,
  body?: unknown,
  timeoutMs = 30_000,
): Promise<JsonAnswer> {
  try {
    const res = await fetch(base + url, {
      method,
      headers: { ...headers, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      /* not JSON */
    }
    return { status: res.status, body: parsed, contentType: res.headers.get("content-type") ?? "" };
  } catch (err) {
    return { status: 0, body: (err as Error).message, contentType: "" };
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// --- Seed data shared by the mixed load and the fault scenarios ---

export const TYPES = [
  { provider: "aws", region: "us-east-1", instance_type: "m5.xlarge" },
  { provider: "aws", region: "us-east-1", instance_type: "m5.2xlarge" },
  { provider: "aws", region: "us-east-1", instance_type: "c5.xlarge" },
  { provider: "gcp", region: "us-central1", instance_type: "n2-standard-4" },
  { provider: "azure", region: "eastus", instance_type: "Standard_D4s_v5" },
];
export const rid = (i: number, prefix = "vm") => `${prefix}-${String(i).padStart(5, "0")}`;

/** `count` resources and `hours` hourly samples each (enough history for a recommendation). */
export async function seedFleet(stack: Stack, count: number, hours = 26, prefix = "vm", region?: string) {
  const main = stack.main.url;
  for (let start = 0; start < count; start += 1000) {
    const resources = Array.from({ length: Math.min(1000, count - start) }, (_, k) => {
      const i = start + k;
      const type = TYPES[i % TYPES.length];
      return { resource_id: rid(i, prefix), name: `${prefix} ${i}`, ...type, ...(region ? { region } : {}), architecture: "x86_64", operating_system: "linux" };
    });
    const res = await json(main, "PUT", "/api/v1/tenant/compute/resources", stack.owner.headers, { resources });
    if (res.status !== 200) throw new Error(`upsert answered ${res.status}: ${JSON.stringify(res.body)}`);
  }
  const now = Date.now();
  let batch: { resource_id: string; timestamp: string; cpu_utilization: number; memory_utilization: number }[] = [];
  const flush = async () => {
    if (!batch.length) return;
    const res = await json(main, "POST", "/api/v1/tenant/compute/metrics", stack.owner.headers, { samples: batch });
    if (res.status !== 200) throw new Error(`metrics answered ${res.status}: ${JSON.stringify(res.body)}`);
    batch = [];
  };
  for (let h = hours; h >= 1; h--) {
    const timestamp = new Date(now - h * 3_600_000).toISOString();
    for (let i = 0; i < count; i++) {
      batch.push({ resource_id: rid(i, prefix), timestamp, cpu_utilization: [1, 12, 35, 60, 95][i % 5] + (h % 3), memory_utilization: 40 });
      if (batch.length === 5000) await flush();
    }
  }
  await flush();
}

/**
 * Planner statistics of both services' databases, as after a bulk load anywhere: the run must not
 * depend on whether (and when) autovacuum gets to the freshly seeded tables; the CI machine's
 * PostgreSQL runs with autovacuum off. PGlite needs nothing (its tables are small and planned alike).
 */
export async function analyzeDatabases(stack: Stack): Promise<void> {
  for (const url of [stack.main.databaseUrl, stack.pricing.databaseUrl]) {
    if (!url) continue;
    const client = new Client({ connectionString: url });
    await client.connect();
    try {
      await client.query("ANALYZE");
    } finally {
      await client.end();
    }
  }
}

export function modelEntries(tag: string, count: number, price = 0.15) {
  const buckets = ["input", "output", "cache_read", "cache_write"];
  return Array.from({ length: count }, (_, i) => ({
    provider: tag,
    publisher: "Bench",
    model: `model-${Math.floor(i / buckets.length)}`,
    model_id: `m-${Math.floor(i / buckets.length)}`,
    region: "global",
    token_bucket: buckets[i % buckets.length],
    unit_price_per_mtok: price,
  }));
}
