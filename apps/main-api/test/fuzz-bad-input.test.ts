// Bad input, property-based: every route of the main API answers every invalid request with a 4xx
// in the envelope error shape, never a 5xx, and leaves the database exactly as it was.
// Cases per route: FUZZ_RUNS (default 40; `pnpm test:fuzz` runs 2000).
import type http from "node:http";
import fc from "fast-check";
import { ErrorEnvelope, mainApiRoutes, type RouteDefinition } from "@cloudcost/contracts";
import { answerClientErrors, listRoutes } from "@cloudcost/http";
import pino from "pino";
import request from "supertest";
import { envelopeClientErrorBody } from "../src/errors";
import { createTestContext, TEST_SERVICE_TOKEN_SECRET, type TestContext } from "./helpers/context";
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
import { addUser, mintToken, signUp, uniqueEmail } from "./helpers/identity";
import { startPricingApi, type RunningPricingApi } from "./helpers/pricing-api";
import { DevTokenRequest } from "../src/auth/dev-sign-in";
import { TOOLING_ROUTES } from "./helpers/undeclared";

let ctx: TestContext;
let pricing: RunningPricingApi;
let server: http.Server;
let table: Record<string, RouteSpec>;
let credentials: Credentials;
let signupCredentials: Credentials;
let inviteeCredentials: Credentials;

const SAFE = new Set(["GET", "HEAD", "OPTIONS"]);

