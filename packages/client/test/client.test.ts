import { defineRoute, mainApiRoutes } from "@cloudcost/contracts";
import { z } from "zod";
import { ApiError, bindRoutes, createClient, type ClientOptions, isApiError } from "../src/index.js";

interface Sent {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: unknown;
  duplex?: string;
}

/** A fetch that records each request and answers with `reply`. */
function fakeFetch(reply: (sent: Sent) => Response = () => json(200, {})) {
  const sent: Sent[] = [];
  const fetch = (async (url: string, init: RequestInit & { duplex?: string }) => {
    const request: Sent = { url, method: init.method ?? "GET", headers: init.headers as Record<string, string>, body: init.body, duplex: init.duplex };
    sent.push(request);
    return reply(request);
  }) as unknown as typeof globalThis.fetch;
  return { fetch, sent };
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json; charset=utf-8", ...headers } });
const envelope = (data: unknown) => ({ message: "OK", status: "success", data });

const NOW = "2026-11-21T22:47:22.123Z";
const budget = {
  id: "bud_1",
  tenant_id: "ten_1",
  name: "Production monthly",
  period: "monthly",
  amount: "1000",
  currency: "USD",
  metric: "billed_cost",
  filters: {},
  thresholds: [{ percent: 80, kind: "actual" }],
  created_at: NOW,
  updated_at: NOW,
  status: {
    period_start: "2026-11-01T00:00:00.000Z",
    period_end: "2026-12-01T00:00:00.000Z",
    spent: "10",
    forecast: "20",
    percent_used: "1",
    state: "ok",
    crossed: [],
  },
};

function client(reply?: (sent: Sent) => Response, options: ClientOptions = {}) {
  const fake = fakeFetch(reply);
  return {
    ...fake,
    client: createClient({ mainUrl: "https://costs.example.com/", pricingUrl: "/pricing", token: "tok", apiKey: "bl_key", fetch: fake.fetch, ...options }),
  };
}

describe("requests", () => {
  it("fills the path template with encoded params and sends the bearer token and the tenant header", async () => {
    const { client: c, sent } = client(() => json(200, envelope(budget)));
    await c.main.getBudget({ params: { id: "bud 1/2?" }, tenant: "ten_1" }).catch(() => undefined);
    expect(sent[0].url).toBe("https://costs.example.com/api/v1/tenant/budgets/bud%201%2F2%3F");
    expect(sent[0].method).toBe("GET");
    expect(sent[0].headers).toMatchObject({ Authorization: "Bearer tok", "X-Service-Tenant-ID": "ten_1", Accept: "application/json" });
  });

  it("writes arrays as repeated parameters by default, and as a, b lists with arrayFormat comma", async () => {
    const page = envelope({ items: [], next_cursor: null });
    const repeat = client(() => json(200, page));
    await repeat.client.main.listRecommendations({ tenant: "t", query: { action: ["DOWNSIZE", "TERMINATE"], provider: "aws", limit: 20, active: "true" } });
    expect(repeat.sent[0].url).toBe(
      "https://costs.example.com/api/v1/tenant/compute/recommendations?action=DOWNSIZE&action=TERMINATE&provider=aws&limit=20&active=true",
    );

    const comma = client(() => json(200, page), { arrayFormat: "comma" });
    await comma.client.main.listRecommendations({ tenant: "t", query: { action: ["DOWNSIZE", "TERMINATE"], region: [], cursor: undefined } });
    expect(comma.sent[0].url).toBe("https://costs.example.com/api/v1/tenant/compute/recommendations?action=DOWNSIZE%2CTERMINATE");
  });

  it("sends Idempotency-Key on idempotent routes and refuses it elsewhere", async () => {
    const { client: c, sent } = client(() => json(201, envelope(budget)));
    const body = { name: "b", period: "monthly" as const, amount: "10", currency: "USD", thresholds: [{ percent: 80, kind: "actual" as const }] };
    await c.main.createBudget({ tenant: "ten_1", body, idempotencyKey: "key-1" });
    expect(sent[0]).toMatchObject({ method: "POST", headers: { "Idempotency-Key": "key-1", "Content-Type": "application/json" } });
    expect(JSON.parse(sent[0].body as string)).toEqual(body);
    // @ts-expect-error updateBudget is not idempotent: the option does not type-check
    await expect(c.main.updateBudget({ tenant: "t", params: { id: "b" }, body: {}, idempotencyKey: "k" })).rejects.toThrow(TypeError);
  });

  it("requires the tenant of tenant-scoped routes", async () => {
    const { client: c, sent } = client();
    // @ts-expect-error the tenant is a required input
    await expect(c.main.listBudgets({})).rejects.toThrow(/tenant is required/);
    expect(sent).toHaveLength(0);
  });

  it("sends the pricing API key as X-API-Key to the pricing API's base", async () => {
    const { client: c, sent } = client(() => json(200, { account_id: "acct_1", key_id: "key_1", key_role: "admin" }));
    await c.pricing.getAccount().catch(() => undefined);
    expect(sent[0].url).toBe("/pricing/v1/pricing/account");
    expect(sent[0].headers["X-API-Key"]).toBe("bl_key");
    expect(sent[0].headers.Authorization).toBeUndefined();
  });

  it("asks a token function before each request, and a call may use its own credential", async () => {
    let n = 0;
    const { client: c, sent } = client(() => json(200, envelope(budget)), { token: () => `tok-${++n}` });
    await c.main.getBudget({ params: { id: "b" }, tenant: "t" });
    await c.main.getBudget({ params: { id: "b" }, tenant: "t", credential: "other" });
    expect(sent.map((s) => s.headers.Authorization)).toEqual(["Bearer tok-1", "Bearer other"]);
  });
});

describe("answers", () => {
  it("parses the reply with the declared schema and unwraps the main API's envelope", async () => {
    const { client: c } = client(() => json(200, envelope(budget)));
    const got = await c.main.getBudget({ params: { id: "bud_1" }, tenant: "ten_1" });
    expect(got).toEqual(budget);
    const state: "ok" | "warning" | "exceeded" = got.status.state;
    expect(state).toBe("ok");
    const reply = await c.main.getBudget.reply({ params: { id: "bud_1" }, tenant: "ten_1" });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual(envelope(budget));
  });

  it("resolves a 204 with undefined", async () => {
    const { client: c } = client(() => new Response(null, { status: 204 }));
    await expect(c.main.deleteBudget({ params: { id: "b" }, tenant: "t" })).resolves.toBeUndefined();
  });

  it("detects an answer that does not match its schema", async () => {
    const { client: c } = client(() => json(200, envelope({ ...budget, amount: 1000 })));
    const error = await c.main.getBudget({ params: { id: "b" }, tenant: "t" }).catch((e: unknown) => e);
    expect(isApiError(error, "invalid_response")).toBe(true);
    expect((error as ApiError).message).toMatch(/data\.amount/);
    expect((error as ApiError).status).toBe(200);
  });

  it("detects an undeclared success status, and skips parsing with validateResponses false", async () => {
    const { client: c } = client(() => json(202, envelope(budget)));
    await expect(c.main.getBudget({ params: { id: "b" }, tenant: "t" })).rejects.toMatchObject({ code: "invalid_response" });
    const loose = client(() => json(200, envelope({ whatever: true })), { validateResponses: false });
    await expect(loose.client.main.getBudget({ params: { id: "b" }, tenant: "t" })).resolves.toEqual({ whatever: true });
  });
});

describe("errors", () => {
  it("throws the main API's envelope error with the X-Error-Code code", async () => {
    const onError = jest.fn();
    const { client: c } = client(() => json(404, { message: "No such budget", status: "error" }, { "X-Error-Code": "not_found" }), { onError });
    const error = await c.main.getBudget({ params: { id: "b" }, tenant: "t" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 404, code: "not_found", message: "No such budget", operationId: "getBudget" });
    expect(onError).toHaveBeenCalledWith(error, { credentialSent: true });
  });

  it("throws a pricing problem document with its code, field errors and Retry-After", async () => {
    const problem = {
      type: "urn:cloudcost:problem:invalid_request",
      title: "Bad Request",
      status: 400,
      detail: "Invalid request body",
      instance: "/v1/pricing/usage",
      code: "invalid_request",
      errors: [{ path: "usage.0.kind", message: "Invalid option" }],
      request_id: "req_1",
    };
    const { client: c } = client(
      () => new Response(JSON.stringify(problem), { status: 400, headers: { "content-type": "application/problem+json", "Retry-After": "3" } }),
    );
    const error = (await c.pricing.priceUsage({ body: { usage: [] } }).catch((e: unknown) => e)) as ApiError;
    expect(error).toMatchObject({ status: 400, code: "invalid_request", message: "Invalid request body", requestId: "req_1", retryAfterSeconds: 3 });
    expect(error.fieldErrors).toEqual([{ path: "usage.0.kind", message: "Invalid option" }]);
  });

  it("throws a marketplace {error} and derives a code from the status when the answer names none", async () => {
    const { client: c } = client(() => json(409, { error: "A pin references the entry" }));
    await expect(c.pricing.deleteDatabase({ query: { id: "db_1" } })).rejects.toMatchObject({
      status: 409,
      code: "conflict",
      message: "A pin references the entry",
    });
  });

  it("throws network_error when there is no answer", async () => {
    const { client: c } = client(() => {
      throw new TypeError("fetch failed");
    });
    await expect(c.main.getMe()).rejects.toMatchObject({ status: 0, code: "network_error" });
  });
});

describe("files", () => {
  it("sends a FOCUS file as its raw body with its content type", async () => {
    const created = { import: { id: "imp_1" } };
    const { client: c, sent } = client(() => json(201, envelope(created)), { validateResponses: false });
    const stream = new Blob(["a,b\n1,2\n"]).stream();
    await c.main.createSpendImport({
      params: { org_id: "org_1" },
      query: { file_name: "bill.csv" },
      body: stream,
      contentType: "text/csv",
      contentEncoding: "gzip",
    });
    expect(sent[0].url).toBe("https://costs.example.com/api/v1/organizations/org_1/spend/imports?file_name=bill.csv");
    expect(sent[0].headers).toMatchObject({ "Content-Type": "text/csv", "Content-Encoding": "gzip" });
    expect(sent[0].body).toBe(stream);
    expect(sent[0].duplex).toBe("half");
  });

  it("reads a CSV export as text, a blob or a stream", async () => {
    const csv = "BilledCost,ChargePeriodStart\n1.5,2026-11-01T00:00:00Z\n";
    const { client: c, sent } = client(() => new Response(csv, { status: 200, headers: { "content-type": "text/csv; charset=utf-8" } }));
    const text: string = await c.main.exportTenantSpend({ tenant: "t", query: { start: "2026-11-01", end: "2026-12-01" } });
    expect(text).toBe(csv);
    expect(sent[0].headers.Accept).toBe("text/csv, application/json");
    const blob: Blob = await c.main.exportOrganizationSpend({ params: { org_id: "o" }, as: "blob" });
    expect(await blob.text()).toBe(csv);
    const stream: ReadableStream<Uint8Array> = await c.main.exportTenantSpend({ tenant: "t", as: "stream" });
    expect(await new Response(stream).text()).toBe(csv);
  });
});

describe("bindRoutes", () => {
  it("binds any route table, such as a subset", async () => {
    const { fetch, sent } = fakeFetch(() => json(200, envelope({ service: "main-api" })));
    const ops = bindRoutes({ mainHealthz: mainApiRoutes.mainHealthz }, { baseUrl: "http://127.0.0.1:3000", fetch });
    await expect(ops.mainHealthz()).resolves.toEqual({ service: "main-api" });
    expect(sent[0].url).toBe("http://127.0.0.1:3000/healthz");
    expect(ops.mainHealthz.route.path).toBe("/healthz");
  });

  it("types every placeholder of the path, so a route whose path changes breaks its callers' type check", async () => {
    const { fetch, sent } = fakeFetch(() => json(200, { ok: true }));
    const route = defineRoute({
      operationId: "getThing",
      method: "get",
      path: "/things/{org_id}/{thing_id}",
      summary: "A thing",
      tags: [],
      errors: "marketplace",
      auth: "none",
      scope: "none",
      params: z.object({ org_id: z.string() }),
      responses: { 200: { description: "The thing", schema: z.object({ ok: z.boolean() }) } },
    });
    const ops = bindRoutes({ getThing: route }, { baseUrl: "", fetch });
    // @ts-expect-error thing_id is in the path but not given
    await expect(ops.getThing({ params: { org_id: "o" } })).rejects.toThrow(/missing path parameter "thing_id"/);
    const ok: boolean = (await ops.getThing({ params: { org_id: "o", thing_id: 7 } })).ok;
    expect(ok).toBe(true);
    expect(sent.map((s) => s.url)).toEqual(["/things/o/7"]);
  });
});
