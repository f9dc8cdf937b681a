// A malformed request is a 400 before any authorization decision, whoever sends it: a caller whose
// credential verifies but who has no organization (or was deactivated) must learn that its request
// is malformed, not that it is refused. Every route of the app that takes input is checked, with
// one malformed part at a time; routes come from the app itself and their inputs from its document.
import { listRoutes } from "@cloudcost/http";
import { mainApiDocument } from "@cloudcost/openapi";
import request from "supertest";
import { createTestContext, type TestContext } from "./helpers/context";
import { addUser, expectError, mintToken, signUp, uniqueEmail } from "./helpers/identity";

interface Parameter {
  in: "path" | "query" | "header" | "cookie";
  name: string;
  schema?: { maxLength?: number; $ref?: string };
}
interface Operation {
  parameters?: Parameter[];
  requestBody?: unknown;
  security?: unknown[];
}

interface MalformedCase {
  route: string;
  part: string;
  /** 400, or 415 for a JSON body sent to an operation that takes a file. */
  status?: number;
  send(token: string): request.Test;
}

// 65 characters: one more than any id this API generates (a customer's own id, such as a resource_id,
// declares its longer bound, and gets one more than that); 600 characters: more than any query value takes.
const OVERLONG_ID = "a".repeat(65);
const OVERLONG_QUERY_VALUE = "x".repeat(600);
const WELL_FORMED_ID = "id_0123456789";

function operations(): Map<string, Operation> {
  const byRoute = new Map<string, Operation>();
  const paths = mainApiDocument().paths as Record<string, Record<string, Operation>>;
  for (const [path, item] of Object.entries(paths)) {
    for (const [method, operation] of Object.entries(item)) byRoute.set(`${method.toUpperCase()} ${path}`, operation);
  }
  return byRoute;
}

/** A parameter's schema, through its component reference. */
function schemaOf(schema: Parameter["schema"]): Parameter["schema"] {
  if (!schema?.$ref) return schema;
  const components = (mainApiDocument().components?.schemas ?? {}) as Record<string, Parameter["schema"]>;
  return components[schema.$ref.replace("#/components/schemas/", "")];
}

/** One request per input the operation declares, with that input malformed and every other part well formed. */
function malformedCases(method: string, path: string, operation: Operation): MalformedCase[] {
  const pathParams = [...path.matchAll(/\{([A-Za-z0-9_]+)\}/g)].map((m) => m[1]);
  const parameters = operation.parameters ?? [];
  const takesTenant = parameters.some((p) => p.in === "header" && p.name === "X-Service-Tenant-ID");
  const build = (token: string, parts: { params?: Record<string, string>; query?: Record<string, string>; tenant?: string; body?: unknown }) => {
    const url = path.replace(/\{([A-Za-z0-9_]+)\}/g, (_m, name: string) => encodeURIComponent(parts.params?.[name] ?? WELL_FORMED_ID));
    let req = (request as unknown as (app: unknown) => Record<string, (url: string) => request.Test>)(ctx.app)[method.toLowerCase()](url);
    req = req.set("Authorization", `Bearer ${token}`);
    if (takesTenant) req = req.set("X-Service-Tenant-ID", parts.tenant ?? WELL_FORMED_ID);
    if (parts.query) req = req.query(parts.query);
    if (parts.body !== undefined) req = req.send(parts.body as object);
    return req;
  };
  const route = `${method} ${path}`;
  const cases: MalformedCase[] = [];
  for (const name of pathParams) {
    const declared = schemaOf(parameters.find((p) => p.in === "path" && p.name === name)?.schema)?.maxLength;
    const overlong = declared === undefined ? OVERLONG_ID : "a".repeat(declared + 1);
    cases.push({ route, part: `path parameter ${name}`, send: (t) => build(t, { params: { [name]: overlong } }) });
  }
  for (const p of parameters.filter((x) => x.in === "query")) {
    cases.push({ route, part: `query parameter ${p.name}`, send: (t) => build(t, { query: { [p.name]: OVERLONG_QUERY_VALUE } }) });
  }
  if (takesTenant) cases.push({ route, part: "X-Service-Tenant-ID", send: (t) => build(t, { tenant: "not a tenant id!" }) });
  // No body schema of this API accepts an array.
  if (operation.requestBody) {
    const json = "application/json" in ((operation.requestBody as { content?: object }).content ?? {});
    cases.push({ route, part: "body", status: json ? 400 : 415, send: (t) => build(t, { body: [] }) });
  }
  return cases;
}

