// Isolation matrix: two organizations with two tenants each, users of every role and API keys of
// every key role. Every organization- or tenant-scoped route is called across organizations, across
// tenants and with too low a role, and answers the decided status (docs/api.md, Main API authentication: 403 for an
// organization or tenant outside the caller's reach, also a nonexistent one; 404 for a user or key
// that is not in the caller's organization) in the envelope, with no data of the other organization
// in the body, the headers, or the log lines of the request. Markers are names (bodies only; log
// lines carry URLs, so ids are no markers). The lifecycle dimension: an identity with a pending
// invitation and one that left the organization reach nothing of it; the admin key of an admin since
// demoted to member acts as a member (of the creator's tenants), the admin key of a deactivated admin
// is a 401 everywhere, also in its own organization.
import { randomUUID } from "node:crypto";
import type http from "node:http";
import { ErrorEnvelope, mainApiRoutes, type Role, type RouteDefinition } from "@cloudcost/contracts";
import { listRoutes } from "@cloudcost/http";
import request from "supertest";
import { insertLines } from "../src/spend/lines-repository";
import { focusCsvText } from "./helpers/focus-files";
import { createTestContext, type TestContext } from "./helpers/context";
import { listen, operationKey, routeKey } from "@cloudcost/testing";
import { addUser, mintToken, signUp } from "./helpers/identity";
import { TOOLING_ROUTES } from "./helpers/undeclared";
import { capturingLogger } from "@cloudcost/testing";

let ctx: TestContext;
let server: http.Server;
const log = capturingLogger();

/** What one organization holds, with its distinctive names. */
interface Side {
  org: string;
  tenant1: string;
  tenant2: string;
  /** Bearer credentials by caller name. */
  callers: Record<Caller | Lifecycle, string>;
  /** The admin key of an admin deactivated since. */
  keyOfDeactivatedAdmin: string;
  userId: string;
  /** The owner's user id (another user than any non-manager caller). */
  ownerUserId: string;
  keyId: string;
  /** A pending invitation (of the `pending` identity). */
  invitationId: string;
  /** A FOCUS import. */
  importId: string;
  /** A pending import session started by a manifest (its id is the client's: random, each side's own). */
  sessionId: string;
  webhookId: string;
  /** A draft statement of the organization (by tenant). */
  statementId: string;
  markers: string[];
}
type Caller = "owner" | "admin" | "member" | "viewer" | "keyAdmin" | "keyMember" | "keyViewer" | "keyOfDemotedAdmin";
/** Identities that once had or were offered a place in the organization: invited and not yet accepted, or left. */
type Lifecycle = "pending" | "left";
const LIFECYCLE: Lifecycle[] = ["pending", "left"];
const CALLERS: Caller[] = ["owner", "admin", "member", "viewer", "keyAdmin", "keyMember", "keyViewer", "keyOfDemotedAdmin"];
const MANAGERS: Caller[] = ["owner", "admin", "keyAdmin"];
const NON_MANAGERS: Caller[] = ["member", "viewer", "keyMember", "keyViewer", "keyOfDemotedAdmin"];
const READ_ONLY: Caller[] = ["viewer", "keyViewer"];
const NON_KEYS: Caller[] = ["owner", "admin", "member", "viewer"];
const USERS_ONLY = new Set<Caller>(["owner", "admin", "member", "viewer"]);
const KEYS: Caller[] = ["keyAdmin", "keyMember", "keyViewer", "keyOfDemotedAdmin"];

let A: Side;
let B: Side;

