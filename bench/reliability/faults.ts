// Fault scenarios against both services as real processes (bench/reliability/stack.ts). Each is
// bounded in time, asserts, and prints PASS/FAIL lines; after each, every write acknowledged with a
// 2xx must be in the database, and no batch may be half-written.
//
//   pnpm --filter @cloudcost/bench faults                 (PGlite; TEST_DATABASE_URL: PostgreSQL + scenario b)
//
// a. the pricing API SIGKILLed and restarted during an analysis cycle
// b. the PostgreSQL server restarted under write load (only with a server URL; FAULTS_PG_CLUSTER
//    names the pg_ctlcluster cluster, default `main`, version from /etc/postgresql)
// c. clients disconnecting mid-upload and mid-response
// d. SIGTERM under write load
// e. a bill whose cost cells are 1e20000000, imported while /healthz is polled (answers under 200 ms)
// f. the main API SIGKILLed while the last part of a multi-part import session commits, and while a
//    usage batch is stored, under a mixed load of summaries and metric ingest; after the restart the
//    clients retry (the same part, the same event_ids) and every acknowledged write is there once
// FAULTS=a,c picks scenarios. Writes bench/results/faults.json.
import { execFile } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { promisify } from "node:util";
import type { Service } from "../../e2e/src/services";
import { json, modelEntries, seedFleet, serverUrl, sleep, startStack, type Stack } from "./stack";
import { writeResults } from "../measure";

const SELECTED = (process.env.FAULTS ?? "a,b,c,d,e,f").split(",").map((s) => s.trim());
const FLEET = Number(process.env.FAULTS_FLEET ?? 200);
const REGISTER_BATCH = 8;
const UPSERT_BATCH = 20;

interface Check {
  scenario: string;
  name: string;
  pass: boolean;
  detail: string;
}
const checks: Check[] = [];
function check(scenario: string, name: string, pass: boolean, detail = "") {
  checks.push({ scenario, name, pass, detail });
  console.log(`${pass ? "PASS" : "FAIL"} [${scenario}] ${name}${detail ? `: ${detail}` : ""}`);
}

// --- Ledger of writes: every batch sent, whether it was acknowledged (2xx) --------------------------

interface Batch {
  kind: "models" | "resources";
  tag: string;
  size: number;
  status: number;
}
let ledger: Batch[] = [];
let batchNo = 0;

async function writeModels(stack: Stack, scenario: string): Promise<Batch> {
  const tag = `f${scenario}-${++batchNo}`;
  const res = await json(
    stack.pricing.url,
    "POST",
    "/marketplace/providers/models",
    { "x-api-key": stack.pricingKey },
    { entries: modelEntries(tag, REGISTER_BATCH) },
    15_000,
  );
  const batch: Batch = { kind: "models", tag, size: REGISTER_BATCH, status: res.status };
  ledger.push(batch);
  return batch;
}

async function writeResources(stack: Stack, scenario: string): Promise<Batch> {
  // The batch's own region makes it countable through the summary filter.
  const tag = `f${scenario}-${++batchNo}`;
  const resources = Array.from({ length: UPSERT_BATCH }, (_, i) => ({ resource_id: `${tag}-${i}`, provider: "aws", region: tag, instance_type: "m5.large" }));
  const res = await json(stack.main.url, "PUT", "/api/v1/tenant/compute/resources", stack.owner.headers, { resources }, 15_000);
  const batch: Batch = { kind: "resources", tag, size: UPSERT_BATCH, status: res.status };
  ledger.push(batch);
  return batch;
}

async function storedCount(stack: Stack, batch: Batch): Promise<number> {
  if (batch.kind === "models") {
    const res = await json(stack.pricing.url, "GET", `/marketplace/providers/models?provider=${batch.tag}&include_closed=true`, {
      "x-api-key": stack.pricingKey,
    });
    if (res.status !== 200) throw new Error(`listing ${batch.tag} answered ${res.status}`);
    return (res.body as { entries: unknown[] }).entries.length;
  }
  const res = await json(stack.main.url, "GET", `/api/v1/tenant/compute/recommendations/summary?region=${batch.tag}`, stack.owner.headers);
  if (res.status !== 200) throw new Error(`summary of ${batch.tag} answered ${res.status}`);
  return (res.body as { data: { total_resources: number } }).data.total_resources;
}