let ctx: TestContext;
let callers: Record<"no organization" | "deactivated", string>;
let cases: MalformedCase[];

beforeAll(async () => {
  ctx = await createTestContext();
  const owner = await signUp(ctx, { company: "Order Org" });
  const member = await addUser(ctx, { orgId: owner.organization.id, ownerToken: owner.token, role: "member" });
  await request(ctx.app).get("/api/v1/me").set("Authorization", `Bearer ${member.token}`).expect(200); // links the identity
  await request(ctx.app)
    .patch(`/api/v1/organizations/${owner.organization.id}/users/${member.user.id}`)
    .set("Authorization", `Bearer ${owner.token}`)
    .send({ active: false })
    .expect(200);
  callers = { "no organization": await mintToken(ctx, { email: uniqueEmail("stranger") }), deactivated: member.token };

  const documented = operations();
  cases = [];
  for (const { method, path } of listRoutes(ctx.app)) {
    const operation = documented.get(`${method.toUpperCase()} ${path}`);
    // Public routes take no credential and no input; the OpenAPI test checks every route is documented.
    if (!operation?.security?.length) continue;
    cases.push(...malformedCases(method.toUpperCase(), path, operation));
  }
});

afterAll(async () => {
  await ctx?.close();
});

test("the app has credentialed routes with input to check", () => {
  const routes = new Set(cases.map((c) => c.route));
  expect(routes.size).toBeGreaterThanOrEqual(20);
  expect(routes).toContain("GET /api/v1/organizations/{org_id}/users/{id}");
  expect(routes).toContain("PUT /api/v1/tenant/compute/resources");
});

test.each(["no organization", "deactivated"] as const)("the %s caller is refused a well-formed request (control)", async (kind) => {
  expectError(await request(ctx.app).get("/api/v1/me").set("Authorization", `Bearer ${callers[kind]}`), 403);
  const wellFormed = await request(ctx.app)
    .get(`/api/v1/organizations/${WELL_FORMED_ID}/users/${WELL_FORMED_ID}`)
    .set("Authorization", `Bearer ${callers[kind]}`);
  expectError(wellFormed, 403);
});

test.each(["no organization", "deactivated"] as const)("a malformed request of the %s caller is a 400 on every route", async (kind) => {
  const wrong: string[] = [];
  for (const c of cases) {
    const res = await c.send(callers[kind]);
    if (res.status !== (c.status ?? 400)) wrong.push(`${c.route} (${c.part}): ${res.status} ${res.body?.message ?? ""}`);
  }
  expect(wrong).toEqual([]);
});

test("the example of the report: a 65-character user id answers 400 naming the id", async () => {
  const res = await request(ctx.app)
    .get(`/api/v1/organizations/${WELL_FORMED_ID}/users/${OVERLONG_ID}`)
    .set("Authorization", `Bearer ${callers["no organization"]}`);
  expectError(res, 400, /id/);
});

test("an Idempotency-Key of a caller without an organization stores nothing, whatever the request", async () => {
  const count = async () => (await ctx.db.sql.query<{ n: number }>("SELECT count(*)::int AS n FROM idempotency_keys"))[0].n;
  const before = await count();
  const post = (body: unknown) =>
    request(ctx.app)
      .post(`/api/v1/organizations/${WELL_FORMED_ID}/tenants`)
      .set("Authorization", `Bearer ${callers["no organization"]}`)
      .set("Idempotency-Key", "order-key-1")
      .send(body as object);
  expectError(await post([]), 400);
  expectError(await post({ name: "Tenant" }), 403, /does not belong to any organization/);
  expectError(await post({ name: "Tenant" }), 403, /does not belong to any organization/);
  expect(await count()).toBe(before);
});
