/**
 * FOCUS import benchmark (not a test): BENCH_FOCUS_ROWS (100,000) rows of an AWS-style FOCUS 1.0
 * CSV posted to POST /api/v1/organizations/{org_id}/spend/imports (parse, allocate, store with the
 * daily roll-up, in one transaction), then the same file again (supersede: the first import's
 * lines deleted from lines and roll-up). Baseline, in the same run: PostgreSQL `COPY` of the same
 * file into a bare table with the same typed columns.
 *
 *   BENCH_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres pnpm --filter @cloudcost/bench exec tsx focus-import.ts
 *
 * Writes bench/results/focus-import.json; without BENCH_DATABASE_URL it says so and exits 0.
 */
import fs from "node:fs";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { Client } from "pg";
import pino from "pino";
import { openMigratedDatabase } from "@cloudcost/db";
import { createApp } from "../apps/main-api/src/app";
import { buildDeps } from "../apps/main-api/src/compose";
import { loadConfig } from "../apps/main-api/src/config";
import { MIGRATIONS_DIR, SESSION_SETTINGS } from "../apps/main-api/src/db";
import { REQUIRED_COLUMNS } from "../apps/main-api/src/spend/focus/columns";
import { benchCredentials } from "./bench-identity";
import { runBenchmark, writeResults } from "./measure";

const ROWS = Number(process.env.BENCH_FOCUS_ROWS ?? 100_000);
const SERVER_URL = process.env.BENCH_DATABASE_URL;

// The columns FOCUS 1.2 requires (as the import checks them), then the optional ones the rows fill.
const COLUMNS = [
  ...REQUIRED_COLUMNS["1.2"],
  "ConsumedQuantity",
  "ConsumedUnit",
  "RegionId",
  "ResourceId",
  "SkuId",
  "SubAccountId",
  "Tags",
  "ChargeFrequency",
  "PricingCategory",
  "ContractedUnitPrice",
  "ListUnitPrice",
  "ResourceType",
  "CommitmentDiscountId",
  "CommitmentDiscountCategory",
  "CommitmentDiscountType",
  "CommitmentDiscountStatus",
  "CommitmentDiscountQuantity",
  "CommitmentDiscountUnit",
  "SkuMeter",
];
const SQL_TYPES: Record<string, string> = { Tags: "jsonb" };
for (const c of [
  "BilledCost",
  "ContractedCost",
  "EffectiveCost",
  "ListCost",
  "PricingQuantity",
  "ConsumedQuantity",
  "ContractedUnitPrice",
  "ListUnitPrice",
  "CommitmentDiscountQuantity",
])
  SQL_TYPES[c] = "numeric";
for (const c of ["BillingPeriodEnd", "BillingPeriodStart", "ChargePeriodEnd", "ChargePeriodStart"]) SQL_TYPES[c] = "timestamptz";

function csv(rows: number): string {
  const lines = [COLUMNS.join(",")];
  const services = Array.from({ length: 30 }, (_, i) => `Service ${i}`);
  for (let i = 0; i < rows; i++) {
    const hour = i % 720;
    const start = new Date(Date.UTC(2026, 9, 1) + hour * 3_600_000).toISOString().replace(".000Z", "Z");
    const end = new Date(Date.UTC(2026, 9, 1) + (hour + 1) * 3_600_000).toISOString().replace(".000Z", "Z");
    const cost = `0.${String((i * 7919) % 10_000_000_000).padStart(10, "0")}`;
    const tags = `"{""team"":""t${i % 7}"",""env"":""prod""}"`;
    const values = [
      cost,
      "111111111111",
      "payer",
      "USD",
      "2026-11-01T00:00:00Z",
      "2026-10-01T00:00:00Z",
      "Usage",
      "NULL",
      "NULL",
      end,
      start,
      cost,
      cost,
      "AWS",
      cost,
      "1",
      "Hours",
      "AWS",
      "AWS",
      "Compute",
      services[i % 30],
      "1",
      "Hours",
      "us-east-1",
      `arn:aws:ec2:us-east-1:1:instance/i-${i % 5000}`,
      "SKU",
      `sub-${i % 10}`,
      tags,
      "Usage-Based",
      // Every third hour is covered by a Savings Plan, as a bill with commitments has it.
      i % 3 === 0 ? "Committed" : "Standard",
      cost,
      cost,
      "Virtual Machine",
      i % 3 === 0 ? "arn:aws:savingsplans::111111111111:savingsplan/sp-1" : "NULL",
      i % 3 === 0 ? "Spend" : "NULL",
      i % 3 === 0 ? "Compute Savings Plan" : "NULL",
      i % 3 === 0 ? "Used" : "NULL",
      i % 3 === 0 ? cost : "NULL",
      i % 3 === 0 ? "USD" : "NULL",
      "BoxUsage",
    ];
    lines.push(values.join(","));
  }
  return `${lines.join("\n")}\n`;
}