async function buildSide(tag: string): Promise<Side> {
  const mark = (what: string) => `${tag}-${what}-MARKER`;
  const owner = await signUp(ctx, { company: mark("company") });
  const org = owner.organization.id;
  const tenant1 = owner.tenant.id;
  const auth = { Authorization: `Bearer ${owner.token}` };
  const t2 = await request(server)
    .post(`/api/v1/organizations/${org}/tenants`)
    .set(auth)
    .send({ name: mark("tenant-two") });
  const renamed = await request(server)
    .patch(`/api/v1/organizations/${org}/tenants/${tenant1}`)
    .set(auth)
    .send({ name: mark("tenant-one") });
  expect([t2.status, renamed.status]).toEqual([201, 200]);
  const tenant2 = t2.body.data.id as string;
  const admin = await addUser(ctx, { orgId: org, ownerToken: owner.token, role: "admin", email: `${tag.toLowerCase()}-admin@example.com` });
  const member = await addUser(ctx, {
    orgId: org,
    ownerToken: owner.token,
    role: "member",
    tenantIds: [tenant1],
    email: `${tag.toLowerCase()}-member@example.com`,
  });
  const viewer = await addUser(ctx, {
    orgId: org,
    ownerToken: owner.token,
    role: "viewer",
    tenantIds: [tenant1],
    email: `${tag.toLowerCase()}-viewer@example.com`,
  });
  const named = await request(server)
    .patch(`/api/v1/organizations/${org}/users/${member.user.id}`)
    .set(auth)
    .send({ name: mark("member-name"), job_title: mark("job") });
  expect(named.status).toBe(200);
  const key = async (role: string, tenantIds?: string[]) => {
    const res = await request(server)
      .post("/api/v1/settings/api-keys")
      .set(auth)
      .send({ name: mark(`${role}-key`), role, tenant_ids: tenantIds });
    expect(res.status).toBe(201);
    return res.body.data as { id: string; key: string };
  };
  const leaver = await addUser(ctx, { orgId: org, ownerToken: owner.token, role: "admin", email: `${tag.toLowerCase()}-left@example.com` });
  expect((await request(server).post("/api/v1/me/leave").set("Authorization", `Bearer ${leaver.token}`)).status).toBe(200);
  const pendingEmail = `${tag.toLowerCase()}-pending@example.com`;
  const invitation = await request(server)
    .post(`/api/v1/organizations/${org}/invitations`)
    .set(auth)
    .send({ email: pendingEmail, role: "admin", name: mark("pending-name") });
  expect(invitation.status).toBe(201);
  const webhook = await request(server)
    .post(`/api/v1/organizations/${org}/webhooks`)
    .set(auth)
    .send({ url: "https://hooks.example.com/in", events: ["anomaly.detected"], description: mark("webhook") });
  expect(webhook.status).toBe(201);
  const keyAdmin = await key("admin");
  const keyMember = await key("member", [tenant1]);
  const keyViewer = await key("viewer", [tenant1]);
  // Two more admins, each with an admin key; then one is demoted to member (of tenant one), the other deactivated.
  const adminKeyOf = async (who: string) => {
    const user = await addUser(ctx, {
      orgId: org,
      ownerToken: owner.token,
      role: "admin",
      tenantIds: [tenant1],
      email: `${tag.toLowerCase()}-${who}@example.com`,
    });
    const res = await request(server)
      .post("/api/v1/settings/api-keys")
      .set({ Authorization: `Bearer ${user.token}` })
      .send({ name: mark(`${who}-key`), role: "admin" });
    expect(res.status).toBe(201);
    return { user: user.user, key: res.body.data.key as string };
  };
  const demoted = await adminKeyOf("demoted-admin");
  const deactivated = await adminKeyOf("deactivated-admin");
  const demote = await request(server).patch(`/api/v1/organizations/${org}/users/${demoted.user.id}`).set(auth).send({ role: "member" });
  const deactivate = await request(server).patch(`/api/v1/organizations/${org}/users/${deactivated.user.id}`).set(auth).send({ active: false });
  expect([demote.status, deactivate.status]).toEqual([200, 200]);
  for (const [tenant, which] of [
    [tenant1, "one"],
    [tenant2, "two"],
  ]) {
    const put = await request(server)
      .put("/api/v1/tenant/compute/resources")
      .set(auth)
      .set("X-Service-Tenant-ID", tenant)
      .send({
        resources: [
          {
            resource_id: `${tag.toLowerCase()}-vm-${which}`,
            name: mark(`vm-${which}`),
            provider: "aws",
            region: "us-east-1",
            instance_type: mark(`type-${which}`),
            labels: { team: mark(`label-${which}`) },
          },
        ],
      });
    expect(put.status).toBe(200);
    // Spend of the tenant, written straight to the ledger (usage ingestion needs the pricing API).
    await ctx.prisma.$transaction((tx) =>
      insertLines(tx, org, [
        {
          tenantId: tenant,
          source: "focus_import",
          chargePeriodStart: "2026-10-01T00:00:00.000Z",
          chargePeriodEnd: "2026-10-02T00:00:00.000Z",
          chargeCategory: "Usage",
          serviceName: mark(`service-${which}`),
          billedCost: "1",
          effectiveCost: "1",
          listCost: "1",
          currency: "USD",
          priced: true,
        },
      ]),
    );
  }
  const bill = await request(server)
    .post(`/api/v1/organizations/${org}/spend/imports?file_name=${mark("bill")}`)
    .set(auth)
    .set("Content-Type", "text/csv")
    .send(focusCsvText([{ BillingAccountId: mark("account"), ServiceName: mark("service") }]));
  expect(bill.status).toBe(201);
  // A pending import session (one part of two): listed by .../spend/import-sessions and .../spend/imports.
  const part = await request(server)
    .post(`/api/v1/organizations/${org}/spend/imports?session=${mark("session")}&part=1&parts=2&file_name=${mark("part")}`)
    .set(auth)
    .set("Content-Type", "text/csv")
    .send(focusCsvText([{ BillingAccountId: mark("session-account") }]));
  expect(part.status).toBe(201);
  // A session started by its manifest, for GET .../import-sessions/{id}: its id carries no marker (a
  // path is logged), its data files do.
  const sessionId = `session-${randomUUID().slice(0, 8)}`;
  const manifest = await request(server)
    .post(`/api/v1/organizations/${org}/spend/imports?session=${sessionId}`)
    .set(auth)
    .set("Content-Type", "application/json")
    .send(JSON.stringify({ dataFiles: [`s3://${mark("bucket")}/export-1.csv.gz`, `s3://${mark("bucket")}/export-2.csv.gz`] }));
  expect(manifest.status).toBe(201);
  // A business metric with a labelled amount: its unit, description and label are markers.
  const metric = await request(server)
    .put(`/api/v1/organizations/${org}/business-metrics/orders`)
    .set(auth)
    .send({ unit: mark("metric-unit"), description: mark("metric") });
  const amounts = await request(server)
    .post(`/api/v1/organizations/${org}/business-metrics/orders/values`)
    .set(auth)
    .send({ values: [{ date: "2026-10-01", amount: "12", label: mark("metric-label") }] });
  expect([metric.status, amounts.status]).toEqual([200, 200]);
  // A draft statement by tenant (its recipients are the side's tenants).
  const statement = await request(server).post(`/api/v1/organizations/${org}/statements`).set(auth).send({ period: "2026-10", by: "tenant", currency: "USD" });
  expect(statement.status).toBe(201);
  const callers: Record<Caller | Lifecycle, string> = {
    owner: owner.token,
    admin: admin.token,
    member: member.token,
    viewer: viewer.token,
    keyAdmin: keyAdmin.key,
    keyMember: keyMember.key,
    keyViewer: keyViewer.key,
    keyOfDemotedAdmin: demoted.key,
    pending: await mintToken(ctx, { email: pendingEmail }),
    left: leaver.token,
  };
  return {
    org,
    tenant1,
    tenant2,
    callers,
    keyOfDeactivatedAdmin: deactivated.key,
    userId: member.user.id,
    ownerUserId: owner.owner.id,
    keyId: keyMember.id,
    invitationId: invitation.body.data.id,
    importId: bill.body.data.import.id,
    sessionId,
    webhookId: webhook.body.data.id,
    statementId: statement.body.data.id,
    markers: [tag],
  };
}

