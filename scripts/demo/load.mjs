// Loads the demo organization through the services' public HTTP APIs with the client a customer
// installs (@cloudcost/client, built by `pnpm start` before this runs), or refreshes the credentials
// of one loaded before. Used by scripts/start.mjs.
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { createClient, isApiError } from "@cloudcost/client";
import { loadAlerts } from "./alerts.mjs";
import { loadDimensions } from "./dimensions.mjs";
import { batches, demoFleet, demoSamples, TENANTS } from "./fleet.mjs";
import { loadFocus } from "./focus.mjs";
import { loadHistory } from "./history.mjs";
import { loadFleetPods, loadKubernetes } from "./kubernetes.mjs";
import { loadBusinessMetrics } from "./metrics.mjs";
import { loadStatements } from "./statements.mjs";

const run = promisify(execFile);
export const DEMO_EMAIL = "demo-owner@example.com";
const PRICES = JSON.parse(fs.readFileSync(new URL("./prices.json", import.meta.url), "utf8"));

export class DemoError extends Error {}

const COMMITMENT_RATE = {
  provider: "aws",
  commitment_type: "savings_plan",
  term_months: 12,
  payment_option: "no_upfront",
  service_category: "Compute",
  discount_percent: 28,
};

/** The Savings Plan's figures over the last 30 days, as the commitments endpoints answer them. */
async function logCommitments(main, org, log) {
  const day = (ms) => new Date(ms).toISOString().slice(0, 10);
  const range = { start: day(Date.now() - 30 * 86_400_000), end: day(Date.now()) };
  const { totals } = await main.listCommitments({ params: { org_id: org }, query: range });
  const coverage = await main.getCommitmentCoverage({ params: { org_id: org }, query: { ...range, group_by: "service_name" } });
  const { items } = await main.getCommitmentRecommendations({ params: { org_id: org }, query: { lookback_days: "30" } });
  const buy = items[0] ? `; buy ${items[0].hourly_commitment} USD/h more to save ${items[0].monthly_savings} USD a month` : "";
  // Totals are per provider and currency (the demo bill is AWS's, in USD).
  const [plan] = totals;
  const [covered] = coverage.totals;
  log(
    `  Commitments: Savings Plan used at ${plan?.utilization_percent ?? "-"} % (net savings ${plan?.net_savings ?? "-"} USD), coverage ${covered?.coverage_percent ?? "-"} %${buy}`,
  );
}

/** An API failure in words, naming the operation (an ApiError carries its status, code and the service's message). */
export function failureText(err) {
  if (isApiError(err)) return `${err.operationId}: HTTP ${err.status} ${err.code}: ${err.message.slice(0, 300)}`;
  return err instanceof Error ? err.message : String(err);
}

/** A token of the development issuer for the demo owner (the CLI docs/operations.md documents). */
export async function devToken(root, env, email = DEMO_EMAIL) {
  const { stdout } = await run(process.execPath, [path.join(root, "apps/main-api/dist/cli/dev-token.js"), "--email", email], { cwd: root, env });
  return stdout.trim();
}

/** Resolves once the pricing API accepts `key` (the main API delivers new keys through its outbox). */
export async function waitForPricingKey(pricingUrl, key, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const accepted = await createClient({ pricingUrl, apiKey: key })
      .pricing.getAccount()
      .then(
        () => true,
        () => false,
      );
    if (accepted) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new DemoError(`the pricing API did not accept the demo API key within ${timeoutMs / 1000} s`);
}

async function loadTenant(main, tenant, spec, now, log) {
  const { resources, pending } = demoFleet(spec);
  const strip = (list) => list.map(({ profile, ...r }) => r);
  await main.upsertResources({ tenant, body: { resources: strip(resources) } });
  let samples = 0;
  for (const batch of batches(demoSamples(resources, now))) {
    await main.ingestMetrics({ tenant, body: { samples: batch } });
    samples += batch.length;
  }
  const analysis = await main.analyzeRecommendations({ tenant });
  // Registered after the analysis: pending until the next cycle (scheduled hourly, or analyze again).
  await main.upsertResources({ tenant, body: { resources: strip(pending) } });
  for (const batch of batches(demoSamples(pending, now, 13))) await main.ingestMetrics({ tenant, body: { samples: batch } });
  const all = [...resources, ...pending].map((r) => r.resource_id);
  await main.recordHeartbeats({ tenant, body: { resource_ids: all } });
  log(`  ${spec.name}: ${all.length} resources, ${samples} samples, analysis of ${analysis.analyzed_resources} resources in ${analysis.duration_ms} ms`);
  return { resources: all.length, samples };
}

