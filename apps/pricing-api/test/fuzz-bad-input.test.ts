// Bad input, property-based: every route of the pricing API answers every invalid request with a 4xx
// in its own error shape ({error} outside /v1, an RFC 9457 problem document on /v1), never a 5xx,
// and leaves the database exactly as it was.
// Cases per route: FUZZ_RUNS (default 40; `pnpm test:fuzz` runs 2000).
import type http from "node:http";
import fc from "fast-check";
import { MarketplaceError, pricingApiRoutes, ProblemDocument, type RouteDefinition } from "@cloudcost/contracts";
import { hashApiKey, signServiceToken } from "@cloudcost/credentials";
import { answerClientErrors, listRoutes } from "@cloudcost/http";
import pino from "pino";
import request from "supertest";
import { pricingClientErrorBody } from "../src/errors";
import { createTestContext, TEST_SERVICE_SECRET, type TestContext } from "./helpers/context";
import {
  caseFor,
  describeCase,
  expectEveryRouteCovered,
  fuzzSpecsFromRoutes,
  FUZZ_RUNS,
  FUZZ_SEED_OPTION,
  listen,
  routeKey,
  send,
  snapshotDatabase,
  STACK_OR_SQL,
  textOf,
  urlOf,
  type BuiltCase,
  type Credentials,
  operationKey,
  type RouteSpec,
} from "@cloudcost/testing";
import { createApiKey } from "./helpers/keys";
import { TOOLING_ROUTES } from "./helpers/undeclared";

let ctx: TestContext;
let server: http.Server;
let table: Record<string, RouteSpec>;
let apiKeyCredentials: Credentials;
let serviceCredentials: Credentials;

const SAFE = new Set(["GET", "HEAD", "OPTIONS"]);

const FRESH_SERVICE_TOKEN = "Bearer <a fresh service token for this request>";

/** The case with FRESH_SERVICE_TOKEN replaced by a token signed for its method and path. */
async function withServiceToken(c: BuiltCase): Promise<BuiltCase> {
  if (!c.headers.some(([, v]) => v === FRESH_SERVICE_TOKEN)) return c;
  const token = await signServiceToken(TEST_SERVICE_SECRET, { method: c.method, path: c.url.split("?")[0] });
  return { ...c, headers: c.headers.map(([k, v]) => [k, v === FRESH_SERVICE_TOKEN ? `Bearer ${token}` : v]) };
}

/** Every table but the ids of accepted service tokens (authentication records those by design). */
async function snapshot() {
  const { service_token_jtis: _jtis, ...rest } = await snapshotDatabase(ctx.db);
  return rest;
}

const ROUTES = [...Object.values(pricingApiRoutes).map(operationKey), ...TOOLING_ROUTES];
/** The operations behind a service token rather than an API key. */
const SERVICE_ROUTES = new Set(
  Object.values(pricingApiRoutes as Record<string, RouteDefinition>)
    .filter((route) => route.auth === "service")
    .map(operationKey),
);

