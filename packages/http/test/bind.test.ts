import express, { Router, type RequestHandler } from "express";
import pino from "pino";
import request from "supertest";
import { z } from "zod";
import { defineRoute } from "@cloudcost/contracts";
import { errorHandler, forbidden, listRoutes, registerRoutes, unauthenticated, type ErrorRenderer } from "../src";

const render: ErrorRenderer = (_req, res, error) => void res.status(error.status).json({ code: error.code, message: error.message });

const table = {
  getThing: defineRoute({
    operationId: "getThing",
    method: "get",
    path: "/things/{id}",
    summary: "A thing",
    tags: ["Things"],
    errors: "envelope",
    auth: "bearer",
    scope: "organization",
    params: z.object({ id: z.string().regex(/^t_\d+$/) }),
    query: z.object({ n: z.coerce.number().int().default(1) }),
    responses: { 200: { description: "The thing", schema: z.object({ id: z.string(), n: z.number() }) } },
  }),
  putThing: defineRoute({
    operationId: "putThing",
    method: "post",
    path: "/things",
    summary: "Make a thing",
    tags: ["Things"],
    errors: "envelope",
    auth: "bearer",
    scope: "organization",
    idempotent: true,
    body: z.object({ name: z.string().min(1) }),
    headers: z.object({ "X-Tenant": z.string().min(1) }),
    responses: { 201: { description: "Made", schema: z.object({ name: z.string(), tenant: z.string() }) } },
  }),
};

const steps: string[] = [];
const authenticate: RequestHandler = (req, _res, next) => {
  steps.push("authenticate");
  if (req.headers.authorization === "Bearer bad") return next(unauthenticated("bad token"));
  if (req.headers.authorization === "Bearer stranger") throw forbidden("no organization");
  next();
};
function app() {
  const router = Router();
  registerRoutes(
    router,
    table,
    {
      getThing: ({ params, query }) => ({ status: 200, body: { id: params.id, n: query.n } }),
      putThing: async ({ body, headers }) => ({ status: 201, body: { name: body.name, tenant: headers["X-Tenant"] } }),
    },
    {
      authenticate: { bearer: authenticate },
      authorize: () => (req, _res, next) => {
        steps.push("authorize");
        if (req.headers.authorization === "Bearer viewer") return next(forbidden("role too low"));
        next();
      },
      idempotency: () => (_req, _res, next) => {
        steps.push("idempotency");
        next();
      },
    },
  );
  return express()
    .use(express.json())
    .use(router)
    .use(errorHandler(render, pino({ level: "silent" })));
}

beforeEach(() => {
  steps.length = 0;
});

describe("registerRoutes", () => {
  it("hands the handler parsed, typed input and sends the reply it returns", async () => {
    const res = await request(app()).get("/things/t_1?n=7").set("Authorization", "Bearer ok").expect(200);
    expect(res.body).toEqual({ id: "t_1", n: 7 });
    const made = await request(app()).post("/things").set("Authorization", "Bearer ok").set("X-Tenant", "ten_1").send({ name: "a" }).expect(201);
    expect(made.body).toEqual({ name: "a", tenant: "ten_1" });
    expect(steps).toEqual(["authenticate", "authorize", "authenticate", "authorize", "idempotency"]);
  });

  it("answers a bad credential 401, then an invalid request 400 before any authorization decision", async () => {
    expect((await request(app()).get("/things/nope").set("Authorization", "Bearer bad")).body.code).toBe("unauthenticated");
    // authentication's own 403 (an identity without an organization) comes after validation too
    expect((await request(app()).get("/things/nope").set("Authorization", "Bearer stranger")).body.code).toBe("invalid_request");
    expect((await request(app()).get("/things/nope").set("Authorization", "Bearer viewer")).body.code).toBe("invalid_request");
    expect((await request(app()).post("/things").set("Authorization", "Bearer ok").send({ name: "a" })).body.code).toBe("invalid_request");
    expect(steps).not.toContain("authorize");
    expect((await request(app()).get("/things/t_1").set("Authorization", "Bearer viewer")).body.code).toBe("forbidden");
  });

  it("marks every route with its operation, so a hand-written route stands out", () => {
    const server = app();
    server.get("/sneaky", (_req, res) => void res.end());
    expect(listRoutes(server)).toEqual([
      { method: "get", path: "/things/{id}", operationId: "getThing" },
      { method: "post", path: "/things", operationId: "putThing" },
      { method: "get", path: "/sneaky" },
    ]);
  });

  it("refuses a table it cannot bind: a missing handler, authentication or idempotency", () => {
    const put = async () => ({ status: 201 as const, body: { name: "", tenant: "" } });
    const get = () => ({ status: 200 as const, body: { id: "", n: 0 } });
    expect(() => registerRoutes(Router(), table, { getThing: get } as never, { authenticate: { bearer: authenticate } })).toThrow(/putThing: no handler/);
    expect(() => registerRoutes(Router(), table, { getThing: get, putThing: put }, { authenticate: {} })).toThrow(/no authentication/);
    expect(() => registerRoutes(Router(), table, { getThing: get, putThing: put }, { authenticate: { bearer: authenticate } })).toThrow(/idempotent/);
  });
});