async function loadPrices(pricing, now) {
  // Effective before the 60 days of demo usage (else that usage would be not_yet_effective).
  const effective_from = new Date((Math.floor(now / DAY_MS) - 90) * DAY_MS).toISOString();
  const entries = PRICES.models.flatMap(({ buckets, ...model }) =>
    Object.entries(buckets).map(([token_bucket, unit_price_per_mtok]) => ({ ...model, token_bucket, unit_price_per_mtok, effective_from })),
  );
  const models = await pricing.registerModels({ body: { entries } });
  const databases = await pricing.registerDatabases({ body: { entries: PRICES.databases } });
  const database = databases.entries[0];
  await pricing.putPin({ params: { kind: "database", resource_id: "orders-db" }, body: { pricing_id: database.id } });
  const model = models.entries.find((e) => e.model_id === PRICES.models[0].model_id && e.token_bucket === "input");
  const inputs = Object.fromEntries(models.entries.filter((e) => e.token_bucket === "input").map((e) => [e.model_id, e.id]));
  return { model_pricing_id: model.id, model_id: model.model_id, database_pricing_id: database.id, pinned_resource: "orders-db", inputs };
}

const DAY_MS = 86_400_000;

/**
 * 60 days of model usage per tenant through the main API, priced at ingestion with the models'
 * prices; every fifth day gpt-4o-mini also reports reasoning tokens, which have no price: those
 * lines stay unpriced (bucket_not_priced) until a reasoning price is registered and reprice runs.
 */
async function loadUsage(main, tenantId, scale, inputs, labelPrefix, now) {
  const today = Math.floor(now / DAY_MS) * DAY_MS;
  const usage = [];
  for (let day = 60; day >= 1; day--) {
    PRICES.models.forEach((model, m) => {
      const timestamp = new Date(today - day * DAY_MS + (9 + m) * 3_600_000).toISOString();
      const wave = 1 + 0.3 * Math.sin(day / 4 + m);
      const quantities = { input: Math.round(scale * wave * 2_000_000), output: Math.round(scale * wave * 150_000) };
      const reasoning = model.model_id === "gpt-4o-mini" && day % 5 === 0;
      if (reasoning) quantities.reasoning = Math.round(scale * 50_000);
      usage.push({
        resource_id: model.model_id,
        kind: "model",
        timestamp,
        labels: { [`${labelPrefix}/pricing-id.model`]: inputs[model.model_id], team: m === 0 ? "support" : "product" },
        quantities,
        event_id: `demo-${model.model_id}-${timestamp}`,
      });
    });
  }
  return main.ingestUsage({ tenant: tenantId, body: { usage } });
}

/**
 * Creates the demo organization (owner DEMO_EMAIL), its two tenants, fleet, utilization, analysis,
 * API key and custom prices. Returns what the marker file records.
 */
