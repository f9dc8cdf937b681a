import { Readable } from "node:stream";
import express, { Router } from "express";
import pino from "pino";
import request from "supertest";
import { z } from "zod";
import { defineRoute } from "@cloudcost/contracts";
import { errorHandler, forbidden, listRoutes, registerRoutes, unauthenticated, type Authenticate, type ErrorRenderer, type RawBody } from "../src";

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
  exportThing: defineRoute({
    operationId: "exportThing",
    method: "get",
    path: "/things/{id}/export",
    summary: "A thing as CSV",
    tags: ["Things"],
    errors: "envelope",
    auth: "bearer",
    scope: "organization",
    params: z.object({ id: z.string() }),
    responses: { 200: { description: "The thing", schema: null, contentType: "text/csv" } },
  }),
  uploadThing: defineRoute({
    operationId: "uploadThing",
    method: "post",
    path: "/things/{id}/file",
    summary: "A file for a thing",
    tags: ["Things"],
    errors: "envelope",
    auth: "bearer",
    scope: "organization",
    params: z.object({ id: z.string() }),
    rawBody: { contentTypes: ["text/csv"], contentEncodings: ["gzip"], description: "A CSV file" },
    responses: { 200: { description: "Its size and who sent it", schema: z.object({ bytes: z.number(), caller: z.string(), type: z.string() }) } },
  }),
};

/** The context the test app's authorize builds: who called, as its Authorization header says. */
interface Caller {
  caller: string;
}

const steps: string[] = [];
const authenticate: Authenticate = async (req) => {
  steps.push("authenticate");
  if (req.headers.authorization === "Bearer bad") throw unauthenticated("bad token");
  if (req.headers.authorization === "Bearer stranger") throw forbidden("no organization");
};
function app() {
  const router = Router();
  registerRoutes(
    router,
    table,
    {
      getThing: ({ params, query }) => ({ status: 200, body: { id: params.id, n: query.n } }),
      putThing: async ({ body, headers }) => ({ status: 201, body: { name: body.name, tenant: headers["X-Tenant"] } }),
      exportThing: ({ params }, ctx: Caller) => ({
        status: 200,
        headers: { "Content-Type": "text/csv" },
        stream: Readable.from([`id,caller\r\n`, `${params.id},${ctx.caller}\r\n`]),
      }),
      uploadThing: async (_input, { caller, body }: Caller & { body: RawBody }) => {
        let bytes = 0;
        for await (const chunk of body.stream) bytes += (chunk as Buffer).length;
        return { status: 200, body: { bytes, caller, type: body.contentType } };
      },
    },
    {
      authenticate: { bearer: authenticate },
      authorize: (_route, req) => {
        steps.push("authorize");
        if (req.headers.authorization === "Bearer viewer") throw forbidden("role too low");
        return { caller: req.headers.authorization ?? "" } satisfies Caller;
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

  it("hands the handler the context authorize built, pipes a stream reply and streams a raw body", async () => {
    const csv = await request(app()).get("/things/t_1/export").set("Authorization", "Bearer ok").expect(200);
    expect(csv.headers["content-type"]).toBe("text/csv");
    expect(csv.text).toBe("id,caller\r\nt_1,Bearer ok\r\n");
    const sent = await request(app()).post("/things/t_1/file").set("Authorization", "Bearer ok").set("Content-Type", "text/csv").send("a,b\n1,2\n");
    expect(sent.body).toEqual({ bytes: 8, caller: "Bearer ok", type: "text/csv" });
  });

  it("answers a raw body of another media type or encoding 415, before any authorization decision", async () => {
    const upload = (type: string, encoding?: string) => {
      const req = request(app()).post("/things/t_1/file").set("Authorization", "Bearer viewer").set("Content-Type", type);
      return (encoding ? req.set("Content-Encoding", encoding) : req).send("{}");
    };
    expect((await upload("application/json")).status).toBe(415);
    expect((await upload("text/csv", "br")).status).toBe(415);
    expect(steps).not.toContain("authorize");
    expect((await upload("text/csv")).status).toBe(403);
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
      { method: "get", path: "/things/{id}/export", operationId: "exportThing" },
      { method: "post", path: "/things/{id}/file", operationId: "uploadThing" },
      { method: "get", path: "/sneaky" },
    ]);
  });

  it("refuses a table it cannot bind: a missing handler, authentication or idempotency", () => {
    const put = async () => ({ status: 201 as const, body: { name: "", tenant: "" } });
    const get = () => ({ status: 200 as const, body: { id: "", n: 0 } });
    const exported = () => ({ status: 200 as const, headers: {}, text: "" });
    const upload = () => ({ status: 200 as const, body: { bytes: 0, caller: "", type: "" } });
    const handlers = { getThing: get, putThing: put, exportThing: exported, uploadThing: upload };
    const authorize = () => ({});
    expect(() => registerRoutes(Router(), table, { getThing: get } as never, { authenticate: { bearer: authenticate }, authorize })).toThrow(
      /putThing: no handler/,
    );
    expect(() => registerRoutes(Router(), table, handlers, { authenticate: {}, authorize })).toThrow(/no authentication/);
    expect(() => registerRoutes(Router(), table, handlers, { authenticate: { bearer: authenticate }, authorize })).toThrow(/idempotent/);
  });
});
