import { spawn } from "node:child_process";
import http from "node:http";
import net from "node:net";
import path from "node:path";

// serve() owns the process (it exits it), so it runs in a child: the built package (test depends on build).
const SERVER = `
  const express = require("express");
  const pino = require("pino");
  const { serve } = require(${JSON.stringify(path.join(__dirname, "../dist/serve.js"))});
  const app = express();
  app.get("/slow", (_req, res) => setTimeout(() => res.json({ ok: true }), 50));
  serve({ name: "t", app, port: 0, host: "127.0.0.1", logger: pino({ level: "silent" }), shutdownTimeoutMs: 60000, onShutdown: async () => {},
    clientErrorBody: (path, error, requestId) => ({ contentType: "application/json", body: JSON.stringify({ path, code: error.code, requestId }) }) })
    .then((server) => {
      console.log("PORT " + server.address().port);
      // Registered after serve()'s own handler, so it reports a shutdown already under way.
      process.on("SIGTERM", () => console.log("STOPPING"));
    });
`;

type Outcome = { at: "before" | "after"; status: number | string; connection?: string };

describe("serve: graceful shutdown", () => {
  it("closes busy keep-alive connections after SIGTERM (Connection: close), then exits 0", async () => {
    const child = spawn(process.execPath, ["-e", SERVER], { cwd: __dirname, stdio: ["ignore", "pipe", "inherit"] });
    let signalled = false;
    const port = await new Promise<number>((resolve) =>
      child.stdout!.on("data", (d) => {
        const m = /PORT (\d+)/.exec(String(d));
        if (m) resolve(Number(m[1]));
        if (String(d).includes("STOPPING")) signalled = true;
      }),
    );
    const agent = new http.Agent({ keepAlive: true, maxSockets: 2 });
    const outcomes: Outcome[] = [];
    const get = () =>
      new Promise<Outcome>((resolve) => {
        const at = signalled ? "after" : "before";
        http
          .get({ host: "127.0.0.1", port, path: "/slow", agent }, (res) => {
            res.resume();
            res.on("end", () => resolve({ at, status: res.statusCode!, connection: res.headers.connection }));
          })
          .on("error", (e) => resolve({ at, status: (e as NodeJS.ErrnoException).code ?? "error" }));
      });
    // Two clients, each at most 40 requests, stop once the server refuses them.
    const client = async () => {
      for (let i = 0; i < 40; i++) {
        const outcome = await get();
        outcomes.push(outcome);
        if (outcome.status === "ECONNREFUSED") return;
      }
    };
    const exit = new Promise((resolve) => child.once("exit", resolve));
    const clients = [client(), client()];
    // Signalled once the server has answered a request (not after a fixed time: a loaded machine
    // may not have answered any by then).
    for (let waited = 0; !outcomes.some((o) => o.status === 200); waited += 10) {
      if (waited > 20_000) throw new Error("no request answered within 20 s");
      await new Promise((r) => setTimeout(r, 10));
    }
    child.kill("SIGTERM");
    await Promise.all(clients);
    agent.destroy();
    expect(await exit).toBe(0);

    const after = outcomes.filter((o) => o.at === "after");
    expect(outcomes.filter((o) => o.at === "before" && o.status === 200).length).toBeGreaterThan(0);
    // Every answer after the signal told the client to go; then the server refused new connections.
    expect(after.filter((o) => o.status === 200).every((o) => o.connection === "close")).toBe(true);
    expect(after.every((o) => o.status === 200 || o.status === "ECONNREFUSED" || o.status === "ECONNRESET")).toBe(true);
    // Each client ends on a refusal; counted over all outcomes, since "after" is judged by when the
    // child's STOPPING line arrived, which a loaded machine can deliver after the refusal itself.
    expect(outcomes.filter((o) => o.status === "ECONNREFUSED").length).toBe(2);
  }, 30_000);

  it("exits after SIGTERM when the reader of its stdout has gone (EPIPE), its JSON logs undeliverable", async () => {
    // As when `pnpm start`'s launcher dies: its services' stdout pipes have no reader any more.
    const script = `
      const express = require("express");
      const { serve } = require(${JSON.stringify(path.join(__dirname, "../dist/serve.js"))});
      const { createLogger } = require(${JSON.stringify(path.join(__dirname, "../dist/logger.js"))});
      serve({ name: "t", app: express(), port: 0, host: "127.0.0.1", logger: createLogger("t", "info", { format: "json", colorize: false }),
        shutdownTimeoutMs: 60000, onShutdown: async () => {}, clientErrorBody: () => ({ contentType: "application/json", body: "{}" }) })
        .then((server) => process.stderr.write("PORT " + server.address().port + "\\n"));
    `;
    const child = spawn(process.execPath, ["-e", script], { cwd: __dirname, stdio: ["ignore", "pipe", "pipe"] });
    const exit = new Promise<string>((resolve) => child.once("exit", (code, signal) => resolve(signal ?? `code ${code}`)));
    await new Promise<void>((resolve) => child.stderr!.on("data", (d) => String(d).includes("PORT") && resolve()));
    child.stdout!.destroy();
    child.kill("SIGTERM");
    const bound = setTimeout(() => child.kill("SIGKILL"), 10_000);
    try {
      expect(await exit).toBe("code 0");
    } finally {
      clearTimeout(bound);
    }
  }, 30_000);
});

