// The compute price query driven as an outside client would: autocannon in its own process against
// the built pricing API in its own process (apps/pricing-api/dist/server.js with the flags of
// infra/node-flags.json, rate limits off, LOG_LEVEL=warn, a fresh embedded database or, with
// BENCH_DATABASE_URL / TEST_DATABASE_URL, a new PostgreSQL database), alternating in the same run
// with a bare Express 5 route in its own process answering a constant body of the same size.
import { execFile, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { freePort, waitForChild } from "../e2e/src/ports";
import { startService } from "../e2e/src/services";
import { median, round } from "./measure";

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, "..");
const AUTOCANNON = path.join(__dirname, "node_modules/.bin/autocannon");
const NODE_FLAGS: Record<string, string[]> = JSON.parse(fs.readFileSync(path.join(ROOT, "infra/node-flags.json"), "utf8"));

const serverUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
if (serverUrl) process.env.TEST_DATABASE_URL = serverUrl; // e2e/src/services.ts reads TEST_DATABASE_URL

// The bare route: the same Express major version and the same answer bytes, nothing else.
const BARE_SERVER = `
const express = require("express");
const body = process.env.BARE_BODY;
const app = express();
app.post("/v1/pricing/compute", (_req, res) => { res.type("application/json").send(body); });
app.listen(Number(process.env.BARE_PORT), "127.0.0.1", () => console.log("ready"));
app.get("/readyz", (_req, res) => { res.send("ok"); });
`;

export interface OutsideRun {
  requests_per_s: number;
  p99_ms: number;
  mean_ms: number;
  total: number;
}

export interface OutsideOptions {
  query: Record<string, string>;
  duration: number;
  warmup: number;
  alternations: number;
  connections: number;
}

/** One autocannon process (one thread) against `url`; its --json summary. */
async function autocannon(url: string, headers: Record<string, string>, body: string, duration: number, connections: number): Promise<OutsideRun> {
  const args = ["-j", "-c", String(connections), "-d", String(duration), "-m", "POST", "-b", body, "-H", "content-type=application/json"];
  for (const [k, v] of Object.entries(headers)) args.push("-H", `${k}=${v}`);
  const { stdout } = await run(AUTOCANNON, [...args, url], { timeout: (duration + 60) * 1000, maxBuffer: 16 * 2 ** 20 });
  const result = JSON.parse(stdout) as {
    non2xx: number;
    errors: number;
    requests: { average: number; total: number };
    latency: { p99: number; mean: number };
  };
  if (result.non2xx || result.errors) throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return { requests_per_s: result.requests.average, p99_ms: result.latency.p99, mean_ms: result.latency.mean, total: result.requests.total };
}

async function post(url: string, headers: Record<string, string>, body: unknown) {
  const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, text };
}