/** Every acknowledged batch is fully stored; every other batch is fully stored or absent. */
async function verifyLedger(stack: Stack, scenario: string) {
  let acknowledged = 0;
  const missing: string[] = [];
  const partial: string[] = [];
  for (const batch of ledger) {
    const n = await storedCount(stack, batch);
    if (batch.status >= 200 && batch.status < 300) {
      acknowledged++;
      if (n !== batch.size) missing.push(`${batch.tag} (${n}/${batch.size})`);
    } else if (n !== 0 && n !== batch.size) partial.push(`${batch.tag} (${n}/${batch.size}, answered ${batch.status})`);
  }
  check(
    scenario,
    "every acknowledged write is stored",
    missing.length === 0,
    `${acknowledged} acknowledged batches of ${ledger.length}${missing.length ? `; missing ${missing.join(", ")}` : ""}`,
  );
  check(scenario, "no batch half-written", partial.length === 0, partial.join(", "));
  ledger = [];
}

/** Writer loops on both services until `stop()`; bounded by `maxMs`. */
function writeLoad(stack: Stack, scenario: string, maxMs: number) {
  let stopped = false;
  const deadline = Date.now() + maxMs;
  const statuses: Record<string, number> = {};
  const loop = async (write: () => Promise<Batch>) => {
    while (!stopped && Date.now() < deadline) {
      const b = await write();
      statuses[b.status] = (statuses[b.status] ?? 0) + 1;
      if (b.status === 0 || b.status >= 500) await sleep(100); // a refused connection answers at once
    }
  };
  const loops = [
    loop(() => writeModels(stack, scenario)),
    loop(() => writeModels(stack, scenario)),
    loop(() => writeResources(stack, scenario)),
    loop(() => writeResources(stack, scenario)),
  ];
  return {
    statuses,
    async stop() {
      stopped = true;
      await Promise.all(loops);
    },
  };
}

const alive = (service: Service) => service.process.exitCode === null && service.process.signalCode === null;
async function healthy(service: Service) {
  return alive(service) && (await json(service.url, "GET", "/healthz", {}, undefined, 5000)).status === 200;
}

function exited(service: Service, timeoutMs: number): Promise<{ code: number | null; signal: string | null } | "timeout"> {
  const child = service.process;
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve("timeout"), timeoutMs);
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal });
    });
  });
}

const summaryOf = async (stack: Stack) => {
  const res = await json(stack.main.url, "GET", "/api/v1/tenant/compute/recommendations/summary", stack.owner.headers, undefined, 10_000);
  return {
    status: res.status,
    data: (res.body as { data?: { total_resources: number; analyzed_resources: number; action_counts: Record<string, number> } }).data,
  };
};
const analyze = (stack: Stack, timeoutMs = 60_000) =>
  json(stack.main.url, "POST", "/api/v1/tenant/compute/recommendations/analyze", stack.owner.headers, undefined, timeoutMs);

// --- a. pricing API killed during an analysis cycle ------------------------------------------------

async function scenarioA(stack: Stack) {
  const s = "a";
  const first = await analyze(stack);
  check(s, "baseline analysis cycle succeeds", first.status === 200, `answered ${first.status}`);
  const before = await summaryOf(stack);

  let outcome = 0;
  let region = "";
  // New resources in a region the analysis has not priced yet, so the cycle must call the pricing
  // API (its answers are cached); if a cycle finishes before the kill lands, try once more.
  for (let attempt = 1; attempt <= 2; attempt++) {
    region = ["ap-southeast-2", "eu-central-1"][attempt - 1];
    await seedFleet(stack, 50, 26, `fa${attempt}`, region);
    const cycle = analyze(stack);
    await sleep(attempt === 1 ? 20 : 0);
    stack.pricing.process.kill("SIGKILL");
    await exited(stack.pricing, 10_000);
    outcome = (await cycle).status;
    if (outcome !== 200) break;
    console.log(`  cycle ${attempt} finished before the kill; restarting the pricing API and trying again`);
    await stack.pricing.start();
  }
  const cycleBody = await analyze(stack, 30_000); // pricing still down: must fail soft again
  check(
    s,
    "cycle during the kill fails soft (503 in the envelope, not 500)",
    outcome === 503 && cycleBody.status === 503 && (cycleBody.body as { status?: string }).status === "error",
    `answered ${outcome}, then ${cycleBody.status}`,
  );
  check(s, "main API answers while the pricing API is down", await healthy(stack.main));
  const during = await summaryOf(stack);
  check(
    s,
    "previous results kept",
    during.status === 200 && during.data!.analyzed_resources === before.data!.analyzed_resources && JSON.stringify(during.data!.action_counts).length > 0,
    `summary ${during.status}, analyzed ${during.data?.analyzed_resources} (before ${before.data?.analyzed_resources}), pending ${during.data?.action_counts.pending}`,
  );
  const restartedAt = Date.now();
  await stack.pricing.start();
  const next = await analyze(stack);
  const after = await summaryOf(stack);
  check(
    s,
    "next cycle succeeds after the restart",
    next.status === 200 && after.data!.action_counts.pending === 0,
    `answered ${next.status} ${Date.now() - restartedAt} ms after the restart began; pending ${after.data?.action_counts.pending}`,
  );
  await writeModels(stack, s);
  await writeResources(stack, s);
  await verifyLedger(stack, s);
}