export async function loadDemo({ root, env, mainUrl, pricingUrl, log, labelPrefix = "costs.example.com" }) {
  const token = await devToken(root, env);
  const { main } = createClient({ mainUrl, token });
  const signup = await main.completeSignup({ body: { company_name: "Demo Corp", first_name: "Dana", last_name: "Demo", job_title: "Head of Platform" } });
  const org = signup.organization.id;
  const production = await main.updateTenant({ params: { org_id: org, tenant_id: signup.default_tenant.id }, body: { name: TENANTS[0].name } });
  const staging = await main.createTenant({ params: { org_id: org }, body: { name: TENANTS[1].name } });
  const apiKey = await main.createApiKey({ body: { name: "demo (pnpm start)", role: "admin" } });
  const keyReady = waitForPricingKey(pricingUrl, apiKey.key);
  keyReady.catch(() => undefined);

  // The negotiated compute discount must be registered before the analysis that uses it.
  await keyReady;
  const { pricing } = createClient({ pricingUrl, apiKey: apiKey.key });
  await pricing.registerComputePrices({ body: { entries: PRICES.compute } });
  // What a 1-year no-upfront Compute Savings Plan would cost (the rate of the one the bill carries): the commitments page recommends from it.
  const [commitmentRate] = (await pricing.registerCommitmentRates({ body: { entries: [COMMITMENT_RATE] } })).entries;

  const now = Date.now();
  for (const [tenant, spec] of [
    [production, TENANTS[0]],
    [staging, TENANTS[1]],
  ])
    await loadTenant(main, tenant.id, spec, now, log);

  const { inputs, ...prices } = await loadPrices(pricing, now);
  for (const [tenant, scale] of [
    [production, 1],
    [staging, 0.2],
  ]) {
    const stored = await loadUsage(main, tenant.id, scale, inputs, labelPrefix, now);
    log(`  ${tenant.name}: ${stored.accepted} usage lines over 60 days (${stored.unpriced} unpriced until a reasoning price is registered)`);
  }
  await loadFocus({ main, org, tenants: { production: production.id, staging: staging.id }, now, log });
  await logCommitments(main, org, log);
  await loadDimensions({ main, org, now, log });
  // After the dimensions: the metric is labelled by the team dimension.
  await loadBusinessMetrics({ main, org, now, log });
  // After the dimensions and the bill: last month's statements by team and by tenant.
  await loadStatements({ main, org, now, log });
  // After the bill: the downsized VM's realized savings are measured on its lines.
  await loadHistory(main, production.id, now, log);
  await loadKubernetes(main, org, production.id, now, log);
  await loadFleetPods(main, production.id, TENANTS[0], now, log);
  await loadFleetPods(main, staging.id, TENANTS[1], now, log);
  // Last: the budget and the anomaly are computed from the spend loaded above.
  const alerts = await loadAlerts(main, production.id, log);
  return {
    organization_id: org,
    user_id: signup.owner.id,
    email: DEMO_EMAIL,
    tenants: { production: production.id, staging: staging.id },
    api_key: apiKey.key,
    api_key_id: apiKey.id,
    budget_id: alerts.budget_id,
    commitment_rate_id: commitmentRate.id,
    ...prices,
  };
}

/**
 * For a demo loaded before: a fresh token, and the recorded API key if it still works (else a new
 * one). null when the demo organization is gone (another database).
 */
export async function refreshDemo(marker, { root, env, mainUrl, pricingUrl }) {
  const token = await devToken(root, env);
  const { main } = createClient({ mainUrl, token });
  const me = await main.getMe().catch(() => null);
  if (me?.organization?.id !== marker.organization_id) return null;
  const works = await createClient({ pricingUrl, apiKey: marker.api_key })
    .pricing.getAccount()
    .then(
      () => true,
      () => false,
    );
  if (!works) {
    const apiKey = await main.createApiKey({ body: { name: "demo (pnpm start)", role: "admin" } });
    await waitForPricingKey(pricingUrl, apiKey.key);
    marker = { ...marker, api_key: apiKey.key, api_key_id: apiKey.id };
  }
  return { marker, token };
}

export function readMarker(file) {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8"));
  } catch {
    return null;
  }
}

export function writeMarker(file, marker) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(marker, null, 2)}\n`, { mode: 0o600 });
}

/** What `pnpm start` prints after the demo is ready: credentials and four requests to paste. */
export function demoInstructions({ marker, token, mainUrl, pricingUrl, labelPrefix }) {
  const t = marker.tenants.production;
  return `Demo organization "Demo Corp" (${marker.organization_id}), owner ${marker.email}:
  tenants      Production ${t}, Staging ${marker.tenants.staging}
  model price  ${marker.model_id} (${marker.model_pricing_id}); database price ${marker.database_pricing_id} pinned to ${marker.pinned_resource}

Credentials (paste into your shell; the token expires in 1 hour: pnpm --silent dev-token --email ${marker.email}):
export TOKEN='${token}'
export KEY='${marker.api_key}'

# 1. Right-sizing summary of the Production tenant (main API, bearer token)
curl -s "${mainUrl}/api/v1/tenant/compute/recommendations/summary" -H "Authorization: Bearer $TOKEN" -H "X-Service-Tenant-ID: ${t}"