beforeAll(async () => {
  // Valid usage is priced by a real pricing API (an unreachable one would be a 503).
  pricing = await startPricingApi(TEST_SERVICE_TOKEN_SECRET);
  ctx = await createTestContext({ PRICING_API_URL: pricing.url });
  server = await listen(ctx.app);
  // What serve() installs: requests the HTTP parser refuses are answered in the API's own shape.
  answerClientErrors(server, { logger: pino({ level: "silent" }), body: envelopeClientErrorBody });
  const owner = await signUp(ctx, { company: "Fuzz Org" });
  const org = owner.organization.id;
  const tenant = owner.tenant.id;
  const member = await addUser(ctx, { orgId: org, ownerToken: owner.token, role: "member", tenantIds: [tenant] });
  const auth = (token: string) => ({ Authorization: `Bearer ${token}` });
  const adminKey = await request(server).post("/api/v1/settings/api-keys").set(auth(owner.token)).send({ name: "fuzz admin", role: "admin" });
  const victimKey = await request(server)
    .post("/api/v1/settings/api-keys")
    .set(auth(owner.token))
    .send({ name: "fuzz victim", role: "viewer", tenant_ids: [tenant] });
  expect([adminKey.status, victimKey.status]).toEqual([201, 201]);
  const resource = {
    resource_id: "vm-1",
    name: "vm one",
    resource_type: "virtual_machine",
    provider: "aws",
    region: "us-east-1",
    instance_type: "m5.large",
    cpu_cores: 2,
    ram_gb: 8,
  };
  const put = await request(server)
    .put("/api/v1/tenant/compute/resources")
    .set(auth(owner.token))
    .set("X-Service-Tenant-ID", tenant)
    .send({ resources: [resource] });
  expect(put.status).toBe(200);
  // Every credential is used once before the snapshots.
  const freshIdentity = await mintToken(ctx, { email: uniqueEmail("fresh") });
  for (const token of [owner.token, member.token, adminKey.body.data.key]) expect((await request(server).get("/api/v1/me").set(auth(token))).status).toBe(200);
  const inviteeEmail = uniqueEmail("invitee");
  const invitation = await request(server)
    .post(`/api/v1/organizations/${org}/invitations`)
    .set(auth(owner.token))
    .send({ email: inviteeEmail, role: "viewer" });
  expect(invitation.status).toBe(201);
  const invitee = await mintToken(ctx, { email: inviteeEmail });
  const webhook = await request(server)
    .post(`/api/v1/organizations/${org}/webhooks`)
    .set(auth(owner.token))
    .send({ url: "http://127.0.0.1:1/fuzz", events: ["anomaly.detected"] });
  expect(webhook.status).toBe(201);
  const webhookId = webhook.body.data.id as string;
  const budget = await request(server)
    .post("/api/v1/tenant/budgets")
    .set(auth(owner.token))
    .set("X-Service-Tenant-ID", tenant)
    .send({ name: "Fuzz budget", period: "monthly", amount: "100", currency: "USD", thresholds: [{ percent: 80, kind: "forecast" }] });
  expect(budget.status).toBe(201);
  const budgetId = budget.body.data.id as string;

  const garbage = fc.oneof(
    fc.constant({}),
    fc
      .constantFrom(
        "Bearer",
        "Bearer ",
        "Basic dXNlcjpwYXNz",
        `Bearer ${owner.token.slice(0, -4)}AAAA`,
        `Bearer ${owner.token.split(".").slice(0, 2).join(".")}.`,
        `bearer ${owner.token} extra`,
        `Bearer bl_${"A".repeat(42)}`,
        // The key with its last character changed (to a different one: a key may end in "x" already).
        `Bearer ${adminKey.body.data.key.slice(0, -1)}${adminKey.body.data.key.endsWith("x") ? "y" : "x"}`,
        `Bearer ${victimKey.body.data.key}x`,
        "Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.",
      )
      .map((v) => ({ Authorization: v })),
    fc.stringMatching(/^[A-Za-z0-9]{42}$/).map((body) => ({ Authorization: `Bearer bl_${body}` })),
    fc.string({ unit: "grapheme-ascii", maxLength: 200 }).map((v) => ({ Authorization: `Bearer ${v.replace(/[^\x21-\x7e]/g, "x") || "x"}` })),
    // The main API reads only Authorization: a key in X-API-Key is no credential here.
    fc.constant({ "X-API-Key": adminKey.body.data.key as string }),
  );
  const expired = await mintToken(ctx, { email: owner.email, ttlSeconds: -3600 });
  credentials = {
    valid: [auth(owner.token), auth(adminKey.body.data.key)],
    garbage: fc.oneof(garbage, fc.constant(auth(expired))),
  };
  signupCredentials = { valid: [auth(freshIdentity)], garbage: credentials.garbage };
  inviteeCredentials = { valid: [auth(invitee)], garbage: credentials.garbage };

  const now = new Date().toISOString();
  const publicGet: RouteSpec = { auth: "none" };
  const invitationId = invitation.body.data.id as string;
  // Every declared operation: schemas, auth and tenant scope from the route table, valid values here.
  const declared = fuzzSpecsFromRoutes(mainApiRoutes, {
    mainHealthz: {},
    mainReadyz: {},
    upsertResources: {
      tenant,
      body: { resources: [{ ...resource, availability_zone: "us-east-1a", architecture: "x86_64", operating_system: "linux", labels: { team: "a" } }] },
    },
    ingestMetrics: { tenant, body: { samples: [{ resource_id: "vm-1", timestamp: now, cpu_utilization: 12.5, memory_utilization: 40 }] } },
    recordHeartbeats: { tenant, body: { resource_ids: ["vm-1"], timestamp: now } },
    analyzeRecommendations: { tenant },
    getRecommendationSummary: { tenant },
    listRecommendations: { tenant, query: { state: "open,dismissed", include_retired: "true" } },
    retireResource: { tenant, params: { resource_id: "vm-never-upserted" } },
    updateRecommendationState: {
      tenant,
      params: { resource_id: "vm-1" },
      body: { state: "snoozed", reason: "quarter end", snoozed_until: new Date(Date.now() + 86_400_000).toISOString() },
    },
    getRealizedSavings: { tenant, query: { start: "2026-10-01", end: "2026-11-01" } },
    ingestPods: {
      tenant,
      body: {
        samples: [
          {
            cluster: "c",
            namespace: "n",
            pod: "p",
            node: "vm-1",
            controller_kind: "Deployment",
            controller_name: "d",
            labels: { team: "a" },
            timestamp: now,
            cpu_request_cores: 1,
            memory_request_gb: 2,
            cpu_usage_cores: 0.5,
            memory_usage_gb: 1,
          },
        ],
      },
    },
    getAllocation: { tenant, query: { start: "2026-10-01", end: "2026-11-01", aggregate: "label:team", share_idle: "true", step: "day" } },
    listNodePoolRecommendations: { tenant },
    putNodePoolSetting: { tenant, body: { cluster: "c", node_pool: "p", min_nodes: 2 } },
    completeSignup: { body: { company_name: "Fuzz Two", first_name: "Ada", last_name: "L", job_title: "CTO", slug: "fuzz-two" } },
    getMe: {},
    leaveOrganization: {},
    getOrganization: { params: { org_id: org } },
    updateOrganization: { params: { org_id: org }, body: { name: "Renamed", slug: "renamed-org" } },
    getSettings: { params: { org_id: org } },
    updateSettings: {
      params: { org_id: org },
      body: { default_currency: "EUR", rightsizing: { lookback_days: 7, cpu_target_percent: 60, memory_target_percent: 70 }, active_window_minutes: 30 },
    },
    listTenants: { params: { org_id: org } },
    createTenant: { params: { org_id: org }, body: { name: "Second" } },
    getTenant: { params: { org_id: org, tenant_id: tenant } },
    updateTenant: { params: { org_id: org, tenant_id: tenant }, body: { name: "Renamed tenant", archived: false } },
    listUsers: { params: { org_id: org } },
    inviteUser: { params: { org_id: org }, body: { email: "new@example.com", role: "member", tenant_ids: [tenant], name: "New", job_title: "Dev" } },
    getUser: { params: { org_id: org, id: member.user.id } },
    updateUser: { params: { org_id: org, id: member.user.id }, body: { role: "viewer", tenant_ids: [tenant], active: true, name: "Renamed", job_title: null } },
    listInvitations: { params: { org_id: org } },
    createInvitation: {
      params: { org_id: org },
      body: { email: "invited@example.com", role: "member", tenant_ids: [tenant], name: "Invited", job_title: "Dev" },
    },
    revokeInvitation: { params: { org_id: org, id: invitationId } },
    listReceivedInvitations: {},
    acceptInvitation: { params: { id: invitationId } },
    declineInvitation: { params: { id: invitationId } },
    listApiKeys: {},
    createApiKey: { body: { name: "k", role: "member", tenant_ids: [tenant] } },
    revokeApiKey: { params: { id: victimKey.body.data.id } },
    ingestUsage: {
      tenant,
      body: {
        usage: [{ resource_id: "gpt-4o", kind: "model", timestamp: now, labels: { team: "a" }, quantities: { input: 10, output: 2 }, event_id: "fuzz-1" }],
      },
    },
    repriceUsage: { tenant, body: { start: "2026-10-01", end: "2026-11-01T00:00:00Z" } },
    getTenantSpend: {
      tenant,
      query: { start: "2026-10-01", end: "2026-11-01", granularity: "month", metric: "effective_cost", group_by: "service_name,tag:team", region: "eu-west-1" },
    },
    listSpendLines: { tenant, query: { start: "2026-10-01", limit: "10", "tag:team": "a" } },
    getSpendForecast: { tenant, query: { period: "quarterly", metric: "contracted_cost", currency: "EUR", charge_frequency: "Usage-Based", "tag:team": "a" } },
    getOrganizationSpend: { params: { org_id: org }, query: { group_by: "tenant", tenant } },
    listCommitments: { params: { org_id: org }, query: { start: "2026-10-01", end: "2026-11-01T00:00:00Z" } },
    getCommitmentCoverage: { params: { org_id: org }, query: { start: "2026-10-01", end: "2026-11-01", group_by: "tenant" } },
    getCommitmentRecommendations: {
      params: { org_id: org },
      query: { lookback_days: "30", commitment_type: "savings_plan", term_months: "12", payment_option: "no_upfront", include_curve: "true" },
    },
    exportTenantSpend: { tenant, query: { start: "2026-10-01", end: "2026-11-01", service_name: "a,b" } },
    exportOrganizationSpend: { params: { org_id: org }, query: { tenant, "tag:team": "a" } },
    createSpendImport: { params: { org_id: org } },
    listSpendImports: { params: { org_id: org } },
    listSpendImportSessions: { params: { org_id: org } },
    getSpendImportSession: { params: { org_id: org, id: "session-1" } },
    getSpendImport: { params: { org_id: org, id: "imp_00000000000000000000000000" } },
    deleteSpendImport: { params: { org_id: org, id: "imp_00000000000000000000000000" } },
    getAllocationRules: { params: { org_id: org } },
    putAllocationRules: { params: { org_id: org }, body: { rules: [{ tenant_id: tenant, sub_account_ids: ["a"], tag: { key: "team", values: ["x"] } }] } },
    createWebhook: {
      params: { org_id: org },
      body: { url: "https://hooks.example.com/in", events: ["anomaly.detected", "import.completed"], description: "d" },
    },
    listWebhooks: { params: { org_id: org } },
    putDimension: {
      params: { org_id: org, key: "team" },
      body: {
        name: "Team",
        rules: [
          { value: "web", match: { all: [{ field: "tag:team", op: "eq", value: "web", case: "insensitive" }, { not: { field: "region", op: "absent" } }] } },
        ],
        default_value: "shared",
        splits: [{ source: "shared", targets: ["web", "data"], method: "fixed", percentages: { web: "60", data: "40" } }],
        effective_from: new Date().toISOString().slice(0, 7),
      },
    },
    listDimensions: { params: { org_id: org } },
    getDimension: { params: { org_id: org, key: "team" }, query: { version: "1" } },
    listDimensionVersions: { params: { org_id: org, key: "team" } },
    previewDimension: {
      params: { org_id: org, key: "team" },
      query: { start: "2026-10-01", end: "2026-10-08", currency: "USD", metric: "effective_cost" },
      body: {
        name: "Team",
        rules: [{ value_from: "tag:team", match: { field: "tag:team", op: "present" } }],
        splits: [{ source: null, targets: "*", method: "even" }],
      },
    },
    deleteDimension: { params: { org_id: org, key: "team" } },
    putBusinessMetric: { params: { org_id: org, name: "orders" }, body: { unit: "order", description: "d", dimension: "team" } },
    listBusinessMetrics: { params: { org_id: org } },
    getBusinessMetric: { params: { org_id: org, name: "orders" } },
    deleteBusinessMetric: { params: { org_id: org, name: "orders" } },
    postBusinessMetricValues: { params: { org_id: org, name: "orders" }, query: { mode: "replace" } },
    listBusinessMetricValues: { params: { org_id: org, name: "orders" }, query: { start: "2026-10-01", end: "2026-11-01" } },
    createStatement: { params: { org_id: org }, body: { period: "2026-10", by: "dimension:team", metric: "billed_cost", currency: "USD" } },
    listStatements: { params: { org_id: org } },
    getStatement: { params: { org_id: org, id: "stm_fuzz" } },
    finalizeStatement: { params: { org_id: org, id: "stm_fuzz" } },
    deleteStatement: { params: { org_id: org, id: "stm_fuzz" } },
    getRecipientStatement: { params: { org_id: org, id: "stm_fuzz", value: "web" } },
    getRecipientStatementCsv: { params: { org_id: org, id: "stm_fuzz", value: "web" } },
    getRecipientStatementPdf: { params: { org_id: org, id: "stm_fuzz", value: "web" } },
    getWebhook: { params: { org_id: org, id: webhookId } },
    updateWebhook: {
      params: { org_id: org, id: webhookId },
      body: { url: "https://hooks.example.com/v2", events: ["import.completed"], description: null, active: false },
    },
    deleteWebhook: { params: { org_id: org, id: webhookId } },
    testWebhook: { params: { org_id: org, id: webhookId } },
    listWebhookDeliveries: { params: { org_id: org, id: webhookId } },
    createBudget: {
      tenant,
      body: {
        name: "B",
        period: "quarterly",
        amount: "1500.25",
        currency: "USD",
        metric: "effective_cost",
        filters: { provider: ["aws"], service_name: ["Amazon EC2"] },
        thresholds: [
          { percent: 50, kind: "actual" },
          { percent: 100, kind: "forecast" },
        ],
      },
    },
    listBudgets: { tenant },
    getBudget: { tenant, params: { id: budgetId } },
    updateBudget: {
      tenant,
      params: { id: budgetId },
      body: { name: "Renamed", period: "annual", amount: 2000, thresholds: [{ percent: 90, kind: "actual" }] },
    },
    deleteBudget: { tenant, params: { id: budgetId } },
    detectAnomalies: { tenant, body: { days: 30 } },
    listAnomalies: { tenant, query: { start: "2026-10-01", end: "2026-11-01" } },
    updateAnomaly: { tenant, params: { id: "ano_0000000000" }, body: { feedback: "yes" } },
  });
  table = {
    ...declared,
    "GET /metrics": publicGet,
    "GET /openapi.json": publicGet,
    "GET /docs": publicGet,
    "GET /docs/assets/docs-init.js": publicGet,
    "GET /.well-known/jwks.json": publicGet,
    "POST /api/v1/dev/token": { auth: "none", body: { schema: DevTokenRequest, valid: { email: "fuzz@example.com" } }, readOnly: true },
  };
});

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await ctx?.close();
  await pricing?.close();
});