/** Five dimensions as a customer writes them: by account, by tag (with a split), by service, by region, and one reading another. */
function benchDimensions(): { key: string; body: unknown }[] {
  const byAccount = Array.from({ length: 20 }, (_, i) => ({ value: `cc-${i % 5}`, match: { field: "sub_account_id", op: "eq", value: `sub-${i}` } }));
  return [
    { key: "cost_center", body: { name: "Cost center", rules: byAccount, default_value: "cc-shared" } },
    {
      key: "team",
      body: {
        name: "Team",
        rules: [
          { value: "platform", match: { field: "tag:team", op: "eq", value: "t1" } },
          { value_from: "tag:team", match: { field: "tag:team", op: "present" } },
        ],
        splits: [{ source: "platform", targets: "*", method: "proportional" }],
      },
    },
    {
      key: "product",
      body: { name: "Product", rules: [{ value: "compute", match: { field: "service_name", op: "prefix", value: "Amazon EC" } }], default_value: "other" },
    },
    { key: "geo", body: { name: "Geography", rules: [{ value: "us", match: { field: "region", op: "regex", value: "^us-" } }], default_value: "rest" } },
    {
      key: "owner",
      body: {
        name: "Owner",
        rules: [
          {
            value: "finance",
            match: {
              all: [
                { field: "dimension:cost_center", op: "eq", value: "cc-0" },
                { field: "dimension:geo", op: "eq", value: "us" },
              ],
            },
          },
        ],
        default_value: "engineering",
      },
    },
  ];
}

