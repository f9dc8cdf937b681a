import { createHash } from "node:crypto";
import express from "express";
import pino from "pino";
import request from "supertest";
import { z } from "zod";
import {
  canonicalJson,
  deferredIdempotencyOf,
  errorHandler,
  HttpError,
  idempotency,
  jsonBody,
  parseOr400,
  replayHeaders,
  type BeginResult,
  type ErrorRenderer,
  type IdempotencyStore,
  type StoredResponse,
} from "../src";

const render: ErrorRenderer = (_req, res, error) => res.status(error.status).json({ code: error.code, message: error.message });

/** A store in memory with the same outcomes as the SQL one (the SQL store is tested in the apps). */
function memoryStore() {
  const rows = new Map<string, { fingerprint: string; response: StoredResponse | null }>();
  const store: IdempotencyStore = {
    async begin(scope, key, fingerprint): Promise<BeginResult> {
      const row = rows.get(`${scope}|${key}`);
      if (!row) {
        rows.set(`${scope}|${key}`, { fingerprint, response: null });
        return { outcome: "new" };
      }
      if (row.fingerprint !== fingerprint) return { outcome: "mismatch" };
      return row.response ? { outcome: "replay", response: row.response } : { outcome: "in_progress" };
    },
    async complete(scope, key, _fingerprint, response) {
      rows.get(`${scope}|${key}`)!.response = response;
    },
    async release(scope, key) {
      rows.delete(`${scope}|${key}`);
    },
  };
  return { store, rows };
}

function app(store: IdempotencyStore) {
  let runs = 0;
  let gate: Promise<void> = Promise.resolve();
  let reached: () => void = () => undefined;
  const a = express();
  a.use(jsonBody());
  a.use(idempotency({ store, scopeOf: (req) => req.get("X-Caller") ?? "anonymous" }));
  a.post("/items", async (req, res) => {
    const body = parseOr400(z.object({ name: z.string(), fail: z.boolean().optional() }), req.body, "item");
    reached();
    await gate;
    runs++;
    if (body.fail) throw new Error("boom");
    res.status(201).json({ name: body.name, run: runs });
  });
  a.put("/items", (_req, res) => {
    runs++;
    res.json({ run: runs });
  });
  a.use(errorHandler(render, pino({ level: "silent" })));
  return {
    app: a,
    runs: () => runs,
    /** Holds the next requests at the gate: `held` resolves once one is there, `open` lets them go on. */
    hold() {
      let open!: () => void;
      gate = new Promise((resolve) => (open = resolve));
      const held = new Promise<void>((resolve) => (reached = resolve));
      return { open: () => open(), held };
    },
  };
}