beforeAll(async () => {
  ctx = await createTestContext({}, { logger: log.logger });
  server = await listen(ctx.app);
  A = await buildSide("ALPHA");
  B = await buildSide("BRAVO");
}, 120_000);

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await ctx?.close();
});

interface Row {
  route: string;
  caller: Caller | Lifecycle;
  /** Path parameters, tenant header and body, given the caller's side (A) and the other side (B). */
  params?: Record<string, string>;
  tenant?: string;
  body?: unknown;
  /** The body's Content-Type when it is not JSON (a FOCUS file). */
  type?: string;
  query?: string;
  status: number;
  why: string;
}

const SPEND_QUERY = "?start=2026-10-01&end=2026-11-01&group_by=service_name";
const NONEXISTENT_ORG = "org_00000000000000000000000000";

/** A well-formed id for a tenant-scoped path's `{id}`: the tenant check answers before any lookup. */
function tenantPathIds(route: string): Record<string, string> | undefined {
  if (route.includes("{resource_id}")) return { resource_id: "bravo-vm-one" };
  return route.includes("{id}") ? { id: "probe_0000000000" } : undefined;
}
const NONEXISTENT_TENANT = "ten_00000000000000000000000000";

type Add = (callers: Caller[], rest: Omit<Row, "route" | "caller">) => void;

/** What the matrix needs of an organization- or caller-scoped operation (keyed by operationId below). */
interface IdentityCase {
  body?: unknown;
  /** The query string (from its "?") the operation needs to be parsed at all. */
  query?: string;
  /** The body's Content-Type when it is not JSON. */
  type?: string;
  /** The path ids besides org_id that name the target on a side. */
  ids?: (side: Side) => Record<string, string>;
  /** Rows besides those the declaration implies (another and a nonexistent organization, a role not in `roles`). */
  rows?: (add: Add, body: unknown) => void;
  /** Why an operation has no rows: it reaches nothing but the caller itself. */
  unscoped?: string;
}

/** The role each caller acts with (the demoted admin's key acts as its creator, now a member). */
const ROLE_OF: Record<Caller, Role> = {
  owner: "owner",
  admin: "admin",
  member: "member",
  viewer: "viewer",
  keyAdmin: "admin",
  keyMember: "member",
  keyViewer: "viewer",
  keyOfDemotedAdmin: "member",
};
const KEY_MANAGEMENT_REFUSED: Caller[] = ["member", "viewer", "keyAdmin", "keyMember", "keyViewer", "keyOfDemotedAdmin"];