function checkAnswer(c: BuiltCase, res: request.Response): void {
  const text = textOf(res);
  const problems: string[] = [];
  if (res.status >= 500) problems.push("5xx");
  if (c.invalid && (res.status < 400 || res.status >= 500)) problems.push("invalid request not answered 4xx");
  if (res.status >= 400) {
    if (!/^application\/json\b/.test(res.headers["content-type"] ?? "")) problems.push(`content-type ${res.headers["content-type"]}`);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      problems.push("error body is not JSON");
    }
    if (body !== undefined && !ErrorEnvelope.safeParse(body).success) problems.push("error body is not the envelope");
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
});

describe("bad input on every route", () => {
  // Routes are read at collection time (the table itself needs the context, built in beforeAll).
  const routes = [...Object.values(mainApiRoutes).map(operationKey), ...TOOLING_ROUTES];
  /** Sign-up takes an identity without an organization; the received invitations, the invitee's identity. */
  const credentialsOf = new Map<string, () => Credentials>(
    (Object.values(mainApiRoutes) as RouteDefinition[])
      .filter((route) => route.auth === "identity")
      .map((route) => [operationKey(route), () => (route.operationId === "completeSignup" ? signupCredentials : inviteeCredentials)]),
  );

  test("the list below is every registered route", () => {
    expect([...routes].sort()).toEqual(listRoutes(ctx.app).map(routeKey).sort());
  });

  test.each(routes)("%s", async (key) => {
    const spec = table[key];
    const [method, path] = key.split(" ");
    const creds = credentialsOf.get(key)?.() ?? credentials;
    const before = await snapshotDatabase(ctx.db);
    await fc.assert(
      fc.asyncProperty(caseFor({ method, path, spec }, creds), async (c) => {
        fc.pre(c.invalid || SAFE.has(method) || !!spec.readOnly);
        checkAnswer(c, await send(server, c));
      }),
      { numRuns: FUZZ_RUNS, reporter, ...FUZZ_SEED_OPTION },
    );
    expect(await snapshotDatabase(ctx.db)).toEqual(before);
  });
});

test("a 20 KB header is refused before the app (431, in the envelope) and changes nothing", async () => {
  const before = await snapshotDatabase(ctx.db);
  const res = await fetch(`${urlOf(server)}/api/v1/me`, { headers: { "X-Service-Tenant-ID": "t".repeat(20 * 1024) } });
  expect(res.status).toBe(431);
  expect(await res.json()).toEqual({ status: "error", message: expect.stringMatching(/headers are larger than the 16 KiB/) });
  expect(await snapshotDatabase(ctx.db)).toEqual(before);
});