describe("idempotency middleware", () => {
  it("stores the first response and replays it for the same key and body", async () => {
    const { store, rows } = memoryStore();
    const t = app(store);
    const first = await request(t.app).post("/items").set("Idempotency-Key", "k1").send({ name: "a" }).expect(201);
    expect(first.headers["idempotent-replayed"]).toBeUndefined();
    const again = await request(t.app).post("/items").set("Idempotency-Key", "k1").send({ name: "a" }).expect(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers["idempotent-replayed"]).toBe("true");
    expect(again.headers["content-type"]).toBe(first.headers["content-type"]);
    expect(t.runs()).toBe(1);
    expect(rows.size).toBe(1);
  });

  it("answers 422 for the same key with a different body, and keys are per caller", async () => {
    const t = app(memoryStore().store);
    await request(t.app).post("/items").set("Idempotency-Key", "k").send({ name: "a" }).expect(201);
    const reused = await request(t.app).post("/items").set("Idempotency-Key", "k").send({ name: "b" }).expect(422);
    expect(reused.body.code).toBe("idempotency_key_reused");
    await request(t.app).post("/items").set("Idempotency-Key", "k").set("X-Caller", "other").send({ name: "b" }).expect(201);
    expect(t.runs()).toBe(2);
  });

  it("does not store validation failures or server errors", async () => {
    const { store, rows } = memoryStore();
    const t = app(store);
    await request(t.app).post("/items").set("Idempotency-Key", "k").send({ name: 1 }).expect(400);
    expect(rows.size).toBe(0);
    await request(t.app).post("/items").set("Idempotency-Key", "k").send({ name: "x", fail: true }).expect(500);
    expect(rows.size).toBe(0);
    await request(t.app).post("/items").set("Idempotency-Key", "k").send({ name: "x" }).expect(201);
  });

  it("replays a stored error with its X-Error-Code, and a row stored without a code without one", async () => {
    const { store, rows } = memoryStore();
    const errors = express()
      .use(jsonBody())
      .use(idempotency({ store, scopeOf: () => "s" }))
      .post("/missing", () => {
        throw new HttpError("price_not_found", "No price for this instance type.");
      })
      .use(errorHandler(render, pino({ level: "silent" })));
    const first = await request(errors).post("/missing").set("Idempotency-Key", "e").send({}).expect(404);
    expect(first.headers["x-error-code"]).toBe("price_not_found");
    const again = await request(errors).post("/missing").set("Idempotency-Key", "e").send({}).expect(404);
    expect([again.headers["idempotent-replayed"], again.headers["x-error-code"], again.body]).toEqual(["true", "price_not_found", first.body]);
    // A row stored before codes were kept replays as it was stored.
    rows.set("s|old", { fingerprint: [...rows.values()][0].fingerprint, response: { status: 404, contentType: "application/json", body: "{}" } });
    const old = await request(errors).post("/missing").set("Idempotency-Key", "old").send({}).expect(404);
    expect([old.headers["idempotent-replayed"], old.headers["x-error-code"], old.body]).toEqual(["true", undefined, {}]);
  });

  it("validates the key: 1 to 255 printable ASCII characters", async () => {
    const t = app(memoryStore().store);
    const long = await request(t.app).post("/items").set("Idempotency-Key", "k".repeat(256)).send({ name: "a" }).expect(400);
    expect(long.body.message).toMatch(/Idempotency-Key/);
    await request(t.app).post("/items").set("Idempotency-Key", "").send({ name: "a" }).expect(400);
    await request(t.app).post("/items").set("Idempotency-Key", "cl\u00e9").send({ name: "a" }).expect(400);
    await request(t.app).post("/items").set("Idempotency-Key", "k".repeat(255)).send({ name: "a" }).expect(201);
    expect(t.runs()).toBe(1);
  });

  it("ignores requests without the header and methods other than POST", async () => {
    const { store, rows } = memoryStore();
    const t = app(store);
    await request(t.app).post("/items").send({ name: "a" }).expect(201);
    await request(t.app).post("/items").send({ name: "a" }).expect(201);
    await request(t.app).put("/items").set("Idempotency-Key", "k").send({}).expect(200);
    await request(t.app).put("/items").set("Idempotency-Key", "k").send({}).expect(200);
    expect([t.runs(), rows.size]).toEqual([4, 0]);
  });

  it("answers 409 while the first request with the key is still running", async () => {
    const t = app(memoryStore().store);
    const { open, held } = t.hold();
    const first = request(t.app)
      .post("/items")
      .set("Idempotency-Key", "k")
      .send({ name: "a" })
      .then((r) => r);
    await held;
    const second = await request(t.app).post("/items").set("Idempotency-Key", "k").send({ name: "a" });
    open();
    expect((await first).status).toBe(201);
    expect([second.status, second.body.code]).toEqual([409, "idempotency_key_in_use"]);
    expect(t.runs()).toBe(1);
  });

  it("fingerprints bodies independently of key order", () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { y: 1, x: 0 }], c: null } })).toBe('{"a":{"c":null,"d":[2,{"x":0,"y":1}]},"b":1}');
    expect(canonicalJson(undefined)).toBe("");
  });
});

describe("idempotency and absurd bodies", () => {
  it("leaves a body too deeply nested to fingerprint to the route's validation (400, not 500)", async () => {
    const express = (await import("express")).default;
    const pino = (await import("pino")).default;
    const { errorHandler, idempotency, jsonBody, parseOr400 } = await import("../src");
    const { z } = await import("zod");
    const stored: string[] = [];
    const store = {
      begin: async (_s: string, key: string) => {
        stored.push(key);
        return { outcome: "new" as const };
      },
      complete: async () => undefined,
      release: async () => undefined,
    };
    const app = express()
      .use(jsonBody())
      .use(idempotency({ store: store as never, scopeOf: () => "s" }))
      .post("/x", (req, res) => res.status(201).json(parseOr400(z.object({ a: z.string() }), req.body)))
      .use(errorHandler((_req, res, e) => res.status(e.status).json({ error: e.message }), pino({ level: "silent" })));
    const deep = "[".repeat(20000) + "]".repeat(20000);
    const res = await request(app).post("/x").set("Idempotency-Key", "k1").set("Content-Type", "application/json").send(`{"a":${deep}}`);
    expect(res.status).toBe(400);
    expect(stored).toEqual([]);
  });
});