# 1b. Its downsized VMs with reasons, ranked options and price provenance (the Windows, spot and
#     negotiated-price VMs are prod-vm-windows, prod-vm-spot and prod-vm-negotiated)
curl -s "${mainUrl}/api/v1/tenant/compute/recommendations?action=DOWNSIZE&provider=aws&region=us-east-1" -H "Authorization: Bearer $TOKEN" -H "X-Service-Tenant-ID: ${t}"

# 1c. Realized savings of the last 30 days: web-legacy-01 downsized on our advice 12 days ago
#     (measured on its bill lines), batch-idle-07 terminated and retired; reports-02's advice is
#     dismissed (state=dismissed in the list above: counted, but not in the potential savings)
curl -s "${mainUrl}/api/v1/tenant/compute/savings?start=$(date -u -d '30 days ago' +%F)" -H "Authorization: Bearer $TOKEN" -H "X-Service-Tenant-ID: ${t}"

# 2. Price 1.2M input + 20k output tokens of ${marker.model_id} (pricing API, the same organization's API key)
curl -s -X POST ${pricingUrl}/v1/pricing/usage -H "X-API-Key: $KEY" -H 'Content-Type: application/json' -d '{"usage":[{"resource_id":"chat-bot","kind":"model","timestamp":"'"$(date -u +%FT%TZ)"'","labels":{"${labelPrefix}/pricing-id.model":"${marker.model_pricing_id}"},"quantities":{"input":1200000,"output":20000}}]}'

# 3. The Production tenant's spend of the last 30 days by model (main API; usage priced at ingestion, unpriced lines counted apart)
curl -s "${mainUrl}/api/v1/tenant/spend?start=$(date -u -d '30 days ago' +%F)&end=$(date -u +%F)&granularity=none&group_by=model" -H "Authorization: Bearer $TOKEN" -H "X-Service-Tenant-ID: ${t}"

# 3b. The organization's spend of the last 60 days by tenant and service (the cloud bill imported as FOCUS 1.2; tenant null = unallocated)
curl -s "${mainUrl}/api/v1/organizations/${marker.organization_id}/spend?start=$(date -u -d '60 days ago' +%F)&end=$(date -u +%F)&granularity=none&group_by=tenant&group_by=service_name" -H "Authorization: Bearer $TOKEN"

# 3b'. The bill arrived as AWS delivers it: a manifest and two files, committed together as one import session;
#      its Savings Plan lines by charge frequency and the contracted (negotiated) cost beside the billed one
curl -s "${mainUrl}/api/v1/organizations/${marker.organization_id}/spend/import-sessions" -H "Authorization: Bearer $TOKEN"
curl -s "${mainUrl}/api/v1/tenant/spend?start=$(date -u -d '60 days ago' +%F)&end=$(date -u +%F)&granularity=none&group_by=charge_frequency&metric=contracted_cost" -H "Authorization: Bearer $TOKEN" -H "X-Service-Tenant-ID: ${t}"

# 3b''. The Production tenant's forecast for this month: spent + the recurring charges still to come + a weekday-aware usage run rate
curl -s "${mainUrl}/api/v1/tenant/spend/forecast" -H "Authorization: Bearer $TOKEN" -H "X-Service-Tenant-ID: ${t}"

# 3c. The Production budget (over its 80 % forecast threshold; the support fee on the 1st counted once) and the spend anomalies
#     (the two-day EC2 spike as one range, seen by the EC2 and the total monitors; the Sunday batch job is none)
curl -s "${mainUrl}/api/v1/tenant/budgets" -H "Authorization: Bearer $TOKEN" -H "X-Service-Tenant-ID: ${t}"
curl -s "${mainUrl}/api/v1/tenant/spend/anomalies?start=$(date -u -d '60 days ago' +%F)&end=$(date -u +%F)" -H "Authorization: Bearer $TOKEN" -H "X-Service-Tenant-ID: ${t}"

