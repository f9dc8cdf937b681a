// What one free account controls, each at its limit, against both services as real processes
// (bench/reliability/stack.ts), while /healthz is polled every 20 ms: each attack must get its
// documented answer within its bound, and every health answer must come within 200 ms.
//
//   pnpm --filter @cloudcost/bench --silent attacks      (PGlite; TEST_DATABASE_URL: PostgreSQL)
//
// recurring  a zero-length and a 1 ms Recurring bill line, then the forecast and a budget's status
// parquet    a Parquet file of 320,000 rows in one row group, one page per column
// dictionary a Parquet file whose one 60 KiB ResourceName is used by 20,000 rows (decoded 1.2 GB)
// tags       a bill of 100 lines with 5,000 tag keys each
// longline   a usage line charged from 2000 to 2030 (once spread over its 262,992 hours)
// rates      100 commitment rates, then the purchase recommendation over 90 days with the curve
// webhooks   3 webhooks whose receiver never answers, 10 pings each, beside another organization's
//            key revocation (refused by the pricing API within 10 s)
// anomalies  2,000 services, then anomaly detection over 93 days (and 94 days refused)
// sessions   20 open import sessions with manifests of almost 1 MiB (the 21st refused), then the list of 500
// ATTACKS=recurring,tags picks attacks. Writes bench/results/attacks.json.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { ByteWriter, parquetWrite } from "hyparquet-writer";
import { FOCUS_EXPORT_COLUMNS as FOCUS_COLUMNS } from "../../apps/main-api/src/spend/focus/writer";
import { json, sleep, startStack, type Stack } from "./stack";
import { writeResults } from "../measure";

const ALL = ["recurring", "parquet", "dictionary", "tags", "longline", "rates", "webhooks", "anomalies", "sessions"];
const SELECTED = (process.env.ATTACKS ?? ALL.join(",")).split(",").map((s) => s.trim());
const HEALTH_BOUND_MS = 200;
/** The decoded size bound the services run with here: the dictionary bomb decodes to 1.2 GB. */
const MAX_IMPORT_BYTES = 256 * 1024 * 1024;

interface Check {
  attack: string;
  name: string;
  pass: boolean;
  detail: string;
}
const checks: Check[] = [];
function check(attack: string, name: string, pass: boolean, detail = "") {
  checks.push({ attack, name, pass, detail });
  console.log(`${pass ? "PASS" : "FAIL"} [${attack}] ${name}${detail ? `: ${detail}` : ""}`);
}

/**
 * Runs `attack` while /healthz is polled from a separate process (health-watch.ts); checks every
 * health answer came within the bound.
 */
