import express, { type RequestHandler } from "express";
import pino from "pino";
import request from "supertest";
import { badRequest, createMetrics, protectionConfig, serviceApp, type ErrorRenderer } from "../src";

const render: ErrorRenderer = (_req, res, error) => res.status(error.status).json({ code: error.code, message: error.message });
const protection = protectionConfig({ RATE_LIMIT_WINDOW_MS: 60_000, RATE_LIMIT_PER_CREDENTIAL: 0, RATE_LIMIT_PER_IP: 0, CORS_ORIGINS: [] });
const raw = express.raw({ type: "*/*" });
const rawBody: RequestHandler = (req, res, next) =>
  raw(req, res, (err?: unknown) => {
    req.body = { parsedBy: "path parser", bytes: (req.body as Buffer).length };
    next(err);
  });

const app = serviceApp(
  {
    logger: pino({ level: "silent" }),
    metrics: createMetrics("test"),
    protection,
    renderError: render,
    bodyParsers: [{ paths: ["/special"], parser: rawBody }],
  },
  (a) => {
    a.post("/echo", (req, res) => void res.json({ body: req.body, id: req.id }));
    a.post("/special", (req, res) => void res.json(req.body));
    a.get("/fails", () => {
      throw badRequest("no");
    });
  },
);

describe("serviceApp", () => {
  it("runs the shared stack before the routes: request id, security headers, JSON bodies", async () => {
    const res = await request(app).post("/echo").send({ a: 1 }).expect(200);
    expect(res.body).toEqual({ body: { a: 1 }, id: res.headers["x-request-id"] });
    expect(res.headers["x-powered-by"]).toBeUndefined();
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
  });

  it("gives a path its own body parser, before the JSON one", async () => {
    expect((await request(app).post("/special").send({ a: 1 }).expect(200)).body).toEqual({ parsedBy: "path parser", bytes: 7 });
  });

  it("answers unknown paths, errors and unparsable bodies in the API's own shape", async () => {
    expect((await request(app).get("/nowhere").expect(404)).body).toEqual({ code: "not_found", message: "No route for GET /nowhere" });
    expect((await request(app).get("/fails").expect(400)).body).toMatchObject({ message: "no" });
    expect((await request(app).post("/echo").set("Content-Type", "application/json").send("{").expect(400)).body).toMatchObject({ code: "malformed_json" });
  });
});