async function main() {
  if (!SERVER_URL) {
    console.log("focus-import: skipped, BENCH_DATABASE_URL (PostgreSQL) is not set");
    return;
  }
  const name = `cloudcost_bench_focus_${Date.now().toString(36)}`;
  const admin = new Client({ connectionString: SERVER_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;
  const logger = pino({ level: "warn" });
  const db = await openMigratedDatabase({
    url: url.toString(),
    dataDir: "",
    migrationsDir: MIGRATIONS_DIR,
    logger,
    poolSize: 10,
    sessionSettings: SESSION_SETTINGS,
  });
  const file = path.join(os.tmpdir(), `${name}.csv`);
  try {
    const body = csv(ROWS);
    // Encoded once, outside the timings: the client's own UTF-8 encoding of 30 MB is not the import's work.
    const encoded = Buffer.from(body);
    fs.writeFileSync(file, body);
    fs.chmodSync(file, 0o644);
    const config = loadConfig({ LOG_LEVEL: "silent", ANALYSIS_INTERVAL_MINUTES: "0", RATE_LIMIT_PER_IP: "0", RATE_LIMIT_PER_CREDENTIAL: "0" });
    const deps = buildDeps({ config, db, logger: pino({ level: "silent" }) });
    const app = createApp(deps);
    const { headers, organizationId, tenantId } = await benchCredentials({ app, config });
    const server = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1/organizations/${organizationId}/spend`;
    const rules = await fetch(`${base}/allocation-rules`, {
      method: "PUT",
      headers: { ...headers, "content-type": "application/json" },
      body: JSON.stringify({
        rules: [
          { tenant_id: tenantId, sub_account_ids: ["sub-1", "sub-2", "sub-3"] },
          { tenant_id: tenantId, tag: { key: "team", values: ["t1"] } },
        ],
      }),
    });
    if (rules.status !== 200) throw new Error(`rules: ${rules.status}`);
    const post = async () => {
      const t0 = performance.now();
      const res = await fetch(`${base}/imports`, { method: "POST", headers: { ...headers, "content-type": "text/csv" }, body: encoded });
      const json = (await res.json()) as { data?: { import: { rows: number; superseded_import_ids: string[] } } };
      if (res.status !== 201) throw new Error(`import: ${res.status} ${JSON.stringify(json)}`);
      return { ms: Math.round(performance.now() - t0), rows: json.data?.import.rows, superseded: json.data?.import.superseded_import_ids.length };
    };
    // The load before the timed imports (the figure's context; afterwards it holds the imports' own work).
    const loadAtStart = os.loadavg().map((l) => Math.round(l * 10) / 10);
    const first = await post();
    const second = await post();
    // Five dimensions of the organization (rules over the fields the file fills, a tag, another
    // dimension; splits), applied; then the same file a third time: the lines it adds and the ones
    // it supersedes go through the dimension roll-up too.
    for (const dimension of benchDimensions()) {
      const res = await fetch(`${base.replace(/\/spend$/, "")}/dimensions/${dimension.key}`, {
        method: "PUT",
        headers: { ...headers, "content-type": "application/json" },
        body: JSON.stringify(dimension.body),
      });
      if (res.status !== 200) throw new Error(`dimension ${dimension.key}: ${res.status} ${await res.text()}`);
    }
    await deps.dimensionApply.runNow();
    // Its imports deleted (not timed): the next one is a first import again, then once more superseding it.
    const list = (await (await fetch(`${base}/imports?limit=100`, { headers })).json()) as { data: { items: { id: string }[] } };
    for (const item of list.data.items) {
      const res = await fetch(`${base}/imports/${item.id}`, { method: "DELETE", headers });
      if (res.status !== 204) throw new Error(`delete import: ${res.status}`);
    }
    // The deleted lines' dead rows vacuumed away (untimed), so the next import starts as the first one did.
    const vacuum = new Client({ connectionString: url.toString() });
    await vacuum.connect();
    await vacuum.query("VACUUM ANALYZE spend_lines, spend_daily, spend_service_daily, spend_tag_daily, spend_tag_service_daily");
    await vacuum.end();
    const third = await post();
    const fourth = await post();

    const bare = `CREATE TABLE bench_focus_bare (${COLUMNS.map((c) => `"${c}" ${SQL_TYPES[c] ?? "text"}`).join(", ")})`;
    const copyClient = new Client({ connectionString: url.toString() });
    await copyClient.connect();
    await copyClient.query(bare);
    const t0 = performance.now();
    await copyClient.query(`COPY bench_focus_bare FROM '${file}' WITH (FORMAT csv, HEADER true, NULL 'NULL')`);
    const copyMs = Math.round(performance.now() - t0);
    await copyClient.end();
    server.close();
    await deps.prisma.$disconnect?.();
    const result = {
      rows: ROWS,
      file_mb: Math.round(body.length / 1e5) / 10,
      import_ms: first.ms,
      reimport_superseding_ms: second.ms,
      import_with_5_dimensions_ms: third.ms,
      reimport_superseding_with_5_dimensions_ms: fourth.ms,
      copy_baseline_ms: copyMs,
      ratio_import_to_copy: Math.round((first.ms / copyMs) * 10) / 10,
      load_average_at_start: loadAtStart,
      load_average: os.loadavg().map((l) => Math.round(l * 10) / 10),
    };
    console.log(JSON.stringify(result, null, 2));
    writeResults(path.join(__dirname, "results", "focus-import.json"), result);
  } finally {
    fs.rmSync(file, { force: true });
    await db.close?.();
    await admin.query(`DROP DATABASE "${name}" WITH (FORCE)`).catch(() => undefined);
    await admin.end();
  }
}

runBenchmark(main);
