import { execFileSync } from "node:child_process";
import path from "node:path";
import { Validator } from "@seriousme/openapi-schema-validator";
import express from "express";
import request from "supertest";
import { mainApiRoutes, pricingApiRoutes, type RouteDefinition, type RouteTable } from "@cloudcost/contracts";
import { apiDocsRouter, mainApiDocument, pricingApiDocument } from "../src";

describe.each([
  ["main API", mainApiDocument, ["/api/v1/signup/complete", "/api/v1/tenant/compute/recommendations/summary"], ["User", "RecommendationSummary"]],
  ["pricing API", pricingApiDocument, ["/marketplace/providers/models", "/v1/pricing/compute"], ["ModelPricingEntry", "ProblemDocument"]],
] as const)("%s OpenAPI document", (_name, build, paths, schemas) => {
  it("is a valid OpenAPI 3.1 document with the contract's paths and named schemas", async () => {
    const document = build();
    const result = await new Validator().validate(document as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(document.openapi).toBe("3.1.0");
    expect(Object.keys(document.paths ?? {})).toEqual(expect.arrayContaining([...paths]));
    expect(Object.keys(document.components?.schemas ?? {})).toEqual(expect.arrayContaining([...schemas]));
  });
});

const operationIdsOf = (document: ReturnType<typeof mainApiDocument>) =>
  Object.values(document.paths ?? {}).flatMap((item) => Object.values(item).map((operation) => (operation as { operationId: string }).operationId));
const publicOperationIds = (table: RouteTable) =>
  (Object.values(table) as RouteDefinition[]).filter((route) => !route.internal).map((route) => route.operationId);

describe("generated from the route tables", () => {
  it("documents exactly the public operations of each table", () => {
    expect(operationIdsOf(mainApiDocument()).sort()).toEqual(publicOperationIds(mainApiRoutes).sort());
    expect(operationIdsOf(pricingApiDocument()).sort()).toEqual(publicOperationIds(pricingApiRoutes).sort());
  });

  it("leaves the service-token /internal operations out of the public pricing document", () => {
    const internal = (Object.values(pricingApiRoutes) as RouteDefinition[]).filter((route) => route.internal);
    expect(internal.map((route) => route.path)).toEqual(expect.arrayContaining(["/internal/api-keys/{keyHash}"]));
    expect(Object.keys(pricingApiDocument().paths ?? {}).filter((path) => path.startsWith("/internal"))).toEqual([]);
    expect(JSON.stringify(pricingApiDocument())).not.toContain("serviceToken");
  });
});

describe("docs routes", () => {
  const app = express().use(apiDocsRouter(pricingApiDocument(), "Pricing API"));

  it("serves the document and an offline reference page with its own assets", async () => {
    const json = await request(app).get("/openapi.json").expect(200);
    expect(json.body.info.title).toBe("Cloud cost pricing API");
    const page = await request(app).get("/docs").expect(200);
    expect(page.text).toContain('src="docs/assets/swagger-ui-bundle.js"');
    expect(page.text).not.toMatch(/https?:\/\//);
    await request(app)
      .get("/docs/assets/swagger-ui-bundle.js")
      .expect(200)
      .expect("content-type", /javascript/);
    await request(app).get("/docs/assets/swagger-ui.css").expect(200);
    expect((await request(app).get("/docs/assets/docs-init.js").expect(200)).text).toContain('url: "openapi.json"');
    expect((await request(app).get("/docs/").expect(301)).headers.location).toBe("../docs");
  });
});

describe("idempotent operations", () => {
  it.each([
    ["main API", mainApiDocument, "/api/v1/organizations/{org_id}/tenants", "ErrorEnvelope"],
    ["pricing API (/marketplace)", pricingApiDocument, "/marketplace/providers/models", "MarketplaceError"],
    ["pricing API (/v1)", pricingApiDocument, "/v1/pricing/reports", "ProblemDocument"],
  ] as const)("%s documents the optional Idempotency-Key header and its 422 in the API's error shape", (_name, build, path, errorSchema) => {
    const post = build().paths?.[path]?.post as {
      parameters: { name: string; in: string; required?: boolean; schema: { maxLength?: number } }[];
      responses: Record<string, { content: Record<string, { schema: { $ref: string } }> }>;
    };
    const header = post.parameters.find((p) => p.name === "Idempotency-Key");
    expect(header).toMatchObject({ in: "header", schema: { maxLength: 255 } });
    expect(header?.required).not.toBe(true);
    expect(JSON.stringify(post.responses["422"])).toContain(`#/components/schemas/${errorSchema}`);
    expect(post.responses["409"]).toBeDefined();
  });

  it("leaves other methods without the header", () => {
    const patch = mainApiDocument().paths?.["/api/v1/organizations/{org_id}/tenants/{tenant_id}"]?.patch as { parameters?: { name: string }[] };
    expect((patch.parameters ?? []).map((p) => p.name)).not.toContain("Idempotency-Key");
  });
});

describe.each([
  ["main API", mainApiDocument],
  ["pricing API", pricingApiDocument],
] as const)("%s document, as an SDK generator reads it", (_name, build) => {
  const document = build();
  const operations = Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({ key: `${method.toUpperCase()} ${path}`, op: op as Operation })),
  );

  it("passes Redocly's recommended lint without errors (run offline in a child process)", () => {
    const out = execFileSync(process.execPath, [path.join(__dirname, "redocly-lint.mjs")], {
      input: JSON.stringify(document),
      encoding: "utf8",
      timeout: 60_000,
    });
    const problems = JSON.parse(out) as Array<{ rule: string; severity: string; message: string; where?: string }>;
    expect(problems.filter((p) => p.severity === "error")).toEqual([]);
    // The check can fail: a document without servers and operation ids is refused.
    const broken = execFileSync(process.execPath, [path.join(__dirname, "redocly-lint.mjs")], {
      input: JSON.stringify({ ...document, servers: [] }),
      encoding: "utf8",
      timeout: 60_000,
    });
    expect((JSON.parse(broken) as Array<{ rule: string }>).map((p) => p.rule)).toContain("no-empty-servers");
  });

  it("names every operation, and documents 429 and 503 on each, 413 on each that takes a body", () => {
    expect(document.servers).toEqual([expect.objectContaining({ url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/) })]);
    const ids = operations.map((o) => o.op.operationId);
    expect(ids.filter((id) => !id)).toEqual([]);
    expect(new Set(ids).size).toBe(ids.length);
    for (const { key, op } of operations) {
      expect([key, Object.keys(op.responses)]).toEqual([key, expect.arrayContaining(["429", "503"])]);
      if (op.requestBody) expect([key, Object.keys(op.responses)]).toEqual([key, expect.arrayContaining(["413"])]);
    }
  });

  it("documents the response headers: X-Request-Id everywhere, X-Error-Code on errors, Retry-After on 429", () => {
    for (const { key, op } of operations) {
      for (const [status, response] of Object.entries(op.responses)) {
        const headers = Object.keys(response.headers ?? {});
        expect([key, status, headers]).toEqual([key, status, expect.arrayContaining(["X-Request-Id", "RateLimit", "RateLimit-Policy"])]);
        if (Number(status) >= 400) expect([key, status, headers]).toEqual([key, status, expect.arrayContaining(["X-Error-Code"])]);
        if (status === "429") expect([key, status, headers]).toEqual([key, status, expect.arrayContaining(["Retry-After"])]);
      }
    }
  });

  it("documents /healthz and /readyz with their JSON bodies", () => {
    for (const path of ["/healthz", "/readyz"]) {
      const ok = (document.paths?.[path]?.get as Operation | undefined)?.responses["200"];
      expect(ok).toBeDefined();
      expect(ok?.content?.["application/json"]?.schema).toBeDefined();
    }
  });
});