// --- b. PostgreSQL restarted under write load --------------------------------------------------------

async function scenarioB(stack: Stack) {
  const s = "b";
  if (!serverUrl) {
    console.log("SKIP [b] PostgreSQL restart: needs TEST_DATABASE_URL or BENCH_DATABASE_URL (the services run on PGlite)");
    return;
  }
  const version = process.env.FAULTS_PG_VERSION ?? fs.readdirSync("/etc/postgresql").sort().at(-1)!;
  const cluster = process.env.FAULTS_PG_CLUSTER ?? "main";
  const load = writeLoad(stack, s, 60_000);
  const probes: { service: string; path: string; status: number; shapeOk: boolean }[] = [];
  let probing = true;
  const probe = (async () => {
    while (probing) {
      for (const [service, url, path, headers] of [
        ["main-api", stack.main.url, "/readyz", {}],
        ["pricing-api", stack.pricing.url, "/readyz", {}],
        ["main-api", stack.main.url, "/api/v1/tenant/compute/recommendations/summary", stack.owner.headers],
        ["pricing-api", stack.pricing.url, "/v1/pricing/pins", { "x-api-key": stack.pricingKey }],
      ] as const) {
        const res = await json(url, "GET", path, headers as Record<string, string>, undefined, 5000);
        probes.push({ service, path, status: res.status, shapeOk: res.status !== 503 || shapeOf503(service, path, res) });
      }
      await sleep(100);
    }
  })();
  await sleep(1500);
  const t0 = Date.now();
  // Asynchronously: the load and the probes keep going while the server is down.
  await promisify(execFile)("pg_ctlcluster", ["--skip-systemctl-redirect", version, cluster, "restart"], { timeout: 60_000 });
  const restartMs = Date.now() - t0;
  // Recovery: both ready again and writes accepted, within 30 s.
  let recoveredMs = -1;
  for (const deadline = Date.now() + 30_000; Date.now() < deadline; await sleep(250)) {
    const ready = await Promise.all([stack.main, stack.pricing].map((svc) => json(svc.url, "GET", "/readyz", {}, undefined, 5000)));
    if (ready.every((r) => r.status === 200)) {
      recoveredMs = Date.now() - t0;
      break;
    }
  }
  await sleep(1000);
  probing = false;
  await probe;
  await load.stop();
  const recentWrites = ledger.slice(-8);
  const writes = load.statuses;
  const writeStatuses = Object.keys(writes).map(Number);
  const fiveHundreds = writeStatuses.filter((c) => c >= 500 && c !== 503);
  const probe500 = probes.filter((p) => p.status >= 500 && p.status !== 503);
  console.log(
    `  restart took ${restartMs} ms; writes by status ${JSON.stringify(writes)}; probes by status ${JSON.stringify(countBy(probes.map((p) => `${p.service} ${p.path} ${p.status}`)))}`,
  );
  const seen503 = probes.filter((p) => p.status === 503).length + (writes[503] ?? 0);
  check(s, "the outage was observed (some 503s)", seen503 > 0, `${seen503} answers were 503`);
  check(s, "no 500 during the outage (writes answer 503 or succeed)", fiveHundreds.length === 0 && !writes[0], JSON.stringify(writes));
  check(
    s,
    "readiness and reads answer 503, never 500",
    probe500.length === 0 && probes.every((p) => p.status !== 0),
    `${probes.length} probes; ${probes.filter((p) => p.status === 503).length} were 503`,
  );
  check(
    s,
    "503s are in each API's own shape (service_unavailable)",
    probes.every((p) => p.shapeOk),
    "",
  );
  check(
    s,
    "services recover by themselves",
    recoveredMs >= 0 && (await healthy(stack.main)) && (await healthy(stack.pricing)),
    `ready again ${recoveredMs} ms after the restart began`,
  );
  check(
    s,
    "writes succeed after recovery",
    recentWrites.some((b) => b.status >= 200 && b.status < 300),
    recentWrites.map((b) => b.status).join(","),
  );
  await verifyLedger(stack, s);
}

function shapeOf503(service: string, path: string, res: { body: unknown; contentType: string }) {
  const body = res.body as Record<string, unknown>;
  if (service === "main-api") return body.status === "error" && typeof body.message === "string" && Object.keys(body).length === 2;
  if (path.startsWith("/v1/")) return res.contentType.startsWith("application/problem+json") && body.status === 503 && body.code === "service_unavailable";
  if (path === "/readyz") return typeof body === "object";
  return typeof body.error === "string";
}