beforeAll(async () => {
  ctx = await createTestContext();
  server = await listen(ctx.app);
  // What serve() installs: requests the HTTP parser refuses are answered in the API's own shape.
  answerClientErrors(server, { logger: pino({ level: "silent" }), body: pricingClientErrorBody });
  const key = await createApiKey(ctx, "acct_fuzz");
  const revoked = await createApiKey(ctx, "acct_fuzz");
  await ctx.apiKeys.revokeByHash(hashApiKey(revoked));
  const auth = { "X-API-Key": key };
  const model = {
    provider: "openai",
    model: "gpt-fuzz",
    token_bucket: "input",
    unit_price_per_mtok: 1.25,
    currency: "USD",
    tags: { team: "a" },
    raw_pricing_data: { sku: "x" },
  };
  const database = {
    provider: "aws",
    service: "rds",
    region: "us-east-1",
    engine: "postgres",
    instance_type: "db.m5.large",
    cost_per_hour: 0.171,
    cost_per_storage_gb_hour: 0.000158,
  };
  const models = await request(server)
    .post("/marketplace/providers/models")
    .set(auth)
    .send({ entries: [model, { ...model, model: "gpt-victim" }] });
  const databases = await request(server)
    .post("/marketplace/providers/databases")
    .set(auth)
    .send({ entries: [database, { ...database, engine: "mysql" }] });
  const computePrices = await request(server)
    .post("/marketplace/providers/compute")
    .set(auth)
    .send({
      entries: [
        { provider: "aws", instance_type: "m5.large", price_per_hour: 0.05 },
        { provider: "aws", family: "m5", discount_percent: 10 },
      ],
    });
  const commitmentRates = await request(server)
    .post("/marketplace/providers/commitment-rates")
    .set(auth)
    .send({
      entries: [
        { provider: "aws", commitment_type: "savings_plan", term_months: 12, payment_option: "no_upfront", discount_percent: 28 },
        { provider: "aws", commitment_type: "reserved_instance", term_months: 36, payment_option: "all_upfront", family: "m5", discount_percent: 55 },
      ],
    });
  expect([models.status, databases.status, computePrices.status, commitmentRates.status]).toEqual([201, 201, 201, 201]);
  const dbId = databases.body.entries[0].id as string;
  const pin = await request(server).put("/v1/pricing/pins/database/db-1").set(auth).send({ pricing_id: dbId });
  const line = {
    resource_id: "db-1",
    kind: "database",
    timestamp: new Date().toISOString(),
    labels: { "costs.example.com/pricing-id.database": dbId },
    quantities: { hours: 2, storage_gb_hours: 100 },
  };
  const report = await request(server)
    .post("/v1/pricing/reports")
    .set(auth)
    .send({ name: "fuzz report", usage: [line] });
  expect([pin.status, report.status]).toEqual([200, 201]);

  const garbageKey = fc.oneof(
    fc.constant({}),
    fc
      .constantFrom(`bl_${"A".repeat(42)}`, key.slice(0, -1) + (key.endsWith("a") ? "b" : "a"), revoked, `${key}x`, "bl_", "", " ", key.toLowerCase())
      .map((v) => ({ "X-API-Key": v })),
    fc.constantFrom("Bearer", "Bearer ", `Basic ${key}`, `Bearer ${revoked}`, `Bearer bl_${"9".repeat(42)}`).map((v) => ({ Authorization: v })),
    fc.stringMatching(/^[A-Za-z0-9]{42}$/).map((body) => ({ "X-API-Key": `bl_${body}` })),
    fc.string({ unit: "grapheme-ascii", maxLength: 200 }).map((v) => ({ "X-API-Key": v.replace(/[^\x20-\x7e]/g, "x") })),
  );
  apiKeyCredentials = { valid: [auth, { Authorization: `Bearer ${key}` }, { "x-api-key": key }], garbage: garbageKey };
  // Service tokens are good for one request, its method and path: `send` signs a fresh one where
  // FRESH_SERVICE_TOKEN stands. Garbage includes a token already used and one for another request.
  const hashPath = `/internal/api-keys/${hashApiKey(key)}`;
  const serviceToken = await signServiceToken(TEST_SERVICE_SECRET, { method: "DELETE", path: hashPath });
  const otherSecret = await signServiceToken(new TextEncoder().encode("another-secret-".repeat(4)), { method: "PUT", path: hashPath });
  const unknownHash = `/internal/api-keys/${"0".repeat(64)}`;
  const used = await signServiceToken(TEST_SERVICE_SECRET, { method: "DELETE", path: unknownHash });
  await request(ctx.app).delete(unknownHash).set("Authorization", `Bearer ${used}`).expect(404);
  serviceCredentials = {
    valid: [{ Authorization: FRESH_SERVICE_TOKEN }],
    garbage: fc.oneof(
      fc.constant({}),
      fc
        .constantFrom(`Bearer ${otherSecret}`, `Bearer ${serviceToken.slice(0, -3)}abc`, `Bearer ${key}`, "Bearer", `Basic ${serviceToken}`, `Bearer ${used}`)
        .map((v) => ({ Authorization: v })),
      fc.constant({ "X-API-Key": key }),
    ),
  };

  const publicGet: RouteSpec = { auth: "none" };
  const hash = hashApiKey(key);
  const usage = [line, { ...line, resource_id: "m-1", kind: "model", labels: {}, quantities: { input: 1000 } }];
  // Valid values per declared operation; schemas, auth and scope come from the route table.
  const declared = fuzzSpecsFromRoutes(pricingApiRoutes, {
    pricingHealthz: {},
    pricingReadyz: {},
    getAccount: {},
    priceCompute: {
      readOnly: true,
      body: {
        provider: "aws",
        region: "us-east-1",
        instance_type: "m5.large",
        vm: { cpu_cores: 2, ram_gb: 8 },
        operating_system: "linux",
        usage_type: "on_demand",
        service: "compute",
      },
    },
    priceComputeBatch: {
      readOnly: true,
      body: {
        items: [
          { provider: "aws", region: "us-east-1", instance_type: "m5.large" },
          { provider: "gcp", region: "x", vm: { cpu_cores: 1, ram_gb: 1 } },
        ],
      },
    },
    listInstanceTypes: { query: { provider: "aws", region: "us-east-1" } },
    registerModels: {
      body: {
        entries: [
          {
            ...model,
            unit_price_per_mtok: 2.5,
            modalities_input: ["text"],
            context_limit: 128000,
            open_weights: false,
            effective_from: new Date(Date.now() + 86_400_000).toISOString(),
          },
        ],
      },
    },
    listModels: {},
    closeModel: { query: { id: models.body.entries[1].id } },
    registerComputePrices: {
      body: {
        entries: [
          { provider: "aws", region: "us-east-1", instance_type: "c5.large", price_per_hour: 0.07, operating_system: "linux", usage_type: "on_demand" },
          { provider: "aws", region: "us-east-1", family: "r5", discount_percent: 12.5, currency: "USD", tags: { a: "b" } },
        ],
      },
    },
    listComputePrices: { query: { provider: "aws", family: "m5", include_closed: "true" } },
    registerCommitmentRates: {
      body: {
        entries: [
          {
            provider: "gcp",
            commitment_type: "committed_use",
            term_months: 36,
            payment_option: "no_upfront",
            service_category: "Compute",
            region: "us-central1",
            family: "n2",
            discount_percent: 46.5,
          },
        ],
      },
    },
    listCommitmentRates: { query: { provider: "aws", commitment_type: "savings_plan", payment_option: "no_upfront", include_closed: "true" } },
    closeCommitmentRate: { query: { id: commitmentRates.body.entries[1].id } },
    listCommitmentRatesForAccount: { params: { accountId: "acct_fuzz" }, freeParams: ["accountId"] },
    closeComputePrice: { query: { id: computePrices.body.entries[1].id } },
    registerDatabases: { body: { entries: [{ ...database, cost_per_hour: 0.2, min_iops: 100, max_iops: 1000, period_billing_hours: 730, tags: { a: "b" } }] } },
    listDatabases: {},
    deleteDatabase: { query: { id: databases.body.entries[1].id } },
    listPins: {},
    putPin: { params: { kind: "database", resource_id: "db-2" }, freeParams: ["kind", "resource_id"], body: { pricing_id: dbId } },
    deletePin: { params: { kind: "database", resource_id: "db-1" } },
    createReport: { body: { name: "another", usage } },
    getReport: { params: { id: report.body.id } },
    deleteReport: { params: { id: report.body.id } },
    priceUsage: { readOnly: true, body: { usage } },
    createAccountKey: { params: { accountId: "acct_fuzz" }, freeParams: ["accountId"], body: { name: "ops key" } },
    provisionApiKey: {
      params: { keyHash: "a".repeat(64) },
      freeParams: ["keyHash"],
      body: { account_id: "acct_fuzz", id: "key_fuzz", prefix: "bl_abcdef", name: "provisioned" },
    },
    revokeApiKeyByHash: { params: { keyHash: hash } },
    priceComputeBatchForAccount: {
      readOnly: true,
      params: { accountId: "acct_fuzz" },
      freeParams: ["accountId"],
      body: { items: [{ provider: "aws", region: "us-east-1", instance_type: "m5.large" }] },
    },
    listInstanceTypesForAccount: { params: { accountId: "acct_fuzz" }, freeParams: ["accountId"], query: { provider: "aws", region: "us-east-1" } },
    priceUsageForAccount: { readOnly: true, params: { accountId: "acct_fuzz" }, freeParams: ["accountId"], body: { usage } },
  });
  table = {
    ...declared,
    "GET /metrics": publicGet,
    "GET /openapi.json": publicGet,
    "GET /docs": publicGet,
    "GET /docs/assets/docs-init.js": publicGet,
  };
});

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await ctx?.close();
});