function identityCases(): Record<string, IdentityCase> {
  const keysCannotPromote = (add: Add) => {
    for (const role of ["admin", "owner"]) {
      add(["keyAdmin"], {
        params: { org_id: A.org },
        body: { email: `promoted-${role}@example.com`, role },
        status: 403,
        why: `keys cannot invite an ${role}`,
      });
    }
  };
  const tenant = (side: Side) => ({ tenant_id: side.tenant1 });
  const tenantRows = (read: boolean) => (add: Add, body: unknown) => {
    add(CALLERS, { params: { org_id: A.org, tenant_id: B.tenant1 }, body, status: 403, why: "another organization's tenant under the own organization" });
    add(CALLERS, { params: { org_id: A.org, tenant_id: NONEXISTENT_TENANT }, body, status: 403, why: "nonexistent tenant" });
    if (read) add(NON_MANAGERS, { params: { org_id: A.org, tenant_id: A.tenant2 }, status: 403, why: "tenant out of reach" });
  };
  const webhookCase = (body?: unknown): IdentityCase => ({
    ids: (side) => ({ id: side.webhookId }),
    body,
    rows: (add) =>
      add(MANAGERS, { params: { org_id: A.org, id: B.webhookId }, body, status: 404, why: "webhook of another organization under the own organization" }),
  });
  const statementCase = (recipient = false): IdentityCase => ({
    ids: (side) => ({ id: side.statementId, ...(recipient ? { value: side.tenant1 } : {}) }),
    rows: (add) =>
      add(MANAGERS, {
        params: { org_id: A.org, id: B.statementId, ...(recipient ? { value: B.tenant1 } : {}) },
        status: 404,
        why: "statement of another organization under the own organization",
      }),
  });
  const invitee = (add: Add) => {
    add(NON_KEYS, { params: { id: B.invitationId }, status: 404, why: "someone else's invitation" });
    add(KEYS, { params: { id: B.invitationId }, status: 403, why: "keys cannot answer invitations" });
  };
  return {
    completeSignup: { unscoped: "creates an organization of the caller's own" },
    getMe: { unscoped: "describes the caller itself" },
    leaveOrganization: { rows: (add) => add(KEYS, { status: 403, why: "keys cannot leave" }) },
    getOrganization: {},
    updateOrganization: { body: { name: "Hijacked" } },
    getSettings: {},
    updateSettings: { body: { active_window_minutes: 30 } },
    listTenants: {},
    createTenant: { body: { name: "Intruder" } },
    getTenant: { ids: tenant, rows: tenantRows(true) },
    updateTenant: { ids: tenant, body: { name: "Hijacked" }, rows: tenantRows(false) },
    listUsers: {},
    inviteUser: { body: { email: "intruder@example.com", role: "viewer" }, rows: keysCannotPromote },
    getUser: {
      ids: (side) => ({ id: side.userId }),
      rows: (add) => add(CALLERS, { params: { org_id: A.org, id: B.userId }, status: 404, why: "user of another organization under the own organization" }),
    },
    updateUser: {
      ids: (side) => ({ id: side.userId }),
      body: { name: "Hijacked" },
      rows: (add, body) => {
        add(MANAGERS, { params: { org_id: A.org, id: B.userId }, body, status: 404, why: "user of another organization under the own organization" });
        add(NON_MANAGERS, { params: { org_id: A.org, id: A.ownerUserId }, body, status: 403, why: "role too low (another user)" });
      },
    },
    listInvitations: {},
    createInvitation: { body: { email: "intruder@example.com", role: "viewer" }, rows: keysCannotPromote },
    revokeInvitation: {
      ids: (side) => ({ id: side.invitationId }),
      rows: (add) =>
        add(MANAGERS, { params: { org_id: A.org, id: B.invitationId }, status: 404, why: "invitation of another organization under the own organization" }),
    },
    listReceivedInvitations: { rows: (add) => add(KEYS, { status: 403, why: "keys have no invitations" }) },
    createWebhook: { body: { url: "https://example.com/intruder", events: ["anomaly.detected"] } },
    listWebhooks: {},
    putDimension: { ids: () => ({ key: "team" }), body: { name: "Intruder", rules: [{ value: "x", match: { field: "region", op: "present" } }] } },
    listDimensions: {},
    getDimension: { ids: () => ({ key: "team" }) },
    listDimensionVersions: { ids: () => ({ key: "team" }) },
    previewDimension: {
      ids: () => ({ key: "team" }),
      query: "?start=2026-10-01&end=2026-10-08",
      body: { name: "Intruder", rules: [{ value: "x", match: { field: "region", op: "present" } }] },
    },
    deleteDimension: { ids: () => ({ key: "team" }) },
    putBusinessMetric: { ids: () => ({ name: "orders" }), body: { unit: "intruder" } },
    listBusinessMetrics: {},
    getBusinessMetric: { ids: () => ({ name: "orders" }) },
    deleteBusinessMetric: { ids: () => ({ name: "orders" }) },
    postBusinessMetricValues: { ids: () => ({ name: "orders" }), body: { mode: "replace", values: [{ date: "2026-10-01", amount: "0" }] } },
    listBusinessMetricValues: { ids: () => ({ name: "orders" }), query: "?start=2026-10-01&end=2026-10-08" },
    createStatement: { body: { period: "2026-10", by: "tenant", currency: "USD" } },
    listStatements: {},
    getStatement: statementCase(),
    finalizeStatement: statementCase(),
    deleteStatement: statementCase(),
    getRecipientStatement: statementCase(true),
    getRecipientStatementCsv: statementCase(true),
    getRecipientStatementPdf: statementCase(true),
    getWebhook: webhookCase(),
    updateWebhook: webhookCase({ description: "Hijacked" }),
    deleteWebhook: webhookCase(),
    testWebhook: webhookCase(),
    listWebhookDeliveries: webhookCase(),
    acceptInvitation: { rows: invitee },
    declineInvitation: { rows: invitee },
    // A well-formed FOCUS file: the refusal must come from the caller, not from the body.
    createSpendImport: { body: focusCsvText([{}]), type: "text/csv" },
    listSpendImports: {},
    listSpendImportSessions: {},
    getSpendImportSession: {
      ids: (side) => ({ id: side.sessionId }),
      rows: (add) =>
        add(MANAGERS, { params: { org_id: A.org, id: B.sessionId }, status: 404, why: "import session of another organization under the own organization" }),
    },
    getSpendImport: {
      ids: (side) => ({ id: side.importId }),
      rows: (add) =>
        add(MANAGERS, { params: { org_id: A.org, id: B.importId }, status: 404, why: "import of another organization under the own organization" }),
    },
    deleteSpendImport: {
      ids: (side) => ({ id: side.importId }),
      rows: (add) =>
        add(MANAGERS, { params: { org_id: A.org, id: B.importId }, status: 404, why: "import of another organization under the own organization" }),
    },
    getAllocationRules: {},
    // Another organization's tenant in a rule (a 400) is in spend-imports.test.ts: bodies are not swapped between sides here.
    putAllocationRules: { body: { rules: [] } },
    listApiKeys: { rows: (add) => add(KEY_MANAGEMENT_REFUSED, { status: 403, why: "role too low / keys cannot manage keys" }) },
    createApiKey: {
      body: { name: "k", role: "viewer" },
      rows: (add, body) => add(KEY_MANAGEMENT_REFUSED, { body, status: 403, why: "role too low / keys cannot manage keys" }),
    },
    revokeApiKey: {
      rows: (add) => {
        add(["owner", "admin"], { params: { id: B.keyId }, status: 404, why: "another organization's key" });
        add(KEY_MANAGEMENT_REFUSED, { params: { id: B.keyId }, status: 403, why: "role too low / keys cannot manage keys" });
      },
    },
    getOrganizationSpend: {},
    exportOrganizationSpend: {},
    listCommitments: {},
    getCommitmentCoverage: {},
    getCommitmentRecommendations: {},
  };
}

