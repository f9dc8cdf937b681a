// Every error answer of the main API keeps the body exactly {message, status} and carries its
// stable code in X-Error-Code, with the status the one code-to-status map gives it.
import type http from "node:http";
import pino from "pino";
import request from "supertest";
import { type ErrorCode, errorStatus } from "@cloudcost/contracts";
import { answerClientErrors } from "@cloudcost/http";
import { listen, urlOf } from "@cloudcost/testing";
import { envelopeClientErrorBody } from "../src/errors";
import { createTestContext, type TestContext } from "./helpers/context";
import { signUp, type SignedUp } from "./helpers/identity";

let ctx: TestContext;
let owner: SignedUp;
beforeAll(async () => {
  ctx = await createTestContext({ RATE_LIMIT_PER_CREDENTIAL: "40" });
  owner = await signUp(ctx, { company: "Codes Org" });
});
afterAll(async () => {
  await ctx.close();
});

function expectCode(res: request.Response, code: ErrorCode) {
  expect({ status: res.status, code: res.headers["x-error-code"], body: res.body }).toEqual({
    status: errorStatus[code],
    code,
    body: { message: expect.any(String), status: "error" },
  });
}
const RESOURCES = "/api/v1/tenant/compute/resources";
const put = (token: string, tenant?: string) => {
  const req = request(ctx.app).put(RESOURCES).set("Authorization", `Bearer ${token}`);
  return tenant === undefined ? req : req.set("X-Service-Tenant-ID", tenant);
};

describe("X-Error-Code on every error of the main API", () => {
  it("404 for an unknown route", async () => {
    expectCode(await request(ctx.app).get("/api/v1/nothing-here"), "not_found");
  });

  it("401, 400 and 403 of a compute operation", async () => {
    expectCode(await request(ctx.app).put(RESOURCES).send({ resources: [] }), "unauthenticated");
    expectCode(await put(owner.token).send({ resources: [{ resource_id: "vm-1" }] }), "invalid_request");
    expectCode(await put(owner.token, owner.tenant.id).send({ resources: "no" }), "invalid_request");
    expectCode(await put(owner.token, "ten_00000000000000000000000000").send({ resources: [{ resource_id: "vm-1" }] }), "forbidden");
    expectCode(await put(owner.token, owner.tenant.id).type("json").send('{"resources": ['), "malformed_json");
  });

  it("a malformed request is a 400 before the tenant decision, a bad credential a 401 before both", async () => {
    expectCode(await put(owner.token, "ten_00000000000000000000000000").send({ resources: "no" }), "invalid_request");
    expectCode(await put("not-a-token", "ten_00000000000000000000000000").send({ resources: "no" }), "unauthenticated");
  });

  it("413 for a body over 1 MiB", async () => {
    const big = JSON.stringify({ resources: [{ resource_id: "x".repeat(2 * 1024 * 1024) }] });
    expectCode(await put(owner.token, owner.tenant.id).type("json").send(big), "payload_too_large");
  });

  it("429 once the credential's limit is spent", async () => {
    let last: request.Response | undefined;
    for (let i = 0; i < 45 && last?.status !== 429; i += 1) last = await request(ctx.app).get("/api/v1/me").set("Authorization", `Bearer ${owner.token}`);
    expectCode(last!, "rate_limited");
    expect(Number(last!.headers["retry-after"])).toBeGreaterThan(0);
  });

  it("431 for oversized headers, answered before Express", async () => {
    const server: http.Server = await listen(ctx.app);
    answerClientErrors(server, { logger: pino({ level: "silent" }), body: envelopeClientErrorBody });
    try {
      const res = await fetch(`${urlOf(server)}/api/v1/me`, { headers: { "X-Junk": "k".repeat(20 * 1024) } });
      expect({ status: res.status, code: res.headers.get("x-error-code") }).toEqual({ status: 431, code: "headers_too_large" });
      expect(await res.json()).toEqual({ message: expect.any(String), status: "error" });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