/** The pricing API's error shape for the request path: problem documents on /v1, {error} elsewhere. */
function checkAnswer(c: BuiltCase, res: request.Response): void {
  const text = textOf(res);
  const problems: string[] = [];
  if (res.status >= 500) problems.push("5xx");
  if (c.invalid && (res.status < 400 || res.status >= 500)) problems.push("invalid request not answered 4xx");
  if (res.status >= 400) {
    const v1 = c.url.startsWith("/v1/");
    const type = res.headers["content-type"] ?? "";
    if (!(v1 ? /^application\/problem\+json\b/ : /^application\/json\b/).test(type)) problems.push(`content-type ${type}`);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      problems.push("error body is not JSON");
    }
    if (body !== undefined) {
      const parsed = (v1 ? ProblemDocument : MarketplaceError).safeParse(body);
      if (!parsed.success) problems.push(`error body is not a ${v1 ? "problem document" : "{error}"}`);
      else if (v1 && (body as { status: number }).status !== res.status) problems.push("problem status differs from the HTTP status");
    }
    if (STACK_OR_SQL.test(text)) problems.push("stack trace or SQL in the error body");
  }
  if (problems.length) throw new Error(`${problems.join(", ")}: ${res.status} ${text.slice(0, 500)}\ncase: ${describeCase(c)}`);
}

