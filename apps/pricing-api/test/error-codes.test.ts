// Every error answer carries its stable code in X-Error-Code (and, on /v1, in the problem
// document's `code`), with the status the one code-to-status map gives it; the body keeps its
// shape ({error} on the marketplace paths and outside /v1).
import type http from "node:http";
import express, { type RequestHandler } from "express";
import pino from "pino";
import request from "supertest";
import { type ErrorCode, errorStatus, MarketplaceError, type PricingKeyRole, ProblemDocument, type RouteDefinition } from "@cloudcost/contracts";
import { answerClientErrors, errorHandler } from "@cloudcost/http";
import { listen, urlOf } from "@cloudcost/testing";
import { authorize } from "../src/auth/authorize";
import { pricingClientErrorBody, renderPricingError } from "../src/errors";
import { createTestContext, type TestContext } from "./helpers/context";
import { createApiKey } from "./helpers/keys";

let ctx: TestContext;
let key: string;
beforeAll(async () => {
  ctx = await createTestContext({ RATE_LIMIT_PER_CREDENTIAL: "3" });
});
// A key per test: each may send three requests before the limit.
beforeEach(async () => {
  key = await createApiKey(ctx, "acct_codes");
});
afterAll(async () => {
  await ctx.close();
});

function expectCode(res: { status: number; headers: Record<string, string> }, code: ErrorCode) {
  expect({ status: res.status, code: res.headers["x-error-code"] }).toEqual({ status: errorStatus[code], code });
}
const expectProblem = (res: request.Response, code: ErrorCode) => {
  expectCode(res, code);
  expect(ProblemDocument.parse(res.body)).toMatchObject({ code, status: errorStatus[code] });
};
const expectMarketplace = (res: request.Response, code: ErrorCode) => {
  expectCode(res, code);
  expect(MarketplaceError.strict().parse(res.body)).toEqual({ error: expect.any(String) });
};

describe("X-Error-Code on every error of the pricing API", () => {
  it("404 for an unknown route, in the path's shape", async () => {
    expectProblem(await request(ctx.app).get("/v1/pricing/nothing-here"), "not_found");
    expectMarketplace(await request(ctx.app).get("/marketplace/providers/nothing-here"), "not_found");
  });

  it("401, 400 and 404 of an operation", async () => {
    expectProblem(await request(ctx.app).get("/v1/pricing/pins"), "unauthenticated");
    expectMarketplace(await request(ctx.app).get("/marketplace/providers/models"), "unauthenticated");
    expectProblem(await request(ctx.app).post("/v1/pricing/compute").set("X-API-Key", key).send({ provider: "aws" }), "invalid_request");
    expectMarketplace(await request(ctx.app).delete("/marketplace/providers/models").set("X-API-Key", key), "invalid_request");
    expectProblem(
      await request(ctx.app)
        .get("/v1/pricing/reports/rpt_none")
        .set("X-API-Key", await createApiKey(ctx, "acct_codes")),
      "not_found",
    );
  });

  it("413 for a body over the limit, 400 for malformed JSON", async () => {
    const big = JSON.stringify({ entries: [{ model: "x".repeat(2 * 1024 * 1024) }] });
    expectMarketplace(await request(ctx.app).post("/marketplace/providers/models").set("X-API-Key", key).type("json").send(big), "payload_too_large");
    expectProblem(await request(ctx.app).post("/v1/pricing/compute").set("X-API-Key", key).type("json").send(big), "payload_too_large");
    expectProblem(await request(ctx.app).post("/v1/pricing/compute").set("X-API-Key", key).type("json").send('{"a":'), "malformed_json");
  });

  it("503 from /readyz while the catalog is not loaded", async () => {
    expectMarketplace(await request(ctx.app).get("/readyz"), "service_unavailable");
  });

  it("429 once the credential's limit is spent", async () => {
    const limited = await createApiKey(ctx, "acct_codes");
    const statuses: number[] = [];
    let last: request.Response | undefined;
    for (let i = 0; i < 5; i += 1) {
      last = await request(ctx.app).get("/v1/pricing/account").set("X-API-Key", limited);
      statuses.push(last.status);
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    expectProblem(last!, "rate_limited");
  });

  it("431 for oversized headers, answered before Express", async () => {
    const server: http.Server = await listen(ctx.app);
    answerClientErrors(server, { logger: pino({ level: "silent" }), body: pricingClientErrorBody });
    try {
      const res = await fetch(`${urlOf(server)}/marketplace/providers/models`, { headers: { "X-Junk": "k".repeat(20 * 1024) } });
      expect({ status: res.status, code: res.headers.get("x-error-code") }).toEqual({ status: 431, code: "headers_too_large" });
      expect(await res.json()).toEqual({ error: expect.any(String) });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe("key roles", () => {
  // The binder's authorize step for an operation declaring `minKeyRole`.
  const requireKeyRole =
    (minKeyRole: PricingKeyRole): RequestHandler =>
    (req, _res, next) => {
      authorize({ auth: "api_key", scope: "account", minKeyRole } as RouteDefinition, req.auth);
      next();
    };
  // The key store does not carry roles yet: this drives the check with identities that do.
  const appWith = (role: string | undefined) =>
    express()
      .use((req, _res, next) => {
        req.auth = Object.assign({ accountId: "acct_r", keyId: "key_r" }, role ? { role } : {}) as typeof req.auth;
        next();
      })
      .delete("/v1/control/admin-only", requireKeyRole("admin"), (_req, res) => void res.status(204).end())
      .post("/marketplace/control/member-only", requireKeyRole("member"), (_req, res) => void res.status(201).json({}))
      .use(errorHandler(renderPricingError, pino({ level: "silent" })));

  it("answers 403 forbidden to a weaker key, in the path's shape", async () => {
    expectProblem(await request(appWith("member")).delete("/v1/control/admin-only"), "forbidden");
    expectMarketplace(await request(appWith("viewer")).post("/marketplace/control/member-only"), "forbidden");
  });

  it("lets an equal or stronger key through", async () => {
    await request(appWith("admin")).delete("/v1/control/admin-only").expect(204);
    await request(appWith("member")).post("/marketplace/control/member-only").expect(201);
  });
});
