// Isolation matrix of the pricing API: two accounts, each with model and database entries, a pin
// and a report. Every account-scoped route is called by one account with the other's ids and
// answers as decided (docs/api.md, Pricing API: another account's id is not found, 404), in the path's error
// shape, with none of the other account's markers (model names, sources, report names: body
// values only, never in URLs) in the body, the headers or the log lines of the request. The role
// dimension: the same calls with the account's viewer, member and admin keys answer 403 (in the
// path's shape) below the route's minimum role (docs/api.md, Pricing API) and as in the matrix above it.
import type http from "node:http";
import { MarketplaceError, pricingApiRoutes, ProblemDocument, type RouteDefinition } from "@cloudcost/contracts";
import { listRoutes } from "@cloudcost/http";
import request from "supertest";
import { createTestContext, type TestContext } from "./helpers/context";
import { listen, operationKey, routeKey } from "@cloudcost/testing";
import { createApiKey, provisionKey, type KeyRole } from "./helpers/keys";
import { TOOLING_ROUTES } from "./helpers/undeclared";
import { capturingLogger } from "@cloudcost/testing";

let ctx: TestContext;
let server: http.Server;
const log = capturingLogger();

interface Account {
  tag: string;
  key: string;
  modelId: string;
  databaseId: string;
  computeId: string;
  commitmentRateId: string;
  reportId: string;
  pinnedResource: string;
}
let P: Account;
let Q: Account;

async function buildAccount(tag: string): Promise<Account> {
  const key = await createApiKey(ctx, `acct_${tag.toLowerCase()}`);
  const auth = { "X-API-Key": key };
  const mark = (what: string) => `${tag}-${what}-MARKER`;
  const models = await request(server)
    .post("/marketplace/providers/models")
    .set(auth)
    .send({
      entries: [{ provider: "openai", model: mark("model"), token_bucket: "input", unit_price_per_mtok: 3, source: mark("source"), tags: { t: mark("tag") } }],
    });
  const databases = await request(server)
    .post("/marketplace/providers/databases")
    .set(auth)
    .send({ entries: [{ provider: "aws", service: "rds", region: "us-east-1", engine: mark("engine"), cost_per_hour: 0.5 }] });
  const computePrices = await request(server)
    .post("/marketplace/providers/compute")
    .set(auth)
    .send({ entries: [{ provider: "aws", instance_type: "m5.large", price_per_hour: 0.01, tags: { t: mark("compute") } }] });
  const commitmentRates = await request(server)
    .post("/marketplace/providers/commitment-rates")
    .set(auth)
    .send({
      entries: [
        { provider: "aws", commitment_type: "savings_plan", term_months: 12, payment_option: "no_upfront", family: mark("family"), discount_percent: 30 },
      ],
    });
  expect([models.status, databases.status, computePrices.status, commitmentRates.status]).toEqual([201, 201, 201, 201]);
  const databaseId = databases.body.entries[0].id as string;
  const pinnedResource = `${tag.toLowerCase()}-db`;
  const pin = await request(server).put(`/v1/pricing/pins/database/${pinnedResource}`).set(auth).send({ pricing_id: databaseId });
  const report = await request(server)
    .post("/v1/pricing/reports")
    .set(auth)
    .send({
      name: mark("report"),
      usage: [
        {
          resource_id: mark("resource"),
          kind: "database",
          timestamp: new Date().toISOString(),
          labels: { "costs.example.com/pricing-id.database": databaseId },
          quantities: { hours: 1 },
        },
      ],
    });
  expect([pin.status, report.status]).toEqual([200, 201]);
  return {
    tag,
    key,
    modelId: models.body.entries[0].id,
    databaseId,
    computeId: computePrices.body.entries[0].id,
    commitmentRateId: commitmentRates.body.entries[0].id,
    reportId: report.body.id,
    pinnedResource,
  };
}

beforeAll(async () => {
  ctx = await createTestContext({}, { logger: log.logger });
  server = await listen(ctx.app);
  P = await buildAccount("PAPA");
  Q = await buildAccount("QUEBEC");
});

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await ctx?.close();
});

interface Row {
  route: string;
  /** Path with the other account's ids filled in, plus query and body. */
  url: (other: Account) => string;
  body?: (other: Account) => unknown;
  status: number;
}