function countBy(items: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const item of items) counts[item] = (counts[item] ?? 0) + 1;
  return counts;
}

// --- c. clients disconnecting mid-request ----------------------------------------------------------

/** Sends `body` (Content-Length set) but destroys the socket after `fraction` of it, or `afterMs` after all of it. */
function abortedRequest(
  base: string,
  method: string,
  url: string,
  headers: Record<string, string>,
  body: string,
  how: { fraction?: number; afterMs?: number },
) {
  return new Promise<string>((resolve) => {
    const bytes = Buffer.from(body);
    const req = http.request(base + url, { method, headers: { ...headers, "content-type": "application/json", "content-length": bytes.length } });
    req.on("error", () => resolve("aborted"));
    req.on("response", (res) => {
      res.resume();
      resolve(`answered ${res.statusCode} before the abort`);
    });
    if (how.fraction !== undefined) {
      req.write(bytes.subarray(0, Math.floor(bytes.length * how.fraction)), () => setTimeout(() => req.destroy(), 50));
    } else {
      req.end(bytes, () => setTimeout(() => req.destroy(), how.afterMs ?? 0));
    }
    setTimeout(() => req.destroy(), 10_000).unref();
  });
}

async function scenarioC(stack: Stack) {
  const s = "c";
  const pids = [stack.main.process.pid, stack.pricing.process.pid];
  const pricingHeaders = { "x-api-key": stack.pricingKey };
  // 1. Aborted uploads: half of a 1000-entry registration and of a 1000-resource upsert.
  const uploadTag = `fc-upload-${++batchNo}`;
  const up1 = await abortedRequest(
    stack.pricing.url,
    "POST",
    "/marketplace/providers/models",
    pricingHeaders,
    JSON.stringify({ entries: modelEntries(uploadTag, 1000) }),
    { fraction: 0.5 },
  );
  ledger.push({ kind: "models", tag: uploadTag, size: 1000, status: 0 });
  const resTag = `fc-upload-${++batchNo}`;
  const resources = Array.from({ length: 1000 }, (_, i) => ({ resource_id: `${resTag}-${i}`, provider: "aws", region: resTag, instance_type: "m5.large" }));
  const up2 = await abortedRequest(stack.main.url, "PUT", "/api/v1/tenant/compute/resources", stack.owner.headers, JSON.stringify({ resources }), {
    fraction: 0.5,
  });
  ledger.push({ kind: "resources", tag: resTag, size: 1000, status: 0 });
  await sleep(300);
  const uploadCounts = [await storedCount(stack, ledger.at(-2)!), await storedCount(stack, ledger.at(-1)!)];
  check(
    s,
    "aborted uploads store nothing",
    uploadCounts.every((n) => n === 0),
    `${up1}/${up2}; stored ${uploadCounts.join(", ")}`,
  );

  // 2. Aborts while the server works: full 1000-entry registrations and upserts dropped 0-80 ms
  // after sending, a 10000-line usage pricing, and an analysis cycle.
  for (const afterMs of [0, 5, 20, 80]) {
    const tag = `fc-slow-${++batchNo}`;
    await abortedRequest(stack.pricing.url, "POST", "/marketplace/providers/models", pricingHeaders, JSON.stringify({ entries: modelEntries(tag, 1000) }), {
      afterMs,
    });
    ledger.push({ kind: "models", tag, size: 1000, status: 0 });
    const rTag = `fc-slow-${++batchNo}`;
    const rs = Array.from({ length: 1000 }, (_, i) => ({ resource_id: `${rTag}-${i}`, provider: "aws", region: rTag, instance_type: "m5.large" }));
    await abortedRequest(stack.main.url, "PUT", "/api/v1/tenant/compute/resources", stack.owner.headers, JSON.stringify({ resources: rs }), { afterMs });
    ledger.push({ kind: "resources", tag: rTag, size: 1000, status: 0 });
  }
  const usage = Array.from({ length: 10_000 }, (_, i) => ({
    resource_id: `u-${i}`,
    kind: "model",
    timestamp: new Date().toISOString(),
    labels: {},
    quantities: { input: 1000 },
  }));
  const slowUsage = await abortedRequest(stack.pricing.url, "POST", "/v1/pricing/usage", pricingHeaders, JSON.stringify({ usage }), { afterMs: 30 });
  const slowAnalysis = await abortedRequest(stack.main.url, "POST", "/api/v1/tenant/compute/recommendations/analyze", stack.owner.headers, "{}", {
    afterMs: 30,
  });
  console.log(`  slow responses: usage ${slowUsage}, analysis ${slowAnalysis}`);
  // The aborted analysis keeps running server-side; the next one may see 409 until it is done.
  let next = await analyze(stack);
  for (let i = 0; i < 20 && next.status === 409; i++) {
    await sleep(500);
    next = await analyze(stack);
  }
  check(s, "analysis works after an aborted one (no stuck lock)", next.status === 200, `answered ${next.status}`);
  const up = (await healthy(stack.main)) && (await healthy(stack.pricing)) && stack.main.process.pid === pids[0] && stack.pricing.process.pid === pids[1];
  check(s, "both services stay up (same processes)", up);
  await writeModels(stack, s);
  await writeResources(stack, s);
  await sleep(500); // let an aborted request's transaction finish before counting
  await verifyLedger(stack, s);
}