describe("idempotency of responses that hold a secret", () => {
  it("stores a marker instead of the response and answers a replay 409 idempotency_secret_not_replayed", async () => {
    const { store, rows } = memoryStore();
    const secretApp = express()
      .use(jsonBody())
      .use(idempotency({ store, scopeOf: () => "s", secretResponse: () => "The secret was already created; it is shown only once." }))
      .post("/secrets", (_req, res) => res.status(201).json({ secret: "s3cr3t-value" }))
      .post("/fails", (_req, res) => res.status(404).json({ missing: true }))
      .use(errorHandler(render, pino({ level: "silent" })));
    const first = await request(secretApp).post("/secrets").set("Idempotency-Key", "k").send({}).expect(201);
    expect(first.body.secret).toBe("s3cr3t-value");
    expect(JSON.stringify([...rows.values()])).not.toContain("s3cr3t-value");
    const replay = await request(secretApp).post("/secrets").set("Idempotency-Key", "k").send({});
    expect([replay.status, replay.body]).toEqual([409, { code: "idempotency_secret_not_replayed", message: expect.stringMatching(/shown only once/) }]);
    expect(replay.text).not.toContain("s3cr3t-value");
    // An answer without a secret (an error) is stored and replayed as usual.
    await request(secretApp).post("/fails").set("Idempotency-Key", "f").send({}).expect(404);
    expect((await request(secretApp).post("/fails").set("Idempotency-Key", "f").send({})).headers["idempotent-replayed"]).toBe("true");
  });
});

describe("idempotency of a raw body (claimed by its handler once it has the body's digest)", () => {
  function rawApp(store: IdempotencyStore) {
    let runs = 0;
    const a = express();
    a.use(idempotency({ store, scopeOf: () => "caller", rawBody: (req) => !req.is("application/json") }));
    a.post("/files", async (req, res, next) => {
      try {
        const chunks: Buffer[] = [];
        for await (const chunk of req) chunks.push(chunk as Buffer);
        const digest = createHash("sha256").update(Buffer.concat(chunks)).digest("hex");
        const replay = await deferredIdempotencyOf(req)?.claim(digest);
        if (replay) {
          res.status(replay.status).set(replayHeaders(replay)).end(replay.body);
          return;
        }
        runs++;
        res.status(201).json({ bytes: Buffer.concat(chunks).length, run: runs });
      } catch (err) {
        next(err);
      }
    });
    a.use(errorHandler(render, pino({ level: "silent" })));
    return { app: a, runs: () => runs };
  }
  const send = (a: express.Express, body: string, query = "", key = "k1") =>
    request(a).post(`/files${query}`).set("Content-Type", "text/csv").set("Idempotency-Key", key).send(body);

  it("replays the first answer for the same bytes and query; other bytes or another query are a 422", async () => {
    const { store } = memoryStore();
    const t = rawApp(store);
    const first = await send(t.app, "a,b\n1,2\n").expect(201);
    const again = await send(t.app, "a,b\n1,2\n").expect(201);
    expect(again.headers["idempotent-replayed"]).toBe("true");
    expect(again.body).toEqual(first.body);
    expect(t.runs()).toBe(1);
    expect((await send(t.app, "a,b\n1,3\n")).status).toBe(422);
    expect((await send(t.app, "a,b\n1,2\n", "?part=2")).status).toBe(422);
    expect(t.runs()).toBe(1);
  });

  it("leaves no claim on a request without the header, and none for a request that never claims", async () => {
    const { store, rows } = memoryStore();
    const t = rawApp(store);
    await request(t.app).post("/files").set("Content-Type", "text/csv").send("x").expect(201);
    expect(rows.size).toBe(0);
    expect(t.runs()).toBe(1);
  });
});