describe("serve: requests the HTTP parser refuses", () => {
  const raw = (port: number, request: string) =>
    new Promise<string>((resolve, reject) => {
      const socket = net.connect(port, "127.0.0.1", () => socket.end(request));
      let answer = "";
      socket.on("data", (d) => (answer += String(d)));
      socket.on("end", () => resolve(answer));
      socket.on("error", reject);
    });

  it("answers an oversized header (431) and a malformed request line (400) in the service's shape, naming the path", async () => {
    const child = spawn(process.execPath, ["-e", SERVER], { cwd: __dirname, stdio: ["ignore", "pipe", "inherit"] });
    const port = await new Promise<number>((resolve) =>
      child.stdout!.on("data", (d) => {
        const m = /PORT (\d+)/.exec(String(d));
        if (m) resolve(Number(m[1]));
      }),
    );
    try {
      const big = await raw(port, `GET /v1/things?x=1 HTTP/1.1\r\nHost: x\r\nX-Big: ${"b".repeat(20 * 1024)}\r\n\r\n`);
      expect(big).toMatch(/^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/);
      expect(big).toMatch(/\r\nConnection: close\r\n/);
      const body = JSON.parse(big.split("\r\n\r\n")[1]);
      expect(body).toEqual({ path: "/v1/things", code: "headers_too_large", requestId: expect.any(String) });
      expect(big).toContain(`X-Request-Id: ${body.requestId}`);

      const bad = await raw(port, "NOT HTTP AT ALL\r\n\r\n");
      expect(bad).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
      expect(JSON.parse(bad.split("\r\n\r\n")[1])).toMatchObject({ path: "/", code: "malformed_request" });
    } finally {
      child.kill("SIGTERM");
    }
  }, 30_000);
});

describe("serve: the metrics listener", () => {
  it("serves the registry on its own port only, and stops with the service", async () => {
    const script = `
      const express = require("express");
      const pino = require("pino");
      const { serve } = require(${JSON.stringify(path.join(__dirname, "../dist/serve.js"))});
      const { createMetrics } = require(${JSON.stringify(path.join(__dirname, "../dist/metrics.js"))});
      const metrics = createMetrics("t");
      const app = express();
      app.use(metrics.middleware());
      app.get("/ok", (_req, res) => res.json({ ok: true }));
      const probe = require("net").createServer().listen(0, "127.0.0.1", () => {
        const metricsPort = probe.address().port;
        probe.close(() =>
          serve({ name: "t", app, port: 0, host: "127.0.0.1", logger: pino({ level: "silent" }), shutdownTimeoutMs: 5000, onShutdown: async () => {},
            clientErrorBody: () => ({ contentType: "application/json", body: "{}" }), metrics: { app: metrics.app(), port: metricsPort } })
            .then((server) => console.log("PORTS " + server.address().port + " " + metricsPort)));
      });
    `;
    const child = spawn(process.execPath, ["-e", script], { cwd: __dirname, stdio: ["ignore", "pipe", "inherit"] });
    const [port, metricsPort] = await new Promise<number[]>((resolve) =>
      child.stdout!.on("data", (d) => {
        const m = /PORTS (\d+) (\d+)/.exec(String(d));
        if (m) resolve([Number(m[1]), Number(m[2])]);
      }),
    );
    const exit = new Promise((resolve) => child.once("exit", resolve));
    try {
      expect((await fetch(`http://127.0.0.1:${port}/ok`)).status).toBe(200);
      expect((await fetch(`http://127.0.0.1:${port}/metrics`)).status).toBe(404);
      const scrape = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
      expect(scrape.status).toBe(200);
      expect(await scrape.text()).toMatch(/http_request_duration_seconds_count\{[^}]*route="\/ok"/);
    } finally {
      child.kill("SIGTERM");
    }
    expect(await exit).toBe(0);
    await expect(fetch(`http://127.0.0.1:${metricsPort}/metrics`)).rejects.toThrow();
  }, 30_000);
});