// --- d. SIGTERM under write load -----------------------------------------------------------------

async function scenarioD(stack: Stack) {
  const s = "d";
  const load = writeLoad(stack, s, 60_000);
  await sleep(2000);
  const t0 = Date.now();
  stack.main.process.kill("SIGTERM");
  stack.pricing.process.kill("SIGTERM");
  const [mainExit, pricingExit] = await Promise.all([exited(stack.main, 20_000), exited(stack.pricing, 20_000)]);
  const stopMs = Date.now() - t0;
  await sleep(300);
  await load.stop();
  console.log(`  writes by status ${JSON.stringify(load.statuses)}; exits ${JSON.stringify([mainExit, pricingExit])} after ${stopMs} ms`);
  check(
    s,
    "both services exit cleanly on SIGTERM",
    [mainExit, pricingExit].every((e) => e !== "timeout" && e.code === 0),
    JSON.stringify([mainExit, pricingExit]),
  );
  check(
    s,
    "no 5xx while draining",
    Object.keys(load.statuses).every((c) => Number(c) < 500),
    JSON.stringify(load.statuses),
  );
  if (mainExit === "timeout") stack.main.process.kill("SIGKILL");
  if (pricingExit === "timeout") stack.pricing.process.kill("SIGKILL");
  await Promise.all([stack.pricing.start(), stack.main.start()]);
  await verifyLedger(stack, s);
}

/**
 * The bill that once held the event loop for seconds: three cost cells of 1e20000000 in a FOCUS file
 * of 731 bytes (each cell expanded to 20 million digits by a careless reader).
 */
function exponentBombFile(): string {
  const header =
    "BilledCost,BillingAccountId,BillingAccountName,BillingCurrency,BillingPeriodEnd,BillingPeriodStart,ChargeCategory,ChargeClass,ChargeDescription,ChargePeriodEnd,ChargePeriodStart,ContractedCost,EffectiveCost,InvoiceIssuerName,ListCost,PricingQuantity,PricingUnit,ProviderName,PublisherName,ServiceCategory,ServiceName";
  const row = "1e20000000,a,A,USD,2026-11-01T00:00:00Z,2026-10-01T00:00:00Z,Usage,,,2026-10-02T00:00:00Z,2026-10-01T00:00:00Z,1,1,C,1,1,H,C,C,Compute,VM";
  return `${header}\n${row}\n${row}\n${row}\n`;
}

async function scenarioE(stack: Stack) {
  const s = "e";
  const latencies: number[] = [];
  const failures: string[] = [];
  let polling = true;
  const poller = (async () => {
    while (polling) {
      const t0 = performance.now();
      const res = await json(stack.main.url, "GET", "/healthz", {}, undefined, 5_000);
      latencies.push(performance.now() - t0);
      if (res.status !== 200) failures.push(String(res.status));
      await sleep(10);
    }
  })();
  await sleep(200);
  const t0 = Date.now();
  const res = await fetch(`${stack.main.url}/api/v1/organizations/${stack.owner.organizationId}/spend/imports`, {
    method: "POST",
    headers: { ...stack.owner.headers, "content-type": "text/csv" },
    body: exponentBombFile(),
    signal: AbortSignal.timeout(60_000),
  }).catch((err: Error) => ({ status: 0, text: async () => err.message }));
  const answer = await res.text();
  const importMs = Date.now() - t0;
  await sleep(300);
  polling = false;
  await poller;
  const max = Math.max(...latencies);
  console.log(`  import answered ${res.status} in ${importMs} ms; ${latencies.length} health answers, max ${max.toFixed(1)} ms`);
  check(
    s,
    "a FOCUS file with 1e20000000 costs is a 400 naming the row and column",
    res.status === 400 && /Row 1, column BilledCost/.test(answer),
    answer.slice(0, 200),
  );
  check(
    s,
    "the health answers stay under 200 ms while it is imported",
    max < 200 && failures.length === 0,
    `max ${max.toFixed(1)} ms, non-200: ${failures.join(",") || "none"}`,
  );
}