async function underWatch(stack: Stack, name: string, attack: () => Promise<void>) {
  const watcher = spawn(process.execPath, [...process.execArgv, path.join(__dirname, "health-watch.ts"), stack.main.url], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  let output = "";
  watcher.stdout.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise((resolve) => watcher.once("exit", resolve));
  for (const started = Date.now(); !output.startsWith("ready\n"); await sleep(20)) {
    if (Date.now() - started > 30_000) throw new Error("the health watcher never became ready");
  }
  try {
    await attack();
  } finally {
    watcher.stdin.end();
    await exited;
  }
  const { latencies, failures } = JSON.parse(output.slice("ready\n".length)) as { latencies: number[]; failures: string[] };
  const max = Math.max(...latencies);
  check(
    name,
    `/healthz answered within ${HEALTH_BOUND_MS} ms throughout (${latencies.length} answers)`,
    max < HEALTH_BOUND_MS && failures.length === 0,
    `max ${max.toFixed(1)} ms, non-200: ${failures.join(",") || "none"}`,
  );
}

/** A request with a time limit, timed; network failures and timeouts come back as status 0. */
async function timed(url: string, init: RequestInit, timeoutMs: number): Promise<{ status: number; text: string; ms: number }> {
  const t0 = performance.now();
  try {
    const res = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    const text = await res.text();
    return { status: res.status, text, ms: performance.now() - t0 };
  } catch (err) {
    return { status: 0, text: (err as Error).message, ms: performance.now() - t0 };
  }
}

const orgPath = (stack: Stack, rest: string) => `${stack.main.url}/api/v1/organizations/${stack.owner.organizationId}${rest}`;
const importBill = (stack: Stack, body: string | Uint8Array, contentType: string, timeoutMs: number, query = "") =>
  timed(orgPath(stack, `/spend/imports${query}`), { method: "POST", headers: { ...stack.owner.headers, "content-type": contentType }, body }, timeoutMs);

// --- Bills ------------------------------------------------------------------------------------------

// The columns of the service's own FOCUS export: the ones a bill here fills, the rest left empty.
type BillRow = Partial<Record<(typeof FOCUS_COLUMNS)[number], string>> & { cost: string; start: Date; end: Date };

const monthStart = (at: Date, add = 0) => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + add, 1));
const quote = (v: string) => (/[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);

function billCsv(rows: BillRow[]): string {
  const lines = rows.map(({ cost, start, end, ...rest }) => {
    const cells: Partial<Record<(typeof FOCUS_COLUMNS)[number], string>> = {
      BilledCost: cost,
      BillingAccountId: "attack-acct",
      BillingAccountName: "Attack",
      BillingCurrency: "USD",
      BillingPeriodStart: monthStart(start).toISOString(),
      BillingPeriodEnd: monthStart(start, 1).toISOString(),
      ChargeCategory: "Usage",
      ChargeFrequency: "Usage-Based",
      ChargePeriodStart: start.toISOString(),
      ChargePeriodEnd: end.toISOString(),
      ContractedCost: cost,
      EffectiveCost: cost,
      InvoiceIssuerName: "AWS",
      ListCost: cost,
      PricingCategory: "Standard",
      PricingQuantity: "1",
      PricingUnit: "Hours",
      ProviderName: "AWS",
      PublisherName: "AWS",
      ServiceCategory: "Compute",
      ServiceName: "Amazon Elastic Compute Cloud",
      ...rest,
    };
    return FOCUS_COLUMNS.map((c) => quote(cells[c] ?? "")).join(",");
  });
  return `${FOCUS_COLUMNS.join(",")}\n${lines.join("\n")}\n`;
}

const DAY = 86_400_000;
const today = () => new Date(Math.floor(Date.now() / DAY) * DAY);
/** `days` complete days of `cost` USD a day of EC2 usage, ending yesterday. */
const dailyUsage = (days: number, cost: string, extra: Partial<BillRow> = {}): BillRow[] =>
  Array.from({ length: days }, (_, i) => {
    const start = new Date(today().getTime() - (days - i) * DAY);
    return { cost, start, end: new Date(start.getTime() + DAY), ...extra };
  });

/** Every line of the organization to its default tenant (a rule without criteria matches them all). */
async function allocateAllToOwnerTenant(stack: Stack) {
  const res = await json(stack.main.url, "PUT", `/api/v1/organizations/${stack.owner.organizationId}/spend/allocation-rules`, stack.owner.headers, {
    rules: [{ tenant_id: stack.owner.tenantId }],
  });
  if (res.status !== 200) throw new Error(`allocation rules answered ${res.status}: ${JSON.stringify(res.body)}`);
}

/** A Parquet file of `rows` rows in one row group, every column one page (pageSize 0: no split). */
function parquetBill(rows: number, resourceName: (i: number) => string): Uint8Array {
  const start = today().getTime() - 2 * DAY;
  const str = (name: string, v: (i: number) => string) => ({
    name,
    data: Array.from({ length: rows }, (_, i) => v(i)),
    type: "STRING" as const,
  });
  const columnData = [
    str("BilledCost", () => "0.01"),
    str("BillingAccountId", () => "pq-attack"),
    str("BillingAccountName", () => "PQ"),
    str("BillingCurrency", () => "USD"),
    str("BillingPeriodStart", () => monthStart(new Date(start)).toISOString()),
    str("BillingPeriodEnd", () => monthStart(new Date(start), 1).toISOString()),
    str("ChargeCategory", () => "Usage"),
    str("ChargeClass", () => ""),
    str("ChargeDescription", () => ""),
    str("ChargePeriodStart", (i) => new Date(start + (i % 24) * 3_600_000).toISOString()),
    str("ChargePeriodEnd", (i) => new Date(start + ((i % 24) + 1) * 3_600_000).toISOString()),
    str("ContractedCost", () => "0.01"),
    str("EffectiveCost", () => "0.01"),
    str("InvoiceIssuerName", () => "AWS"),
    str("ListCost", () => "0.01"),
    str("PricingQuantity", () => "1"),
    str("PricingUnit", () => "Hours"),
    str("ProviderName", () => "AWS"),
    str("PublisherName", () => "AWS"),
    str("ResourceName", resourceName),
    str("ServiceCategory", () => "Compute"),
    str("ServiceName", () => "Amazon Elastic Compute Cloud"),
  ];
  const writer = new ByteWriter();
  parquetWrite({ writer, columnData, rowGroupSize: rows, pageSize: 0 });
  return new Uint8Array(writer.getBuffer());
}

// --- Attacks ----------------------------------------------------------------------------------------

async function recurring(stack: Stack) {
  const a = "recurring";
  const tomorrowNoon = new Date(today().getTime() + DAY + 12 * 3_600_000);
  const recurringLine = (ms: number, sku: string): BillRow => ({
    cost: "5",
    start: tomorrowNoon,
    end: new Date(tomorrowNoon.getTime() + ms),
    ChargeCategory: "Purchase",
    ChargeFrequency: "Recurring",
    ServiceName: "AWS Support",
    ServiceCategory: "Management and Governance",
    ResourceId: sku,
  });
  await allocateAllToOwnerTenant(stack);
  const bill = billCsv([...dailyUsage(10, "100"), recurringLine(0, "zero"), recurringLine(1, "one-ms")]);
  await underWatch(stack, a, () => recurringReads(stack, bill));
}

async function recurringReads(stack: Stack, bill: string) {
  const a = "recurring";
  const imported = await importBill(stack, bill, "text/csv", 60_000);
  check(a, "the bill with a zero-length and a 1 ms Recurring line imports", imported.status === 201, `${imported.status} ${imported.text.slice(0, 200)}`);
  const budget = await timed(
    `${stack.main.url}/api/v1/tenant/budgets`,
    {
      method: "POST",
      headers: { ...stack.owner.headers, "content-type": "application/json" },
      body: JSON.stringify({ name: "attack", period: "monthly", amount: "1000", currency: "USD", thresholds: [{ percent: 80, kind: "forecast" }] }),
    },
    20_000,
  );
  check(
    a,
    "a budget with a forecast threshold is created within 10 s",
    budget.status === 201 && budget.ms < 10_000,
    `${budget.status} in ${budget.ms.toFixed(0)} ms`,
  );
  const forecast = await timed(`${stack.main.url}/api/v1/tenant/spend/forecast`, { headers: stack.owner.headers }, 20_000);
  check(a, "the forecast answers within 10 s", forecast.status === 200 && forecast.ms < 10_000, `${forecast.status} in ${forecast.ms.toFixed(0)} ms`);
  const budgets = await timed(`${stack.main.url}/api/v1/tenant/budgets`, { headers: stack.owner.headers }, 20_000);
  check(a, "the budgets' status answers within 10 s", budgets.status === 200 && budgets.ms < 10_000, `${budgets.status} in ${budgets.ms.toFixed(0)} ms`);
}

async function parquet(stack: Stack) {
  const a = "parquet";
  const file = parquetBill(320_000, () => "vm");
  let res = { status: 0, text: "", ms: 0 };
  await underWatch(stack, a, async () => {
    res = await importBill(stack, file, "application/vnd.apache.parquet", 120_000);
  });
  console.log(`  ${file.byteLength} bytes, answered ${res.status} in ${res.ms.toFixed(0)} ms`);
  check(a, "a 320,000-row one-row-group Parquet file is imported", res.status === 201, `${res.status} in ${res.ms.toFixed(0)} ms ${res.text.slice(0, 200)}`);
}

async function dictionary(stack: Stack) {
  const a = "dictionary";
  const name = "x".repeat(60 * 1024);
  const file = parquetBill(20_000, () => name);
  let res = { status: 0, text: "", ms: 0 };
  await underWatch(stack, a, async () => {
    res = await importBill(stack, file, "application/vnd.apache.parquet", 120_000);
  });
  console.log(`  ${file.byteLength} bytes (decoded about ${Math.round((20_000 * name.length) / 1e6)} MB), answered ${res.status} in ${res.ms.toFixed(0)} ms`);
  check(a, "a dictionary bomb is a 413 (decoded bytes count at every use)", res.status === 413, `${res.status} ${res.text.slice(0, 200)}`);
}

async function tags(stack: Stack) {
  const a = "tags";
  const tagsOf = JSON.stringify(Object.fromEntries(Array.from({ length: 5000 }, (_, k) => [`k${k}`, "v"])));
  const bill = billCsv(dailyUsage(100, "1", { Tags: tagsOf }));
  let res = { status: 0, text: "", ms: 0 };
  await underWatch(stack, a, async () => {
    res = await importBill(stack, bill, "text/csv", 60_000);
  });
  check(
    a,
    "a line with 5,000 tag keys is a 400 naming row and column",
    res.status === 400 && /Row 1, column Tags/.test(res.text),
    `${res.status} ${res.text.slice(0, 200)}`,
  );
}

async function longline(stack: Stack) {
  const a = "longline";
  const bill = billCsv([{ cost: "100", start: new Date("2000-01-01T00:00:00Z"), end: new Date("2030-01-01T00:00:00Z") }]);
  let res = { status: 0, text: "", ms: 0 };
  await underWatch(stack, a, async () => {
    res = await importBill(stack, bill, "text/csv", 60_000);
  });
  check(a, "a usage line over 30 years imports within 5 s", res.status === 201 && res.ms < 5_000, `${res.status} in ${res.ms.toFixed(0)} ms`);
}

async function rates(stack: Stack) {
  const a = "rates";
  await allocateAllToOwnerTenant(stack);
  const usage = Array.from({ length: 90 * 24 }, (_, h) => {
    const start = new Date(today().getTime() - (90 * 24 - h) * 3_600_000);
    return { cost: String(2 + (h % 7)), start, end: new Date(start.getTime() + 3_600_000), ResourceId: `i-${h % 5}` };
  });
  const imported = await importBill(stack, billCsv(usage), "text/csv", 60_000);
  if (imported.status !== 201) throw new Error(`usage import answered ${imported.status}: ${imported.text.slice(0, 200)}`);
  const key = await json(
    stack.main.url,
    "POST",
    "/api/v1/settings/api-keys",
    { authorization: stack.owner.headers.authorization },
    { name: "rates", role: "admin" },
  );
  const apiKey = (key.body as { data: { key: string } }).data.key;
  const entries = (from: number, count: number) =>
    Array.from({ length: count }, (_, i) => ({
      provider: "AWS",
      commitment_type: "savings_plan",
      term_months: 12,
      payment_option: "no_upfront",
      region: `r-${from + i}`,
      discount_percent: 10 + ((from + i) % 50),
    }));
  // The key reaches the pricing API through the outbox: the first registration waits for it.
  let first = { status: 0, body: undefined as unknown };
  for (const started = Date.now(); Date.now() - started < 20_000; await sleep(100)) {
    first = await json(stack.pricing.url, "POST", "/marketplace/providers/commitment-rates", { "x-api-key": apiKey }, { entries: entries(0, 100) });
    if (first.status !== 401) break;
  }
  check(a, "100 rates register", first.status === 201, `${first.status}`);
  const extra = await json(stack.pricing.url, "POST", "/marketplace/providers/commitment-rates", { "x-api-key": apiKey }, { entries: entries(100, 1) });
  check(a, "the 101st active rate is a 409 limit_reached", extra.status === 409, `${extra.status} ${JSON.stringify(extra.body).slice(0, 200)}`);
  await underWatch(stack, a, async () => {
    const res = await timed(
      orgPath(stack, "/commitments/recommendations?lookback_days=90&include_curve=true"),
      { headers: { authorization: stack.owner.headers.authorization } },
      60_000,
    );
    const items = res.status === 200 ? (JSON.parse(res.text) as { data: { items: unknown[] } }).data.items.length : 0;
    check(
      a,
      "the recommendation over 100 rates, 90 days, with the curve answers within 2 s",
      res.status === 200 && items === 100 && res.ms < 2_000,
      `${res.status}, ${items} items in ${res.ms.toFixed(0)} ms`,
    );
  });
}

/** A receiver that accepts connections and never answers. */
async function tarpit(): Promise<{ url: string; close(): void }> {
  const held: http.ServerResponse[] = [];
  const server = http.createServer((_req, res) => held.push(res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    close() {
      for (const res of held) res.destroy();
      server.closeAllConnections();
      server.close();
    },
  };
}

async function webhooks(stack: Stack, other: Stack["owner"]) {
  const a = "webhooks";
  const receiver = await tarpit();
  try {
    for (let w = 0; w < 3; w++) {
      const created = await json(stack.main.url, "POST", `/api/v1/organizations/${stack.owner.organizationId}/webhooks`, stack.owner.headers, {
        url: receiver.url,
        events: ["import.completed"],
      });
      if (created.status !== 201) throw new Error(`webhook answered ${created.status}: ${JSON.stringify(created.body)}`);
      const id = (created.body as { data: { id: string } }).data.id;
      for (let p = 0; p < 10; p++)
        await json(stack.main.url, "POST", `/api/v1/organizations/${stack.owner.organizationId}/webhooks/${id}/test`, stack.owner.headers, {});
    }
    // Another organization's admin key, accepted by the pricing API, then revoked.
    const key = await json(
      stack.main.url,
      "POST",
      "/api/v1/settings/api-keys",
      { authorization: other.headers.authorization },
      { name: "victim", role: "admin" },
    );
    const { id: keyId, key: apiKey } = (key.body as { data: { id: string; key: string } }).data;
    const account = () => json(stack.pricing.url, "GET", "/v1/pricing/account", { "x-api-key": apiKey }, undefined, 5_000);
    for (const started = Date.now(); (await account()).status !== 200; await sleep(100)) {
      if (Date.now() - started > 30_000) throw new Error("the pricing API never accepted the new key");
    }
    await underWatch(stack, a, async () => {
      const revoked = await json(stack.main.url, "DELETE", `/api/v1/settings/api-keys/${keyId}`, { authorization: other.headers.authorization });
      if (revoked.status !== 200) throw new Error(`revocation answered ${revoked.status}`);
      const t0 = performance.now();
      let status = 200;
      while (status === 200 && performance.now() - t0 < 15_000) {
        status = (await account()).status;
        if (status === 200) await sleep(50);
      }
      const ms = performance.now() - t0;
      check(
        a,
        "another organization's revoked key is refused by the pricing API within 10 s",
        status === 401 && ms < 10_000,
        `${status} after ${ms.toFixed(0)} ms`,
      );
    });
  } finally {
    receiver.close();
  }
}

async function anomalies(stack: Stack) {
  const a = "anomalies";
  await allocateAllToOwnerTenant(stack);
  const rows = Array.from({ length: 2000 }, (_, s) => dailyUsage(3, String(1 + (s % 13)), { ServiceName: `svc-${s}` })).flat();
  const imported = await importBill(stack, billCsv(rows), "text/csv", 60_000);
  if (imported.status !== 201) throw new Error(`services import answered ${imported.status}: ${imported.text.slice(0, 200)}`);
  const detect = (days: number) =>
    timed(
      `${stack.main.url}/api/v1/tenant/spend/anomalies/detect`,
      { method: "POST", headers: { ...stack.owner.headers, "content-type": "application/json" }, body: JSON.stringify({ days }) },
      60_000,
    );
  const tooLong = await detect(94);
  check(a, "detection over 94 days is a 400", tooLong.status === 400, `${tooLong.status} ${tooLong.text.slice(0, 160)}`);
  await underWatch(stack, a, async () => {
    const res = await detect(93);
    check(
      a,
      "detection over 93 days and 2,000 services answers within 10 s",
      res.status === 200 && res.ms < 10_000,
      `${res.status} in ${res.ms.toFixed(0)} ms`,
    );
  });
}

async function sessions(stack: Stack) {
  const a = "sessions";
  const manifest = JSON.stringify({ executionId: "x", dataFiles: Array.from({ length: 8000 }, (_, i) => `s3://bucket/${"p".repeat(90)}/export-${i}.csv.gz`) });
  const statuses: number[] = [];
  for (let s = 0; s < 21; s++) {
    const res = await importBill(stack, manifest, "application/json", 30_000, `?session=attack-${s}`);
    statuses.push(res.status);
  }
  check(
    a,
    "20 open sessions with manifests of almost 1 MiB are taken, the 21st is a 409",
    statuses.slice(0, 20).every((s) => s === 201) && statuses[20] === 409,
    statuses.join(","),
  );
  await underWatch(stack, a, async () => {
    const res = await timed(orgPath(stack, "/spend/import-sessions?limit=500"), { headers: stack.owner.headers }, 30_000);
    check(
      a,
      "the sessions list answers without manifests (under 100 KB)",
      res.status === 200 && res.text.length < 100_000,
      `${res.status}, ${res.text.length} bytes in ${res.ms.toFixed(0)} ms`,
    );
  });
}

// --------------------------------------------------------------------------------------------------

async function signUpAnother(stack: Stack): Promise<Stack["owner"]> {
  const { execFileSync } = await import("node:child_process");
  const email = `other-${randomBytes(4).toString("hex")}@bench.test`;
  const token = execFileSync(process.execPath, [path.join(__dirname, "../../apps/main-api/dist/cli/dev-token.js"), "--email", email, "--ttl", "7200"], {
    env: { PATH: process.env.PATH, ...stack.main.env },
  })
    .toString()
    .trim();
  const res = await json(
    stack.main.url,
    "POST",
    "/api/v1/signup/complete",
    { authorization: `Bearer ${token}` },
    { company_name: "Other Corp", first_name: "O", last_name: "Ther" },
  );
  if (res.status !== 201) throw new Error(`second sign-up answered ${res.status}`);
  const data = (res.body as { data: { default_tenant: { id: string }; organization: { id: string } } }).data;
  return {
    headers: { authorization: `Bearer ${token}`, "x-service-tenant-id": data.default_tenant.id },
    tenantId: data.default_tenant.id,
    organizationId: data.organization.id,
  };
}

async function main() {
  const started = Date.now();
  const timings: Record<string, number> = {};
  let databaseKind = "";
  for (const name of ALL.filter((n) => SELECTED.includes(n))) {
    // Each attack on fresh services: one attack's data never slows the next.
    const stack = await startStack({ main: { WEBHOOK_ALLOW_INSECURE: "1", OUTBOX_POLL_MS: "200", SPEND_IMPORT_MAX_BYTES: String(MAX_IMPORT_BYTES) } });
    databaseKind = stack.databaseKind;
    const t0 = Date.now();
    try {
      if (name === "webhooks") {
        const other = await signUpAnother(stack);
        await webhooks(stack, other);
      } else {
        // Each attack prepares its input first and watches /healthz while its requests run.
        await { recurring, parquet, dictionary, tags, longline, rates, anomalies, sessions }[name as "recurring"](stack);
      }
    } catch (err) {
      check(name, "attack ran to the end", false, (err as Error).stack ?? String(err));
    } finally {
      timings[name] = Math.round((Date.now() - t0) / 100) / 10;
      // A service an attack hung ignores SIGTERM: it is killed rather than waited for.
      const killer = setTimeout(() => {
        for (const service of [stack.main, stack.pricing]) service.process?.kill("SIGKILL");
      }, 20_000);
      await stack.close();
      clearTimeout(killer);
    }
  }
  const failed = checks.filter((c) => !c.pass);
  const result = {
    benchmark: "attacks",
    database: databaseKind,
    attacks: SELECTED,
    seconds: timings,
    checks,
    passed: failed.length === 0,
    at: new Date().toISOString(),
  };
  writeResults(path.join(__dirname, "../results/attacks.json"), result);
  console.log(
    `attacks: ${checks.length - failed.length} passed, ${failed.length} failed (${Math.round((Date.now() - started) / 1000)} s, ${databaseKind}; ${JSON.stringify(timings)})`,
  );
  if (failed.length) process.exitCode = 1;
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