describe("request schemas as strict as the servers", () => {
  const main = JSON.stringify(mainApiDocument());
  const pricing = pricingApiDocument();

  it("active is true or false in any case; X-Service-Tenant-ID follows the id rule", () => {
    const summary = mainApiDocument().paths?.["/api/v1/tenant/compute/recommendations/summary"]?.get as Operation;
    const active = summary.parameters?.find((p) => p.name === "active");
    expect(new RegExp(active?.schema.pattern ?? "^$").test("TRUE")).toBe(true);
    expect(new RegExp(active?.schema.pattern ?? "").test("yes")).toBe(false);
    const tenant = summary.parameters?.find((p) => p.name === "X-Service-Tenant-ID");
    expect(tenant).toMatchObject({ in: "header", required: true, schema: { maxLength: 64, pattern: "^[A-Za-z0-9_-]+$" } });
    expect(main).toContain("X-Error-Code");
  });

  it("a compute query needs instance_type or vm; usage quantities are keyed per kind", () => {
    const schemas = pricing.components?.schemas as Record<string, { anyOf?: unknown[]; oneOf?: unknown[] }>;
    expect(schemas.ComputePriceQuery.anyOf).toEqual([{ required: ["instance_type"] }, { required: ["vm"] }]);
    expect(JSON.stringify(schemas.UsageLine)).toContain('"propertyNames":{"enum":["hours"');
  });
});

interface Operation {
  operationId?: string;
  requestBody?: unknown;
  parameters?: Array<{ name: string; in: string; required?: boolean; schema: { pattern?: string; maxLength?: number } }>;
  responses: Record<string, { headers?: Record<string, unknown>; content?: Record<string, { schema?: unknown }> }>;
}