const declaredOperations = Object.values(mainApiRoutes) as RouteDefinition[];

/** Every row of the matrix: callers of organization A against B, nonexistent ids and too low roles. */
function matrix(): Row[] {
  const rows: Row[] = [];
  const add = (route: string, callers: Caller[], rest: Omit<Row, "route" | "caller">) => {
    for (const caller of callers) rows.push({ route, caller, ...rest });
  };
  const cases = identityCases();
  // Organization- and caller-scoped operations: the rows their declaration implies, then their own.
  for (const route of declaredOperations.filter((r) => r.scope === "organization" || r.scope === "caller")) {
    const c = cases[route.operationId];
    if (!c) throw new Error(`${route.operationId}: no case in the isolation matrix`);
    const key = operationKey(route);
    const addTo: Add = (callers, rest) => add(key, callers, rest);
    if (route.scope === "organization") {
      const ids = c.ids ?? (() => ({}));
      addTo(CALLERS, { params: { org_id: B.org, ...ids(B) }, body: c.body, type: c.type, query: c.query, status: 403, why: "another organization" });
      addTo(CALLERS, {
        params: { org_id: NONEXISTENT_ORG, ...ids(B) },
        body: c.body,
        type: c.type,
        query: c.query,
        status: 403,
        why: "nonexistent organization",
      });
      const roles = route.roles;
      if (roles)
        addTo(
          CALLERS.filter((caller) => !roles.includes(ROLE_OF[caller])),
          { params: { org_id: A.org, ...ids(A) }, body: c.body, type: c.type, query: c.query, status: 403, why: "role too low" },
        );
    }
    c.rows?.(addTo, c.body);
  }
  const unknown = Object.keys(cases).filter((id) => !declaredOperations.some((route) => route.operationId === id && route.scope !== "tenant"));
  if (unknown.length) throw new Error(`isolation cases of no organization- or caller-scoped operation: ${unknown.join(", ")}`);

  // Tenant-scoped operations come from the route table; a body per operation that needs one.
  const bodies: Record<string, unknown> = {
    upsertResources: { resources: [{ resource_id: "intruder", name: "intruder" }] },
    ingestMetrics: { samples: [{ resource_id: "bravo-vm-one", timestamp: new Date().toISOString(), cpu_utilization: 1 }] },
    recordHeartbeats: { resource_ids: ["bravo-vm-one"] },
    ingestPods: {
      samples: [
        { cluster: "c", namespace: "n", pod: "p", node: "bravo-vm-one", timestamp: new Date().toISOString(), cpu_request_cores: 1, memory_request_gb: 1 },
      ],
    },
    putNodePoolSetting: { cluster: "c", node_pool: "p", min_nodes: 2 },
    ingestUsage: { usage: [{ resource_id: "intruder", kind: "model", timestamp: "2026-10-01T00:00:00.000Z", quantities: { input: 1 }, event_id: "intruder" }] },
    repriceUsage: {},
    createBudget: { name: "Intruder", period: "monthly", amount: "1", currency: "USD", thresholds: [] },
    updateBudget: { name: "Hijacked" },
    detectAnomalies: {},
    updateAnomaly: { feedback: "no" },
    updateRecommendationState: { state: "dismissed", reason: "intruder" },
  };
  const compute = declaredOperations
    .filter((route) => route.scope === "tenant")
    .map((route): [string, unknown, "read" | "write" | "manage", Record<string, string> | undefined] => {
      if (route.body && !(route.operationId in bodies)) throw new Error(`${route.operationId}: no body in the isolation matrix`);
      const managersOnly = route.roles && !route.roles.includes("member");
      return [operationKey(route), bodies[route.operationId], managersOnly ? "manage" : route.write ? "write" : "read", tenantPathIds(operationKey(route))];
    });
  for (const [route, body, kind, params] of compute) {
    add(route, CALLERS, { params, tenant: B.tenant1, body, status: 403, why: "another organization's tenant" });
    add(route, CALLERS, { params, tenant: B.tenant2, body, status: 403, why: "another organization's tenant" });
    add(route, CALLERS, { params, tenant: NONEXISTENT_TENANT, body, status: 403, why: "nonexistent tenant" });
    add(route, NON_MANAGERS, { params, tenant: A.tenant2, body, status: 403, why: "tenant out of reach" });
    if (kind === "write") add(route, READ_ONLY, { params, tenant: A.tenant1, body, status: 403, why: "viewers change nothing" });
    if (kind === "manage") add(route, NON_MANAGERS, { params, tenant: A.tenant1, body, status: 403, why: "only owners and admins" });
  }
  return rows;
}