# 3d. Commitments of the last 30 days: the Compute Savings Plan's utilization (about 85 %), coverage of the eligible usage by service
#     (about 55 %: the spike, the weekly job and the downsized VM stay on demand), and how much more to commit to at the registered 1-year no-upfront rate (with the savings curve)
curl -s "${mainUrl}/api/v1/organizations/${marker.organization_id}/commitments?start=$(date -u -d '30 days ago' +%F)&end=$(date -u +%F)" -H "Authorization: Bearer $TOKEN"
curl -s "${mainUrl}/api/v1/organizations/${marker.organization_id}/commitments/coverage?start=$(date -u -d '30 days ago' +%F)&end=$(date -u +%F)&group_by=service_name" -H "Authorization: Bearer $TOKEN"
curl -s "${mainUrl}/api/v1/organizations/${marker.organization_id}/commitments/recommendations?lookback_days=30&include_curve=true" -H "Authorization: Bearer $TOKEN"
curl -s "${pricingUrl}/marketplace/providers/commitment-rates" -H "X-API-Key: $KEY"
# 3e. Kubernetes: the demo cluster's cost of the last 14 days by namespace (idle apart), then with idle shared, and its node pools
#     (general: six m5.2xlarge for about 10 requested cores)
curl -s "${mainUrl}/api/v1/tenant/kubernetes/allocation?start=$(date -u -d '13 days ago' +%F)&end=$(date -u -d tomorrow +%F)&aggregate=namespace" -H "Authorization: Bearer $TOKEN" -H "X-Service-Tenant-ID: ${t}"
curl -s "${mainUrl}/api/v1/tenant/kubernetes/allocation?start=$(date -u -d '13 days ago' +%F)&end=$(date -u -d tomorrow +%F)&aggregate=controller&share_idle=true" -H "Authorization: Bearer $TOKEN" -H "X-Service-Tenant-ID: ${t}"
curl -s "${mainUrl}/api/v1/tenant/kubernetes/node-pools/recommendations" -H "Authorization: Bearer $TOKEN" -H "X-Service-Tenant-ID: ${t}"

# 4. On-demand price of an m5.xlarge in us-east-1 from the compute catalog
curl -s -X POST ${pricingUrl}/v1/pricing/compute -H "X-API-Key: $KEY" -H 'Content-Type: application/json' -d '{"provider":"aws","region":"us-east-1","instance_type":"m5.xlarge"}'
`;
}

/**
 * The first-run step of `pnpm start`: load the demo when the main API's embedded database was
 * empty (or DEMO=1), reprint it when loaded before, skip it with DEMO=0 or a MAIN_API_DATABASE_URL.
 * Returns the text to print (never throws: the services keep running without the demo).
 */
export async function firstRun({ root, env, mainUrl, pricingUrl, freshMainDb, isStopping }) {
  const demo = env.DEMO;
  if (demo === "0") return "";
  if (env.MAIN_API_DATABASE_URL && demo !== "1") return "";
  const markerFile = path.join(root, ".data", "demo.json");
  const ctx = { root, env, mainUrl, pricingUrl };
  const labelPrefix = env.LABEL_PREFIX || "costs.example.com";
  try {
    const marker = readMarker(markerFile);
    if (marker) {
      const refreshed = await refreshDemo(marker, ctx);
      if (refreshed) {
        writeMarker(markerFile, refreshed.marker);
        return demoInstructions({ ...refreshed, mainUrl, pricingUrl, labelPrefix });
      }
    }
    if (!freshMainDb && demo !== "1") {
      return "The main API's database is not empty, so no demo organization was loaded (DEMO=1 pnpm start loads one).\n";
    }
    console.log("Loading the demo organization (two tenants, 315 resources, 14 days of hourly utilization, 60 days of spend)...\n");
    const started = Date.now();
    const lines = [];
    const loaded = await loadDemo({ ...ctx, labelPrefix, log: (line) => lines.push(line) });
    writeMarker(markerFile, loaded);
    const token = await devToken(root, env);
    return (
      `Demo loaded in ${((Date.now() - started) / 1000).toFixed(1)} s:\n${lines.join("\n")}\n\n` +
      demoInstructions({ marker: loaded, token, mainUrl, pricingUrl, labelPrefix })
    );
  } catch (err) {
    if (isStopping()) return "";
    return (
      `The demo organization could not be loaded (${failureText(err)}).\n` +
      "The services keep running. To start over with an empty database: stop, remove .data/, pnpm start.\n"
    );
  }
}