// --- f. main API killed mid-commit of an import session and mid-usage batch, under load ------------

const FOCUS_HEADER =
  "BilledCost,BillingAccountId,BillingAccountName,BillingCurrency,BillingPeriodEnd,BillingPeriodStart,ChargeCategory,ChargeClass,ChargeDescription,ChargePeriodEnd,ChargePeriodStart,ContractedCost,EffectiveCost,InvoiceIssuerName,ListCost,PricingQuantity,PricingUnit,ProviderName,PublisherName,ServiceCategory,ServiceName";
const PART_ROWS = Number(process.env.FAULTS_PART_ROWS ?? 10_000);
const USAGE_LINES = Number(process.env.FAULTS_USAGE_LINES ?? 2_000);

/** One part of a bill of `account`, October 2026: `rows` lines of `cost` USD each. */
function billPart(account: string, rows: number, cost: string): string {
  const row = `${cost},${account},A,USD,2026-11-01T00:00:00Z,2026-10-01T00:00:00Z,Usage,,,2026-10-02T00:00:00Z,2026-10-01T00:00:00Z,${cost},${cost},C,${cost},1,H,C,C,Compute,VM`;
  return `${FOCUS_HEADER}\n${`${row}\n`.repeat(rows)}`;
}

/** Summaries and metric batches against the main API until stopped (answers counted, failures tolerated). */
function mainApiLoad(stack: Stack) {
  let stopped = false;
  const statuses: Record<string, number> = {};
  const count = (status: number) => {
    statuses[status] = (statuses[status] ?? 0) + 1;
  };
  let batch = 0;
  const loops = [
    (async () => {
      while (!stopped) {
        count((await json(stack.main.url, "GET", "/api/v1/tenant/compute/recommendations/summary", stack.owner.headers, undefined, 10_000)).status);
        await sleep(50);
      }
    })(),
    (async () => {
      while (!stopped) {
        const timestamp = new Date(Date.now() - 60_000 + (batch++ % 1000)).toISOString();
        const samples = Array.from({ length: FLEET }, (_, i) => ({
          resource_id: `vm-${String(i).padStart(5, "0")}`,
          timestamp,
          cpu_utilization: (i * 7) % 100,
        }));
        count((await json(stack.main.url, "POST", "/api/v1/tenant/compute/metrics", stack.owner.headers, { samples }, 10_000)).status);
        await sleep(100);
      }
    })(),
  ];
  return {
    statuses,
    async stop() {
      stopped = true;
      await Promise.all(loops);
    },
  };
}

/** Sends until an answer other than a refused connection or a 5xx comes back (a client retrying through the restart). */
async function untilAnswered(send: () => Promise<{ status: number; body: unknown }>, deadlineMs = 60_000) {
  const attempts: number[] = [];
  const until = Date.now() + deadlineMs;
  for (;;) {
    const res = await send();
    attempts.push(res.status);
    if ((res.status !== 0 && res.status < 500) || Date.now() > until) return { ...res, attempts };
    await sleep(250);
  }
}

async function killMain(stack: Stack) {
  stack.main.process.kill("SIGKILL");
  await exited(stack.main, 10_000);
}

/** Kills the main API `afterMs` after `request` started; restarts it; answers the request's outcome. */
async function killDuring<T extends { status: number }>(stack: Stack, request: () => Promise<T>, afterMs: number): Promise<T> {
  const pending = request();
  await sleep(afterMs);
  await killMain(stack);
  const outcome = await pending;
  await stack.main.start();
  return outcome;
}