/** Routes outside any organization or tenant: public, tooling, and the operations that reach only the caller itself. */
const UNSCOPED = new Set([
  ...declaredOperations.filter((route) => route.scope === "none").map(operationKey),
  ...declaredOperations.filter((route) => identityCases()[route.operationId]?.unscoped).map(operationKey),
  ...TOOLING_ROUTES,
]);

async function call(row: Row, side: Side, credential = side.callers[row.caller]): Promise<{ res: request.Response; logs: string }> {
  let path = row.route.split(" ")[1];
  for (const [name, value] of Object.entries(row.params ?? {})) path = path.replace(`{${name}}`, value);
  const method = row.route.split(" ")[0].toLowerCase() as "get" | "post" | "put" | "patch" | "delete";
  log.lines.length = 0;
  let req = request(server)
    [method](path + (row.query ?? ""))
    .set("Authorization", `Bearer ${credential}`);
  if (row.tenant) req = req.set("X-Service-Tenant-ID", row.tenant);
  if (row.type) req = req.set("Content-Type", row.type);
  const res = await (row.body === undefined ? req : req.send(row.body as object));
  await new Promise((resolve) => setImmediate(resolve));
  return { res, logs: log.lines.join("") };
}

function leaks(text: string, other: Side): string[] {
  return other.markers.filter((m) => text.includes(m));
}

test("every organization- or tenant-scoped route is in the matrix", () => {
  const covered = new Set(matrix().map((r) => r.route));
  const scoped = listRoutes(ctx.app)
    .map(routeKey)
    .filter((k) => !UNSCOPED.has(k));
  expect(scoped.filter((k) => !covered.has(k))).toEqual([]);
  expect([...covered].filter((k) => !scoped.includes(k))).toEqual([]);
});

test("positive control: the markers do show up where the caller may see them", async () => {
  const { res, logs } = await call({ route: "GET /api/v1/tenant/compute/recommendations", caller: "owner", tenant: B.tenant1, status: 200, why: "" }, B);
  expect(res.status).toBe(200);
  expect(leaks(res.text, B)).toEqual(["BRAVO"]);
  expect(logs).toContain("/api/v1/tenant/compute/recommendations");
  const users = await call({ route: "GET /api/v1/organizations/{org_id}/users", caller: "owner", params: { org_id: A.org }, status: 200, why: "" }, A);
  expect(users.res.text).toContain("ALPHA-member-name-MARKER");
});

const countIdentities = () =>
  ctx.prisma.$queryRawUnsafe<Array<{ n: number }>>(
    `SELECT (SELECT count(*) FROM organizations) + (SELECT count(*) FROM tenants) + (SELECT count(*) FROM users) AS n`,
  );

/** A's callers against B (ids as built), or B's callers against A (ids swapped). */
function directed(self: Side, other: Side, row: Row): Row {
  const swap = (v: string) =>
    ({
      [B.org]: other.org,
      [B.tenant1]: other.tenant1,
      [B.tenant2]: other.tenant2,
      [B.userId]: other.userId,
      [B.keyId]: other.keyId,
      [B.invitationId]: other.invitationId,
      [B.importId]: other.importId,
      [B.sessionId]: other.sessionId,
      [B.webhookId]: other.webhookId,
      [B.statementId]: other.statementId,
      [A.org]: self.org,
      [A.tenant1]: self.tenant1,
      [A.tenant2]: self.tenant2,
      [A.userId]: self.userId,
      [A.ownerUserId]: self.ownerUserId,
      [A.invitationId]: self.invitationId,
      [A.importId]: self.importId,
      [A.sessionId]: self.sessionId,
      [A.webhookId]: self.webhookId,
      [A.statementId]: self.statementId,
    })[v] ?? v;
  return {
    ...row,
    params: row.params && Object.fromEntries(Object.entries(row.params).map(([k, v]) => [k, swap(v)])),
    tenant: row.tenant && swap(row.tenant),
  };
}