const reporter = (out: fc.RunDetails<[BuiltCase]>) => {
  if (out.failed)
    throw new Error(
      `after ${out.numRuns} runs (seed ${out.seed}, path ${out.counterexamplePath}): ${String((out.errorInstance as Error | undefined)?.message ?? "too many skipped or interrupted runs")}`,
    );
};

test("every registered route has a fuzz entry", () => {
  expectEveryRouteCovered(listRoutes(ctx.app), table);
  expect([...ROUTES].sort()).toEqual(listRoutes(ctx.app).map(routeKey).sort());
});

describe("bad input on every route", () => {
  test.each(ROUTES)("%s", async (key) => {
    const spec = table[key];
    const [method, path] = key.split(" ");
    const creds = SERVICE_ROUTES.has(key) ? serviceCredentials : apiKeyCredentials;
    const before = await snapshot();
    await fc.assert(
      fc.asyncProperty(caseFor({ method, path, spec }, creds), async (c) => {
        fc.pre(c.invalid || SAFE.has(method) || !!spec.readOnly);
        checkAnswer(c, await send(server, await withServiceToken(c)));
      }),
      { numRuns: FUZZ_RUNS, reporter, ...FUZZ_SEED_OPTION },
    );
    expect(await snapshot()).toEqual(before);
  });
});

test("a 20 KB header is refused before the app (431, in the path's error shape) and changes nothing", async () => {
  const before = await snapshotDatabase(ctx.db);
  const res = await fetch(`${urlOf(server)}/v1/pricing/account`, { headers: { "X-API-Key": "k".repeat(20 * 1024) } });
  expect(res.status).toBe(431);
  expect(res.headers.get("content-type")).toBe("application/problem+json");
  expect(ProblemDocument.parse(await res.json())).toMatchObject({ status: 431, code: "headers_too_large", instance: "/v1/pricing/account" });
  const marketplace = await fetch(`${urlOf(server)}/marketplace/providers/models`, { headers: { "X-API-Key": "k".repeat(20 * 1024) } });
  expect(marketplace.status).toBe(431);
  expect(await marketplace.json()).toEqual({ error: expect.stringMatching(/headers are larger than/) });
  expect(await snapshotDatabase(ctx.db)).toEqual(before);
});