async function scenarioF(stack: Stack) {
  const s = "f";
  const org = stack.owner.organizationId;
  const importsPath = (query: string) => `/api/v1/organizations/${org}/spend/imports?${query}`;
  const upload = (query: string, body: string, timeoutMs = 60_000) =>
    fetch(`${stack.main.url}${importsPath(query)}`, {
      method: "POST",
      headers: { ...stack.owner.headers, "content-type": "text/csv" },
      body,
      signal: AbortSignal.timeout(timeoutMs),
    })
      .then(async (res) => ({ status: res.status, body: (await res.json().catch(() => ({}))) as unknown }))
      .catch((err: Error) => ({ status: 0, body: err.message as unknown }));
  const octoberSpend = async () => {
    const res = await json(stack.main.url, "GET", `/api/v1/organizations/${org}/spend?start=2026-10-01&end=2026-11-01&granularity=none`, stack.owner.headers);
    if (res.status !== 200) throw new Error(`spend answered ${res.status}`);
    const totals = (res.body as { data: { totals: { currency: string; cost: string | number }[] } }).data.totals;
    return Number(totals.find((t) => t.currency === "USD")?.cost ?? 0);
  };
  const sessionOf = async (name: string) => {
    const res = await json(stack.main.url, "GET", `/api/v1/organizations/${org}/spend/import-sessions/${name}`, stack.owner.headers);
    if (res.status === 404) return undefined;
    if (res.status !== 200) throw new Error(`session ${name} answered ${res.status}`);
    return (res.body as { data: { session: { id: string; state: string; received_parts: unknown[] } } }).data.session;
  };
  const load = mainApiLoad(stack);
  try {
    const part = billPart("ff-acct", PART_ROWS, "0.01");
    // Calibration: a whole session of three parts, timed, so the kill can land in the last part's commit.
    const calibrate = "ff-calibrate";
    for (const n of [1, 2]) {
      const res = await upload(`session=${calibrate}&part=${n}&parts=3`, part);
      if (res.status !== 201) throw new Error(`calibration part ${n} answered ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`);
    }
    let t0 = Date.now();
    const last = await upload(`session=${calibrate}&part=3&parts=3`, part);
    const commitMs = Date.now() - t0;
    if (last.status !== 201) throw new Error(`calibration part 3 answered ${last.status}`);
    const afterCalibration = await octoberSpend();
    console.log(`  the last part of a ${3 * PART_ROWS}-line session answered in ${commitMs} ms; October spend ${afterCalibration}`);

    // The killed commit: parts 1 and 2 acknowledged, the main API killed late in part 3's request.
    // Its lines cost 0.02: once committed they replace the calibration session's (same account and
    // period), so October holds either the one session's total or the other's, never anything else.
    const name = "ff-killed";
    const killedPart = billPart("ff-acct", PART_ROWS, "0.02");
    for (const n of [1, 2]) {
      const res = await upload(`session=${name}&part=${n}&parts=3`, killedPart);
      if (res.status !== 201) throw new Error(`part ${n} answered ${res.status}`);
    }
    const killedAt = Math.round(commitMs * 0.8);
    const killed = await killDuring(stack, () => upload(`session=${name}&part=3&parts=3`, killedPart), killedAt);
    const afterKill = await sessionOf(name);
    const spendAfterKill = await octoberSpend();
    const calibrated = 3 * PART_ROWS * 0.01;
    const whole = 3 * PART_ROWS * 0.02;
    const near = (a: number, b: number) => Math.abs(a - b) < 1e-6;
    const consistent =
      (afterKill?.state === "completed" && near(spendAfterKill, whole)) || (afterKill?.state === "pending" && near(spendAfterKill, calibrated));
    console.log(
      `  part 3 killed ${killedAt} ms in: the client saw ${killed.status}; after the restart the session is ${afterKill?.state} with ${afterKill?.received_parts.length} parts, October spend ${spendAfterKill}`,
    );
    check(
      s,
      "no session half-committed after the kill (completed with every line, or pending with none counted)",
      consistent,
      `session ${afterKill?.state}, October spend ${spendAfterKill} (pending: the calibration session's ${calibrated}; completed: ${whole})`,
    );
    const retry = await untilAnswered(() => upload(`session=${name}&part=3&parts=3`, killedPart));
    const finalSession = await sessionOf(name);
    const finalSpend = await octoberSpend();
    check(
      s,
      "the client's retry of the same part completes the session, whose lines count once",
      (retry.status === 201 || (retry.status === 409 && afterKill?.state === "completed")) && finalSession?.state === "completed" && near(finalSpend, whole),
      `retry answered ${retry.attempts.join(",")}; session ${finalSession?.state} with ${finalSession?.received_parts.length} parts; October spend ${finalSpend} (expected ${whole})`,
    );

    // Usage: batches of fresh event_ids, one of them killed in flight, each retried until answered.
    const usageBatch = (k: number) => ({
      usage: Array.from({ length: USAGE_LINES }, (_, i) => ({
        event_id: `ff-${k}-${i}`,
        resource_id: `ff-usage-${k}`,
        kind: "model",
        timestamp: "2026-10-15T12:00:00Z",
        labels: {},
        quantities: { input: 1000 },
      })),
    });
    const sendUsage = (k: number) => json(stack.main.url, "POST", "/api/v1/tenant/spend/usage", stack.owner.headers, usageBatch(k), 60_000);
    t0 = Date.now();
    const first = await sendUsage(1);
    const usageMs = Date.now() - t0;
    if (first.status !== 200) throw new Error(`usage batch answered ${first.status}: ${JSON.stringify(first.body).slice(0, 300)}`);
    // Killed in flight: the kill comes earlier each time the batch was answered before it (k = 2, 3, ...).
    let k = 1;
    let killedUsage = { status: 200 };
    let retried: Awaited<ReturnType<typeof untilAnswered>> | undefined;
    const kills: string[] = [];
    for (const fraction of [0.5, 0.3, 0.15, 0.05]) {
      k += 1;
      const batch = k;
      const at = Math.round(usageMs * fraction);
      killedUsage = await killDuring(stack, () => sendUsage(batch), at);
      kills.push(`batch ${batch} killed ${at} ms in: ${killedUsage.status}`);
      // The client retries the same batch (the same event_ids) until it is answered.
      retried = await untilAnswered(() => sendUsage(batch));
      if (killedUsage.status === 0) break;
    }
    const batches = k;
    const accepted = (r: { body: unknown } | undefined) => (r?.body as { data?: { accepted: number; duplicates: number } } | undefined)?.data;
    console.log(
      `  usage batch of ${USAGE_LINES} answered in ${usageMs} ms; ${kills.join("; ")}; the last one's retry: ${retried?.attempts.join(",")} ${JSON.stringify(accepted(retried))}`,
    );
    const linesOf = async (k: number) => {
      let n = 0;
      let cursor: string | null = null;
      do {
        const res = await json(
          stack.main.url,
          "GET",
          `/api/v1/tenant/spend/lines?start=2026-10-15&end=2026-10-16&resource_id=ff-usage-${k}&limit=500${cursor ? `&cursor=${cursor}` : ""}`,
          stack.owner.headers,
        );
        if (res.status !== 200) throw new Error(`lines answered ${res.status}: ${JSON.stringify(res.body).slice(0, 200)}`);
        const page = (res.body as { data: { items: unknown[]; next_cursor: string | null } }).data;
        n += page.items.length;
        cursor = page.next_cursor;
      } while (cursor);
      return n;
    };
    const counts: number[] = [];
    for (let b = 1; b <= batches; b++) counts.push(await linesOf(b));
    const r = accepted(retried);
    check(s, "a usage batch was cut off by the kill (the client saw no answer)", killedUsage.status === 0, kills.join("; "));
    check(
      s,
      "every usage batch, the killed one too, is stored once after the client's retries (same event_ids)",
      retried?.status === 200 && counts.every((n) => n === USAGE_LINES) && r !== undefined && r.accepted + r.duplicates === USAGE_LINES,
      `lines per batch ${counts.join(", ")} (expected ${USAGE_LINES} each); the last retry accepted ${r?.accepted}, duplicates ${r?.duplicates}`,
    );
  } finally {
    await load.stop();
    console.log(`  main API load meanwhile, answers by status: ${JSON.stringify(load.statuses)}`);
  }
  // While it is down the load's connections are refused (status 0); whatever it answers is never a 500.
  check(
    s,
    "the load meanwhile saw no 500",
    Object.keys(load.statuses).every((c) => Number(c) < 500 || c === "503"),
    JSON.stringify(load.statuses),
  );
  // The load's own writes: the resource upserts of the ledger (none here) and every acknowledged one before.
  await writeResources(stack, s);
  await verifyLedger(stack, s);
}