const usageLine = (other: Account, kind: "model" | "database") => ({
  resource_id: "probe",
  kind,
  timestamp: new Date().toISOString(),
  labels: { [`costs.example.com/pricing-id.${kind}`]: kind === "model" ? other.modelId : other.databaseId },
  quantities: kind === "model" ? { input: 1_000_000 } : { hours: 10 },
});

const MATRIX: Row[] = [
  { route: "GET /v1/pricing/account", url: () => "/v1/pricing/account", status: 200 },
  { route: "GET /marketplace/providers/models", url: () => "/marketplace/providers/models?include_closed=true", status: 200 },
  { route: "GET /marketplace/providers/models", url: () => "/marketplace/providers/models?provider=openai&token_bucket=input", status: 200 },
  {
    route: "POST /marketplace/providers/models",
    url: () => "/marketplace/providers/models",
    body: (o) => ({ entries: [{ provider: "openai", model: "probe", token_bucket: "input", unit_price_per_mtok: 1, model_id: o.modelId }] }),
    status: 201,
  },
  { route: "DELETE /marketplace/providers/models", url: (o) => `/marketplace/providers/models?id=${o.modelId}`, status: 404 },
  { route: "GET /marketplace/providers/compute", url: () => "/marketplace/providers/compute?include_closed=true", status: 200 },
  { route: "GET /marketplace/providers/compute", url: () => "/marketplace/providers/compute?provider=aws&instance_type=m5.large", status: 200 },
  {
    route: "POST /marketplace/providers/compute",
    url: () => "/marketplace/providers/compute",
    body: () => ({ entries: [{ provider: "aws", instance_type: "c5.large", price_per_hour: 0.02 }] }),
    status: 201,
  },
  { route: "DELETE /marketplace/providers/compute", url: (o) => `/marketplace/providers/compute?id=${o.computeId}`, status: 404 },
  { route: "GET /marketplace/providers/commitment-rates", url: () => "/marketplace/providers/commitment-rates?include_closed=true", status: 200 },
  {
    route: "POST /marketplace/providers/commitment-rates",
    url: () => "/marketplace/providers/commitment-rates",
    body: () => ({ entries: [{ provider: "aws", commitment_type: "savings_plan", term_months: 36, payment_option: "all_upfront", discount_percent: 40 }] }),
    status: 201,
  },
  { route: "DELETE /marketplace/providers/commitment-rates", url: (o) => `/marketplace/providers/commitment-rates?id=${o.commitmentRateId}`, status: 404 },
  // The isolation context loads no catalog: the query answers 404 (no such type), the batch and the listing 200.
  {
    route: "POST /v1/pricing/compute",
    url: () => "/v1/pricing/compute",
    body: () => ({ provider: "aws", region: "us-east-1", instance_type: "m5.large" }),
    status: 404,
  },
  {
    route: "POST /v1/pricing/compute/batch",
    url: () => "/v1/pricing/compute/batch",
    body: () => ({ items: [{ provider: "aws", region: "us-east-1", instance_type: "m5.large" }] }),
    status: 200,
  },
  { route: "GET /v1/pricing/compute/instance-types", url: () => "/v1/pricing/compute/instance-types?provider=aws&region=us-east-1", status: 200 },
  { route: "GET /marketplace/providers/databases", url: () => "/marketplace/providers/databases", status: 200 },
  {
    route: "POST /marketplace/providers/databases",
    url: () => "/marketplace/providers/databases",
    body: () => ({ entries: [{ provider: "aws", service: "rds", region: "us-east-1", cost_per_hour: 0.5 }] }),
    status: 201,
  },
  { route: "DELETE /marketplace/providers/databases", url: (o) => `/marketplace/providers/databases?id=${o.databaseId}`, status: 404 },
  { route: "GET /v1/pricing/pins", url: (o) => `/v1/pricing/pins?pricing_id=${o.databaseId}`, status: 200 },
  { route: "GET /v1/pricing/pins", url: () => "/v1/pricing/pins", status: 200 },
  {
    route: "PUT /v1/pricing/pins/{kind}/{resource_id}",
    url: (o) => `/v1/pricing/pins/database/${o.pinnedResource}`,
    body: (o) => ({ pricing_id: o.databaseId }),
    status: 404,
  },
  { route: "PUT /v1/pricing/pins/{kind}/{resource_id}", url: () => "/v1/pricing/pins/model/probe", body: (o) => ({ pricing_id: o.modelId }), status: 404 },
  { route: "DELETE /v1/pricing/pins/{kind}/{resource_id}", url: (o) => `/v1/pricing/pins/database/${o.pinnedResource}`, status: 404 },
  { route: "GET /v1/pricing/reports/{id}", url: (o) => `/v1/pricing/reports/${o.reportId}`, status: 404 },
  { route: "DELETE /v1/pricing/reports/{id}", url: (o) => `/v1/pricing/reports/${o.reportId}`, status: 404 },
  {
    route: "POST /v1/pricing/reports",
    url: () => "/v1/pricing/reports",
    body: (o) => ({ name: "probe", usage: [usageLine(o, "model"), usageLine(o, "database")] }),
    status: 201,
  },
  { route: "POST /v1/pricing/usage", url: () => "/v1/pricing/usage", body: (o) => ({ usage: [usageLine(o, "model"), usageLine(o, "database")] }), status: 200 },
];