// Every scoped route x every caller, both directions, in parts: each part is bounded on its own,
// so a loaded machine (another test run beside this one) slows the matrix without failing it.
const PARTS = 8;
describe("cross-organization, cross-tenant and too-low-role calls answer the decided status and leak nothing", () => {
  let before: Array<{ n: number }>;
  beforeAll(async () => {
    before = await countIdentities();
  });

  for (const direction of ["A against B", "B against A"] as const) {
    for (let part = 0; part < PARTS; part++) {
      test(`${direction}, part ${part + 1} of ${PARTS}`, async () => {
        const [self, other] = direction === "A against B" ? [A, B] : [B, A];
        const failures: string[] = [];
        for (const row of matrix().filter((_, index) => index % PARTS === part)) {
          const mapped = directed(self, other, row);
          const { res, logs } = await call(mapped, self);
          const label = `${self.markers[0]} ${row.caller} ${row.route} ${JSON.stringify(mapped.params ?? {})} tenant=${mapped.tenant ?? "-"} (${row.why})`;
          if (res.status !== row.status) failures.push(`${label}: ${res.status} (expected ${row.status}) ${res.text.slice(0, 200)}`);
          if (!ErrorEnvelope.safeParse(res.body).success) failures.push(`${label}: body is not the error envelope: ${res.text.slice(0, 200)}`);
          const bodyLeaks = leaks(res.text + JSON.stringify(res.headers), other);
          if (bodyLeaks.length) failures.push(`${label}: response carries ${bodyLeaks.join(", ")}`);
          const logLeaks = leaks(logs, other);
          if (logLeaks.length) failures.push(`${label}: log lines carry ${logLeaks.join(", ")}`);
        }
        expect(failures).toEqual([]);
      }, 120_000);
    }
  }

  test("the calls created or removed no organization, tenant or user", async () => {
    expect(await countIdentities()).toEqual(before);
  });
});

/**
 * Every organization- or tenant-scoped route with the caller's own side's ids: what an owner could
 * reach. The lifecycle callers reach none of it.
 */
function ownReach(side: Side, caller: Lifecycle): Row[] {
  const routes = [...new Set(matrix().map((r) => r.route))].filter((route) => !route.includes(" /api/v1/invitations"));
  return [...routes, "GET /api/v1/me"].map((route) => {
    const params: Record<string, string> = { org_id: side.org, tenant_id: side.tenant1 };
    if (route.includes("/users/{id}")) params.id = side.userId;
    else if (route.includes("/invitations/{id}")) params.id = side.invitationId;
    else if (route.includes("/api-keys/{id}")) params.id = side.keyId;
    else if (route.includes("/spend/imports/{id}")) params.id = side.importId;
    else if (route.includes("/spend/import-sessions/{id}")) params.id = side.sessionId;
    else if (route.includes("/webhooks/{id}")) params.id = side.webhookId;
    else if (route.includes("/dimensions/{key}")) params.key = "team";
    else if (route.includes("/business-metrics/{name}")) params.name = "orders";
    else if (route.includes("/statements/{id}")) {
      params.id = side.statementId;
      params.value = side.tenant1;
    } else if (route.includes("/tenant/")) Object.assign(params, tenantPathIds(route));
    const withBody = matrix().find((r) => r.route === route && r.body !== undefined);
    return {
      route,
      caller,
      params,
      body: withBody?.body,
      type: withBody?.type,
      query: withBody?.query,
      tenant: route.includes(" /api/v1/tenant/") ? side.tenant1 : undefined,
      status: 403,
      why: caller === "pending" ? "invited, not accepted" : "left the organization",
    };
  });
}

describe("lifecycle: an identity with a pending invitation and one that left the organization reach nothing of it", () => {
  const count = () =>
    ctx.prisma.$queryRawUnsafe<Array<{ n: number }>>(
      `SELECT (SELECT count(*) FROM tenants) + (SELECT count(*) FROM users WHERE active) + (SELECT count(*) FROM identities) + (SELECT count(*) FROM api_keys) + (SELECT count(*) FROM invitations WHERE accepted_at IS NULL AND revoked_at IS NULL) AS n`,
    );
  let before: Array<{ n: number }>;
  beforeAll(async () => {
    before = await count();
  });

  // One test per side and caller: each bounded on its own on a loaded machine.
  for (const sideName of ["A", "B"] as const) {
    for (const caller of LIFECYCLE) {
      test(`${caller} of ${sideName}: every route of its own organization is a 403 that carries nothing`, async () => {
        const self = sideName === "A" ? A : B;
        const failures: string[] = [];
        for (const row of ownReach(self, caller)) {
          const { res, logs } = await call(row, self);
          const label = `${self.markers[0]} ${caller} ${row.route} (${row.why})`;
          if (res.status !== 403) failures.push(`${label}: ${res.status} (expected 403) ${res.text.slice(0, 200)}`);
          if (!ErrorEnvelope.safeParse(res.body).success) failures.push(`${label}: body is not the error envelope: ${res.text.slice(0, 200)}`);
          const found = leaks(res.text + JSON.stringify(res.headers) + logs, self);
          if (found.length) failures.push(`${label}: carries ${found.join(", ")}`);
        }
        expect(failures).toEqual([]);
      }, 120_000);
    }
  }

  test("the identity that left sees no invitation; the invited one sees only its invitation", async () => {
    for (const self of [A, B]) {
      const left = await call({ route: "GET /api/v1/invitations", caller: "left", status: 200, why: "" }, self);
      expect(left.res.status).toBe(200);
      expect(left.res.body.data.items).toEqual([]);
      const pending = await call({ route: "GET /api/v1/invitations", caller: "pending", status: 200, why: "" }, self);
      expect(pending.res.body.data.items.map((i: { id: string }) => i.id)).toEqual([self.invitationId]);
    }
  });

  test("the calls changed no tenant, user, identity, key or invitation", async () => {
    expect(await count()).toEqual(before);
  });
});