// --------------------------------------------------------------------------------------------------

async function main() {
  const started = Date.now();
  const stack = await startStack();
  console.log(`services up on ${stack.databaseKind} in ${((Date.now() - started) / 1000).toFixed(1)} s; scenarios ${SELECTED.join(",")}`);
  const timings: Record<string, number> = {};
  try {
    await seedFleet(stack, FLEET);
    for (const [name, scenario] of [
      ["a", scenarioA],
      ["b", scenarioB],
      ["c", scenarioC],
      ["d", scenarioD],
      ["e", scenarioE],
      ["f", scenarioF],
    ] as const) {
      if (!SELECTED.includes(name)) continue;
      const t0 = Date.now();
      try {
        await scenario(stack);
      } catch (err) {
        check(name, "scenario ran to the end", false, (err as Error).stack ?? String(err));
      }
      timings[name] = Math.round((Date.now() - t0) / 100) / 10;
      // A scenario that left a service down must not take the next one with it.
      for (const service of [stack.pricing, stack.main]) if (!alive(service)) await service.start();
    }
  } finally {
    await stack.close();
  }
  const failed = checks.filter((c) => !c.pass);
  const result = {
    benchmark: "faults",
    database: stack.databaseKind,
    scenarios: SELECTED,
    seconds: timings,
    checks,
    passed: failed.length === 0,
    at: new Date().toISOString(),
  };
  writeResults(path.join(__dirname, "../results/faults.json"), result);
  console.log(
    `faults: ${checks.length - failed.length} passed, ${failed.length} failed (${Math.round((Date.now() - started) / 1000)} s, ${stack.databaseKind}; ${JSON.stringify(timings)})`,
  );
  if (failed.length) process.exitCode = 1;
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