/** Routes without account data: the declared operations not scoped to an account (public, the shared compute catalog) and the undeclared ones. */
const UNSCOPED = new Set([
  ...Object.values(pricingApiRoutes as Record<string, RouteDefinition>)
    .filter((route) => route.scope !== "account")
    .map(operationKey),
  ...TOOLING_ROUTES,
]);

test("every account-scoped route is in the matrix", () => {
  const covered = new Set(MATRIX.map((r) => r.route));
  const scoped = listRoutes(ctx.app)
    .map(routeKey)
    .filter((k) => !UNSCOPED.has(k));
  expect(scoped.filter((k) => !covered.has(k))).toEqual([]);
  expect([...covered].filter((k) => !scoped.includes(k))).toEqual([]);
});

test("positive control: an account sees its own markers", async () => {
  const res = await request(server).get("/marketplace/providers/models").set("X-API-Key", P.key);
  expect(res.text).toContain("PAPA-model-MARKER");
  const report = await request(server).get(`/v1/pricing/reports/${P.reportId}`).set("Authorization", `Bearer ${P.key}`);
  expect(report.text).toContain("PAPA-report-MARKER");
});

test("another account's ids are not found, and nothing of the other account leaks", async () => {
  const failures: string[] = [];
  for (const [self, other] of [
    [P, Q],
    [Q, P],
  ] as Array<[Account, Account]>) {
    for (const row of MATRIX) {
      const url = row.url(other);
      const method = row.route.split(" ")[0].toLowerCase() as "get" | "post" | "put" | "delete";
      log.lines.length = 0;
      const req = request(server)[method](url).set("X-API-Key", self.key);
      const res = await (row.body ? req.send(row.body(other) as object) : req);
      await new Promise((resolve) => setImmediate(resolve));
      const label = `${self.tag} ${row.route} ${url}`;
      if (res.status !== row.status) failures.push(`${label}: ${res.status} (expected ${row.status}) ${res.text.slice(0, 200)}`);
      if (res.status >= 400) {
        const schema = url.startsWith("/v1/") ? ProblemDocument : MarketplaceError;
        if (!schema.safeParse(res.body).success) failures.push(`${label}: error body not in the path's shape: ${res.text.slice(0, 200)}`);
      }
      const text = res.text + JSON.stringify(res.headers);
      if (text.includes(other.tag)) failures.push(`${label}: response carries ${other.tag} data: ${res.text.slice(0, 300)}`);
      if (res.status < 400 && row.body && /\/usage|\/reports/.test(url) && /"resolved":true/.test(res.text))
        failures.push(`${label}: priced with another account's entry`);
      if (log.lines.join("").includes(other.tag)) failures.push(`${label}: log lines carry ${other.tag}`);
    }
  }
  expect(failures).toEqual([]);
  // The other account's rows are all still there and open.
  for (const account of [P, Q]) {
    const models = await request(server).get("/marketplace/providers/models").set("X-API-Key", account.key);
    expect(models.body.entries.map((e: { id: string }) => e.id)).toContain(account.modelId);
    const computePrices = await request(server).get("/marketplace/providers/compute").set("X-API-Key", account.key);
    expect(computePrices.body.entries.map((e: { id: string }) => e.id)).toContain(account.computeId);
    const rates = await request(server).get("/marketplace/providers/commitment-rates").set("X-API-Key", account.key);
    expect(rates.body.entries.map((e: { id: string }) => e.id)).toContain(account.commitmentRateId);
    const report = await request(server).get(`/v1/pricing/reports/${account.reportId}`).set("X-API-Key", account.key);
    expect(report.status).toBe(200);
    const pins = await request(server).get("/v1/pricing/pins").set("X-API-Key", account.key);
    expect(pins.body.pins.map((p: { resource_id: string }) => p.resource_id)).toContain(account.pinnedResource);
  }
});

