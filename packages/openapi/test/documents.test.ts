import { Validator } from "@seriousme/openapi-schema-validator";
import express from "express";
import request from "supertest";
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

describe("docs routes", () => {
  const app = express().use(apiDocsRouter(pricingApiDocument(), "Pricing API"));

  it("serves the document and an offline reference page with its own assets", async () => {
    const json = await request(app).get("/openapi.json").expect(200);
    expect(json.body.info.title).toBe("Cloud cost pricing API");
    const page = await request(app).get("/docs").expect(200);
    expect(page.text).toContain('src="docs/assets/swagger-ui-bundle.js"');
    expect(page.text).not.toMatch(/https?:\/\//);
    await request(app).get("/docs/assets/swagger-ui-bundle.js").expect(200).expect("content-type", /javascript/);
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
