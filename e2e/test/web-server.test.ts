import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import net, { type AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";

// The console's local server (scripts/web-server.mjs, what `pnpm start` serves on WEB_PORT) in its
// own process, in front of two recording upstreams, with a third server standing for any other
// host: it must forward only /api/ and /pricing/ to the two services, answer what the gateway
// answers for the paths it never routes, refuse a malformed request without stopping, and keep the
// development sign-in to browsers that named this machine. Raw requests over a socket: fetch would
// normalise the paths under test.

const WEB_SERVER = path.resolve(__dirname, "../../scripts/web-server.mjs");

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
}

function recorder(name: string) {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    seen.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers });
    if (req.url?.endsWith("/dies-mid-answer")) {
      res.writeHead(200, { "content-type": "text/plain", "content-length": "100" });
      res.write("the first bytes of 100");
      setImmediate(() => res.socket?.destroy());
      return;
    }
    req.resume();
    req.on("end", () => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ upstream: name, url: req.url })));
  });
  return { server, seen, port: () => (server.address() as AddressInfo).port };
}

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** One request as written (Connection: close added), over a socket; rejects when the answer is not complete within 10 s. */
function raw(port: number, requestLine: string, headers: Record<string, string> = { Host: `127.0.0.1:${port}` }, body = ""): Promise<Answer> {
  const head = [requestLine, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`), "Connection: close"];
  if (body) head.push(`Content-Length: ${Buffer.byteLength(body)}`);
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1", () => socket.write(`${head.join("\r\n")}\r\n\r\n${body}`));
    const chunks: Buffer[] = [];
    socket.setTimeout(10_000, () => socket.destroy(new Error(`no complete answer to ${requestLine} within 10 s`)));
    socket.on("data", (d) => chunks.push(d));
    socket.on("error", reject);
    socket.on("end", () => {
      const text = Buffer.concat(chunks).toString("latin1");
      const [top, ...rest] = text.split("\r\n\r\n");
      const [status, ...lines] = top.split("\r\n");
      const parsed = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(":")).toLowerCase(), l.slice(l.indexOf(":") + 1).trim()]));
      const sent = rest.join("\r\n\r\n");
      const length = parsed["content-length"] === undefined ? undefined : Number(parsed["content-length"]);
      const whole = parsed["transfer-encoding"] === "chunked" ? dechunk(sent) : length === undefined || sent.length >= length ? sent : undefined;
      // A response cut short (the connection closed before its end) is not an answer.
      if (!status.startsWith("HTTP/")) reject(new Error(`no answer to ${requestLine}: the connection closed`));
      else if (whole === undefined) reject(new Error(`the answer to ${requestLine} was cut short`));
      else resolve({ status: Number(status.split(" ")[1]), headers: parsed, body: whole });
    });
  });
}

/** A chunked body's content, or undefined when its last chunk never came. */
function dechunk(body: string): string | undefined {
  let content = "";
  for (let rest = body; ; ) {
    const eol = rest.indexOf("\r\n");
    const size = Number.parseInt(rest.slice(0, eol), 16);
    if (eol < 0 || Number.isNaN(size)) return undefined;
    if (size === 0) return content;
    content += rest.slice(eol + 2, eol + 2 + size);
    rest = rest.slice(eol + 2 + size + 2);
  }
}

describe("console web server (scripts/web-server.mjs)", () => {
  const main = recorder("main");
  const pricing = recorder("pricing");
  const elsewhere = recorder("elsewhere");
  let dist: string;
  let web: ChildProcess;
  let exited: string | undefined;
  let stderr = "";
  let port: number;
  const get = (target: string, headers?: Record<string, string>) => raw(port, `GET ${target} HTTP/1.1`, headers);
  const forwarded = () => [...main.seen, ...pricing.seen, ...elsewhere.seen];

  beforeAll(async () => {
    dist = fs.mkdtempSync(path.join(os.tmpdir(), "web-dist-"));
    fs.mkdirSync(path.join(dist, "assets"));
    fs.writeFileSync(path.join(dist, "index.html"), "<!doctype html><title>console</title>");
    fs.writeFileSync(path.join(dist, "assets/app-1234.js"), "console.log(1)");
    // A file whose every read fails (EIO): a failure no check before the read can see.
    if (process.platform === "linux") fs.symlinkSync("/proc/self/mem", path.join(dist, "assets/unreadable.js"));
    for (const r of [main, pricing, elsewhere]) await new Promise<void>((resolve) => r.server.listen(0, "127.0.0.1", resolve));
    const script = `import { startWebServer } from ${JSON.stringify(WEB_SERVER)};
      const server = await startWebServer({ port: 0, mainUrl: "http://127.0.0.1:${main.port()}", pricingUrl: "http://127.0.0.1:${pricing.port()}",
        dist: ${JSON.stringify(dist)}, config: { auth: { mode: "dev" } } });
      console.log("PORT " + server.port);`;
    web = spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: ["ignore", "pipe", "pipe"] });
    web.stderr!.on("data", (d) => (stderr += d));
    web.once("exit", (code, signal) => (exited = signal ?? `code ${code}`));
    port = await new Promise<number>((resolve, reject) => {
      web.stdout!.on("data", (d) => {
        const m = /PORT (\d+)/.exec(String(d));
        if (m) resolve(Number(m[1]));
      });
      web.once("exit", () => reject(new Error(`the web server exited (${exited}) before listening`)));
    });
  });
  beforeEach(() => {
    for (const r of [main, pricing, elsewhere]) r.seen.length = 0;
  });
  afterEach(() => {
    // Every test ends with the server still running: no request may stop it.
    if (exited) throw new Error(`the web server exited (${exited}):\n${stderr}`);
  });
  afterAll(async () => {
    if (web && exited === undefined) await new Promise((resolve) => web.once("exit", resolve).kill("SIGTERM"));
    for (const r of [main, pricing, elsewhere]) r.server.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  it("forwards /api/ to the main API and /pricing/ (prefix stripped) to the pricing API, the path and query as sent", async () => {
    expect((await get("/api/v1/things/a%20b?x=1&y=%2F")).body).toBe(JSON.stringify({ upstream: "main", url: "/api/v1/things/a%20b?x=1&y=%2F" }));
    expect((await get("/pricing/v1/pricing/compute?region=eu-west-1")).body).toBe(
      JSON.stringify({ upstream: "pricing", url: "/v1/pricing/compute?region=eu-west-1" }),
    );
    expect(main.seen[0].headers["x-forwarded-for"]).toBe("127.0.0.1");
    expect(elsewhere.seen).toEqual([]);
  });

  it("never forwards to another host: absolute-form targets, `//`, `\\`, dot segments and their encoded forms are a 400", async () => {
    const other = `127.0.0.1:${elsewhere.port()}`;
    const targets = [
      `http://${other}/api/v1/things`,
      `http://${other}/pricing/v1/things`,
      `http://${other}/`,
      `/pricing//${other}/x`,
      `/api//${other}/x`,
      `//${other}/x`,
      `/pricing/\\${other}/x`,
      `/pricing/%2F%2F${other}/x`,
      `/pricing/%2f${other}/x`,
      `/pricing/%5C${other}/x`,
      `/pricing/..%2f..%2fx`,
      `/pricing/%2e%2e/api/v1/things`,
      `/api/v1/../../pricing/v1/x`,
      `/pricing/./v1/x`,
      `/api/v1/%00`,
      "*",
    ];
    const statuses = [];
    for (const target of targets) statuses.push([target, (await get(target)).status]);
    expect(statuses).toEqual(targets.map((target) => [target, 400]));
    expect(forwarded()).toEqual([]);
  });

  it("answers 404 for the paths the gateway never routes (metrics, the pricing API's internal endpoints), forwarding nothing", async () => {
    const targets = [
      "/metrics",
      "/metrics/",
      "/METRICS",
      "/pricing/metrics",
      "/pricing/Metrics/x",
      "/pricing/internal/accounts/acc_1/api-keys",
      "/pricing/INTERNAL/api-keys/abc",
      "/pricing/%69nternal/api-keys/abc",
      "/pricing/internal",
    ];
    const statuses = [];
    for (const target of targets) statuses.push([target, (await get(target)).status]);
    const post = await raw(
      port,
      "POST /pricing/internal/accounts/acc_1/api-keys HTTP/1.1",
      { Host: `127.0.0.1:${port}`, "Content-Type": "application/json" },
      "{}",
    );
    statuses.push(["POST /pricing/internal/...", post.status]);
    expect(statuses).toEqual([...targets, "POST /pricing/internal/..."].map((target) => [target, 404]));
    expect(JSON.parse(post.body)).toEqual({ error: expect.stringMatching(/No route for this path/) });
    expect(forwarded()).toEqual([]);
    // Only those: a path that merely starts alike is the pricing API's to answer.
    expect((await get("/pricing/internals")).body).toBe(JSON.stringify({ upstream: "pricing", url: "/internals" }));
  });

  it("answers a malformed URL with a 400, and keeps serving", async () => {
    const targets = ["/%ff", "/%E0%A4%A", "/api/v1/%ff", "/pricing/v1/%c3%28", "/assets/%"];
    const statuses = [];
    for (const target of targets) statuses.push([target, (await get(target)).status]);
    expect(statuses).toEqual(targets.map((target) => [target, 400]));
    expect(forwarded()).toEqual([]);
    const page = await get("/recommendations?action=DOWNSIZE");
    expect([page.status, page.body]).toEqual([200, "<!doctype html><title>console</title>"]);
  });

  (process.platform === "linux" ? it : it.skip)("answers a file it cannot read with a 500, and keeps serving", async () => {
    expect((await get("/assets/unreadable.js")).status).toBe(500);
    expect(stderr).toContain("[web] GET /assets/unreadable.js: Error: EIO");
    const asset = await get("/assets/app-1234.js");
    expect([asset.status, asset.body, asset.headers["x-content-type-options"]]).toEqual([200, "console.log(1)", "nosniff"]);
  });

  it("cuts the client's answer short when the service dies mid-answer, and keeps serving", async () => {
    await expect(get("/api/v1/dies-mid-answer")).rejects.toThrow(/cut short/);
    expect((await get("/api/v1/things")).status).toBe(200);
  });

  it("refuses the development sign-in (403) to a Host that is not a loopback name, before the main API sees it", async () => {
    const signIn = (target: string, host: string) =>
      raw(port, `POST ${target} HTTP/1.1`, { Host: host, "Content-Type": "application/json" }, '{"email":"a@example.com"}');
    const refused = [
      ["/api/v1/dev/token", "evil.example:3002"],
      ["/api/v1/dev/token", "evil.example"],
      ["/api/v1/dev/token", "localhost.evil.example"],
      ["/api/v1/dev/token", "127.0.0.1.nip.io:3002"],
      ["/api/v1/dev/token", "10.0.0.5:3002"],
      ["/api/v1/dev/token/", "evil.example"],
      ["/api/V1/DEV/Token", "evil.example"],
      ["/api/v1/dev/%74oken", "evil.example"],
    ];
    const answers = [];
    for (const [target, host] of refused) {
      const res = await signIn(target, host);
      answers.push([target, host, res.status, JSON.parse(res.body).status]);
    }
    expect(answers).toEqual(refused.map(([target, host]) => [target, host, 403, "error"]));
    expect(main.seen).toEqual([]);

    for (const host of ["localhost:3002", "127.0.0.1:3002", "[::1]:3002", "localhost", "127.1.2.3"]) {
      expect([host, (await signIn("/api/v1/dev/token", host)).status]).toEqual([host, 200]);
    }
    // The browser's Host reaches the main API (which checks it too) in X-Forwarded-Host.
    expect(main.seen.map((s) => [s.url, s.headers["x-forwarded-host"]])).toEqual(
      ["localhost:3002", "127.0.0.1:3002", "[::1]:3002", "localhost", "127.1.2.3"].map((host) => ["/api/v1/dev/token", host]),
    );
    // Only the development sign-in: the console on another name reaches the rest of the API.
    expect((await get("/api/v1/things", { Host: "console.example" })).status).toBe(200);
  });
});