/** The least key role each authenticated route needs. */
const MIN_ROLE: Record<string, KeyRole> = {
  "GET /v1/pricing/account": "viewer",
  "GET /marketplace/providers/models": "viewer",
  "POST /marketplace/providers/models": "member",
  "DELETE /marketplace/providers/models": "admin",
  "GET /marketplace/providers/databases": "viewer",
  "POST /marketplace/providers/databases": "member",
  "DELETE /marketplace/providers/databases": "admin",
  "GET /marketplace/providers/compute": "viewer",
  "POST /marketplace/providers/compute": "member",
  "DELETE /marketplace/providers/compute": "admin",
  "GET /marketplace/providers/commitment-rates": "viewer",
  "POST /marketplace/providers/commitment-rates": "member",
  "DELETE /marketplace/providers/commitment-rates": "admin",
  "GET /v1/pricing/pins": "viewer",
  "PUT /v1/pricing/pins/{kind}/{resource_id}": "member",
  "DELETE /v1/pricing/pins/{kind}/{resource_id}": "member",
  "GET /v1/pricing/reports/{id}": "viewer",
  "DELETE /v1/pricing/reports/{id}": "admin",
  "POST /v1/pricing/reports": "member",
  "POST /v1/pricing/usage": "viewer",
  "POST /v1/pricing/compute": "viewer",
  "POST /v1/pricing/compute/batch": "viewer",
  "GET /v1/pricing/compute/instance-types": "viewer",
};
const RANK: Record<KeyRole, number> = { viewer: 0, member: 1, admin: 2 };

test("every route behind a key has a minimum role", () => {
  const keyed = listRoutes(ctx.app)
    .map(routeKey)
    .filter((k) => !UNSCOPED.has(k));
  expect(keyed.filter((k) => !(k in MIN_ROLE))).toEqual([]);
});

test("each key role reaches exactly the routes of its level, and below it gets a 403 in the path's shape", async () => {
  const keys: Record<KeyRole, string> = {
    viewer: await provisionKey(ctx, "acct_papa", "viewer"),
    member: await provisionKey(ctx, "acct_papa", "member"),
    admin: await provisionKey(ctx, "acct_papa", "admin"),
  };
  const rows: Row[] = MATRIX;
  const failures: string[] = [];
  for (const role of ["viewer", "member", "admin"] as KeyRole[]) {
    for (const row of rows) {
      // The other account's ids: what a role may do answers as in the matrix (never touching data).
      const url = row.url(Q);
      const method = row.route.split(" ")[0].toLowerCase() as "get" | "post" | "put" | "delete";
      const req = request(server)[method](url).set("X-API-Key", keys[role]);
      const res = await (row.body ? req.send(row.body(Q) as object) : req);
      const allowed = RANK[role] >= RANK[MIN_ROLE[row.route]];
      const expected = allowed ? row.status : 403;
      const label = `${role} ${row.route} ${url}`;
      if (res.status !== expected) failures.push(`${label}: ${res.status} (expected ${expected}) ${res.text.slice(0, 200)}`);
      if (!allowed) {
        const shaped = url.startsWith("/v1/")
          ? ProblemDocument.safeParse(res.body).success && res.body.code === "forbidden"
          : MarketplaceError.safeParse(res.body).success;
        if (!shaped) failures.push(`${label}: 403 not in the path's shape: ${res.text.slice(0, 200)}`);
      }
    }
  }
  expect(failures).toEqual([]);
});