test("lists show only the caller's own organization", async () => {
  const failures: string[] = [];
  for (const [self, other] of [
    [A, B],
    [B, A],
  ] as Array<[Side, Side]>) {
    for (const caller of CALLERS) {
      const reads: Row[] = [
        { route: "GET /api/v1/me", caller, status: 200, why: "" },
        { route: "GET /api/v1/organizations/{org_id}/users", caller, params: { org_id: self.org }, status: 200, why: "" },
        { route: "GET /api/v1/organizations/{org_id}/tenants", caller, params: { org_id: self.org }, query: "?include_archived=true", status: 200, why: "" },
        { route: "GET /api/v1/tenant/compute/recommendations", caller, tenant: self.tenant1, status: 200, why: "" },
        { route: "GET /api/v1/tenant/compute/recommendations/summary", caller, tenant: self.tenant1, status: 200, why: "" },
        { route: "GET /api/v1/tenant/spend", caller, tenant: self.tenant1, query: SPEND_QUERY, status: 200, why: "" },
        { route: "GET /api/v1/tenant/spend/lines", caller, tenant: self.tenant1, query: "?start=2026-10-01&end=2026-11-01", status: 200, why: "" },
        { route: "GET /api/v1/tenant/spend/forecast", caller, tenant: self.tenant1, query: "", status: 200, why: "" },
        { route: "GET /api/v1/organizations/{org_id}/spend", caller, params: { org_id: self.org }, query: SPEND_QUERY, status: 200, why: "" },
        { route: "GET /api/v1/tenant/spend/export", caller, tenant: self.tenant1, query: SPEND_QUERY, status: 200, why: "" },
        { route: "GET /api/v1/organizations/{org_id}/spend/export", caller, params: { org_id: self.org }, query: SPEND_QUERY, status: 200, why: "" },
        ...(USERS_ONLY.has(caller) && MANAGERS.includes(caller) ? [{ route: "GET /api/v1/settings/api-keys", caller, status: 200, why: "" }] : []),
        ...(MANAGERS.includes(caller)
          ? [
              { route: "GET /api/v1/organizations/{org_id}/invitations", caller, params: { org_id: self.org }, status: 200, why: "" },
              { route: "GET /api/v1/organizations/{org_id}/webhooks", caller, params: { org_id: self.org }, status: 200, why: "" },
            ]
          : []),
      ];
      for (const row of reads) {
        const { res, logs } = await call(row, self);
        const label = `${self.markers[0]} ${caller} ${row.route}`;
        if (res.status !== 200) failures.push(`${label}: ${res.status} ${res.text.slice(0, 200)}`);
        // (The summary carries counts only while nothing was analyzed, the forecast amounts only: no names to look for.)
        if (!/\/(summary|forecast)$/.test(row.route) && !res.text.includes(self.markers[0])) failures.push(`${label}: own data missing`);
        const found = leaks(res.text + JSON.stringify(res.headers) + logs, other);
        if (found.length) failures.push(`${label}: carries ${found.join(", ")}`);
      }
    }
  }
  expect(failures).toEqual([]);
}, 120_000);

test("the admin key of a deactivated admin is refused (401) on every route, also within its own organization", async () => {
  const failures: string[] = [];
  const before = await ctx.prisma.$queryRawUnsafe<Array<{ n: number }>>(
    `SELECT (SELECT count(*) FROM tenants) + (SELECT count(*) FROM users) + (SELECT count(*) FROM api_keys) AS n`,
  );
  const firstRowOf = new Map<string, Row>();
  for (const row of matrix()) if (!firstRowOf.has(row.route)) firstRowOf.set(row.route, row);
  const rows: Row[] = [{ route: "GET /api/v1/me", caller: "owner", status: 401, why: "" }, ...firstRowOf.values()];
  for (const side of [A, B]) {
    const own = { org_id: side.org, tenant_id: side.tenant1, id: side.userId };
    for (const row of rows) {
      const probe: Row = {
        ...row,
        params: row.params && Object.fromEntries(Object.keys(row.params).map((k) => [k, own[k as keyof typeof own] ?? side.keyId])),
        tenant: row.tenant && side.tenant1,
      };
      if (row.route.startsWith("DELETE /api/v1/settings/api-keys")) probe.params = { id: side.keyId };
      const { res } = await call(probe, side, side.keyOfDeactivatedAdmin);
      const label = `${side.markers[0]} keyOfDeactivatedAdmin ${row.route}`;
      if (res.status !== 401) failures.push(`${label}: ${res.status} ${res.text.slice(0, 200)}`);
      if (!ErrorEnvelope.safeParse(res.body).success) failures.push(`${label}: body is not the error envelope: ${res.text.slice(0, 200)}`);
    }
  }
  expect(failures).toEqual([]);
  const after = await ctx.prisma.$queryRawUnsafe<Array<{ n: number }>>(
    `SELECT (SELECT count(*) FROM tenants) + (SELECT count(*) FROM users) + (SELECT count(*) FROM api_keys) AS n`,
  );
  expect(after).toEqual(before);
}, 120_000);
