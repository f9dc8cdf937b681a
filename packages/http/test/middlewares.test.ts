import express from "express";
import pino from "pino";
import request from "supertest";
import { z } from "zod";
import { errorHandler, HttpError, jsonBody, notFoundHandler, parseOr400, requestId, type ErrorRenderer } from "../src";

const render: ErrorRenderer = (_req, res, error) => res.status(error.status).json({ code: error.code, message: error.message, errors: error.errors });

const withProps = (message: string, props: Record<string, unknown>) => Object.assign(new Error(message), props);

// The forms a lost database takes by the time it reaches a handler (node-postgres, PostgreSQL, Prisma).
const databaseErrors: Record<string, unknown> = {
  refused: withProps("connect ECONNREFUSED 127.0.0.1:5432", { code: "ECONNREFUSED" }),
  terminated: new Error("Connection terminated unexpectedly"),
  shutdown: withProps("terminating connection due to administrator command", { code: "57P01", severity: "FATAL" }),
  prismaP1001: withProps("Can't reach database server at 127.0.0.1:5432", { name: "PrismaClientKnownRequestError", code: "P1001" }),
  prismaP1017: withProps("Server has closed the connection.", { code: "P1017" }),
  adapter: withProps("DriverAdapterError", { cause: { kind: "DatabaseNotReachable", host: "127.0.0.1", port: 5432 } }),
  adapterPostgres: withProps("DriverAdapterError", { cause: { kind: "postgres", code: "57P03", message: "the database system is starting up" } }),
  prismaWrapped: withProps("Invalid `prisma.user.findMany()` invocation", {
    code: "P2010",
    meta: { driverAdapterError: { cause: { kind: "ConnectionClosed" } } },
  }),
  unique: withProps("Unique constraint failed", { code: "P2002" }),
  syntax: withProps("syntax error at or near SELECT", { code: "42601", severity: "ERROR" }),
};

function app() {
  const a = express();
  a.use(requestId());
  a.use(jsonBody());
  a.post("/items", (req, res) => {
    const body = parseOr400(z.object({ name: z.string(), count: z.number().int().min(0) }), req.body, "item");
    res.status(201).json(body);
  });
  a.get("/boom", () => {
    throw new Error("SELECT secret FROM passwords failed at line 3");
  });
  a.get("/things/:id", (req, res) => {
    res.json({ id: req.params.id });
  });
  a.get("/teapot", () => {
    throw new HttpError("conflict", "It is already there.");
  });
  a.get("/db/:form", (req) => {
    throw databaseErrors[req.params.form as string];
  });
  a.use(notFoundHandler(render));
  a.use(errorHandler(render, pino({ level: "silent" })));
  return a;
}

describe("http building blocks", () => {
  it("validates with zod and names every invalid field", async () => {
    const res = await request(app()).post("/items").send({ name: 3, count: -1 }).expect(400);
    expect(res.body.code).toBe("invalid_request");
    expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual(["name", "count"]);
    expect(res.body.message).toMatch(/^Invalid item: name: .+; count: .+/);
    await request(app()).post("/items").send({ name: "a", count: 2 }).expect(201, { name: "a", count: 2 });
  });

  it("answers a path parameter that is not valid percent-encoding with a 400, not a 500", async () => {
    for (const id of ["%", "%zz", "%ff", "%c0%af"]) {
      const res = await request(app()).get(`/things/${id}`).expect(400);
      expect(res.body).toEqual({ code: "malformed_path", message: "The request path is not valid percent-encoded UTF-8." });
    }
    await request(app()).get("/things/a%20b").expect(200, { id: "a b" });
  });

  it("refuses a body with a NUL escape (PostgreSQL text cannot hold it) with a 400, but not an escaped backslash", async () => {
    const res = await request(app()).post("/items").set("Content-Type", "application/json").send('{"name":"a\\u0000b","count":1}').expect(400);
    expect(res.body.code).toBe("invalid_request");
    expect(res.body.message).toMatch(/NUL/);
    await request(app())
      .post("/items")
      .set("Content-Type", "application/json")
      .send('{"name":"a\\\\u0000b","count":1}')
      .expect(201, { name: "a\\u0000b", count: 1 });
  });

  it("answers an unexpected error with a bare 500 that leaks nothing", async () => {
    const res = await request(app()).get("/boom").expect(500);
    expect(res.body).toEqual({ code: "internal_error", message: "Internal server error." });
    expect(JSON.stringify(res.body)).not.toMatch(/SELECT|passwords|at line/);
  });

  it("answers a lost database with 503 service_unavailable and Retry-After, other database errors with 500", async () => {
    for (const form of ["refused", "terminated", "shutdown", "prismaP1001", "prismaP1017", "adapter", "adapterPostgres", "prismaWrapped"]) {
      const res = await request(app()).get(`/db/${form}`);
      expect([form, res.status, res.body.code, res.headers["retry-after"]]).toEqual([form, 503, "service_unavailable", "5"]);
      expect(JSON.stringify(res.body)).not.toMatch(/5432|ECONNREFUSED|prisma/i);
    }
    for (const form of ["unique", "syntax"]) {
      const res = await request(app()).get(`/db/${form}`);
      expect([form, res.status, res.body.code]).toEqual([form, 500, "internal_error"]);
    }
  });

  it("renders HttpErrors, malformed JSON, oversized bodies and unknown routes in the given shape", async () => {
    const teapot = await request(app()).get("/teapot").expect(409);
    expect([teapot.body.code, teapot.headers["x-error-code"]]).toEqual(["conflict", "conflict"]);
    const bad = await request(app()).post("/items").set("Content-Type", "application/json").send("{");
    expect([bad.status, bad.body.code]).toEqual([400, "malformed_json"]);
    const big = await request(app())
      .post("/items")
      .set("Content-Type", "application/json")
      .send(`"${"x".repeat(1_100_000)}"`);
    expect([big.status, big.body.code]).toEqual([413, "payload_too_large"]);
    const missing = await request(app()).delete("/nothing").expect(404);
    expect(missing.body.message).toBe("No route for DELETE /nothing");
  });

  it("keeps a well-formed X-Request-Id and replaces a malformed or overlong one", async () => {
    expect((await request(app()).get("/x").set("X-Request-Id", "a.b:c-d_e")).headers["x-request-id"]).toBe("a.b:c-d_e");
    const long = "a".repeat(129);
    expect((await request(app()).get("/x").set("X-Request-Id", long)).headers["x-request-id"]).not.toBe(long);
  });
});