export async function measureOutside(options: OutsideOptions) {
  const pricing = await startService("pricing-api", {
    SERVICE_TOKEN_SECRET: randomBytes(32).toString("hex"),
    RATE_LIMIT_PER_IP: "0",
    RATE_LIMIT_PER_CREDENTIAL: "0",
    LOG_LEVEL: "warn",
    COMPUTE_CATALOG_REFRESH_MS: "0",
  });
  let bare: ReturnType<typeof spawn> | undefined;
  try {
    const key = async (account: string) =>
      (
        await run(process.execPath, [path.join(ROOT, "apps/pricing-api/dist/cli/pricing-key.js"), "--account", account], {
          env: { ...pricing.env, PRICING_API_URL: pricing.url },
          timeout: 30_000,
        })
      ).stdout.trim();
    const negotiatedKey = await key("acct_bench_negotiated");
    const plainKey = await key("acct_bench_plain");
    // A family discount covering the queried type (registering needs a member key; a new key is admin).
    const family = options.query.instance_type.split(".")[0];
    const registered = await post(
      `${pricing.url}/marketplace/providers/compute`,
      { "x-api-key": negotiatedKey },
      {
        entries: [{ provider: options.query.provider, family, discount_percent: 10 }],
      },
    );
    if (registered.status !== 201) throw new Error(`registering the discount answered ${registered.status}: ${registered.text}`);

    const queryUrl = `${pricing.url}/v1/pricing/compute`;
    const negotiatedSample = await post(queryUrl, { "x-api-key": negotiatedKey }, options.query);
    const plainSample = await post(queryUrl, { "x-api-key": plainKey }, options.query);
    if (negotiatedSample.status !== 200 || !negotiatedSample.text.includes('"source":"negotiated"'))
      throw new Error(`the negotiated query answered ${negotiatedSample.status}: ${negotiatedSample.text}`);
    if (plainSample.status !== 200) throw new Error(`the plain query answered ${plainSample.status}: ${plainSample.text}`);

    const barePort = await freePort();
    bare = spawn(process.execPath, [...NODE_FLAGS["pricing-api"], "-e", BARE_SERVER], {
      cwd: __dirname, // resolves bench's express
      env: { PATH: process.env.PATH, NODE_ENV: "production", BARE_PORT: String(barePort), BARE_BODY: negotiatedSample.text },
      stdio: ["ignore", "ignore", "inherit"],
    });
    await waitForChild(`http://127.0.0.1:${barePort}/readyz`, bare, 30_000);

    const body = JSON.stringify(options.query);
    const targets = [
      { name: "negotiated", url: queryUrl, headers: { "x-api-key": negotiatedKey } },
      { name: "plain", url: queryUrl, headers: { "x-api-key": plainKey } },
      { name: "bare", url: `http://127.0.0.1:${barePort}/v1/pricing/compute`, headers: {} },
    ] as const;
    for (const t of targets) await autocannon(t.url, t.headers, body, options.warmup, options.connections);
    const alternations: { negotiated: OutsideRun; plain: OutsideRun; bare: OutsideRun; ratio_negotiated: number; ratio_plain: number }[] = [];
    for (let i = 0; i < options.alternations; i++) {
      const runs = {} as Record<(typeof targets)[number]["name"], OutsideRun>;
      for (const t of targets) runs[t.name] = await autocannon(t.url, t.headers, body, options.duration, options.connections);
      const ratios = {
        ratio_negotiated: round(runs.negotiated.requests_per_s / runs.bare.requests_per_s, 3),
        ratio_plain: round(runs.plain.requests_per_s / runs.bare.requests_per_s, 3),
      };
      console.log(
        `alternation ${i + 1}: negotiated ${runs.negotiated.requests_per_s} req/s, without ${runs.plain.requests_per_s} req/s, bare ${runs.bare.requests_per_s} req/s; ratios ${ratios.ratio_negotiated} / ${ratios.ratio_plain}`,
      );
      alternations.push({ ...runs, ...ratios });
    }
    return {
      database: serverUrl ? "postgres" : "pglite",
      client: "autocannon (own process, one thread)",
      node_flags: NODE_FLAGS["pricing-api"],
      rate_limits: "off",
      log_level: "warn",
      duration_s: options.duration,
      warmup_s: options.warmup,
      connections: options.connections,
      body_bytes: Buffer.byteLength(negotiatedSample.text),
      alternations,
      median_ratio_negotiated: round(median(alternations.map((a) => a.ratio_negotiated)), 3),
      median_ratio_plain: round(median(alternations.map((a) => a.ratio_plain)), 3),
      median_requests_per_s: {
        negotiated: Math.round(median(alternations.map((a) => a.negotiated.requests_per_s))),
        plain: Math.round(median(alternations.map((a) => a.plain.requests_per_s))),
        bare: Math.round(median(alternations.map((a) => a.bare.requests_per_s))),
      },
      ratio_target: 0.6,
    };
  } finally {
    if (bare && bare.exitCode === null) {
      const exited = new Promise((resolve) => bare!.once("exit", resolve));
      bare.kill("SIGTERM");
      await exited;
    }
    await pricing.cleanup();
  }
}
