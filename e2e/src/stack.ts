import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startGateway, type Gateway } from "./nginx";
import { freePort, waitFor } from "./ports";
import { startReplica, startService, type Service } from "./services";

const ROOT = path.resolve(__dirname, "../..");

export interface Stack {
  /** The first replica of each service (the only one unless `replicas` > 1). */
  main: Service;
  pricing: Service;
  /** Every replica, the first included, each behind the gateway's upstream. */
  mains: Service[];
  pricings: Service[];
  gateway: Gateway;
  /** The console (apps/web's build, served by scripts/web-server.mjs) behind the gateway at `/`. */
  consoleUrl: string;
  /** `${gateway}/api` is the main API, `${gateway}/pricing` the pricing API. */
  api: string;
  pricingUrl: string;
  /** A development-issuer token, minted with the main API's own CLI. */
  devToken(email: string, ...flags: string[]): string;
  stop(): Promise<void>;
}

/** How many processes of each service a stack runs: E2E_REPLICAS (default 1). */
export function configuredReplicas(): number {
  const replicas = Number(process.env.E2E_REPLICAS ?? "1");
  if (!Number.isInteger(replicas) || replicas < 1) throw new Error(`E2E_REPLICAS must be a positive integer, got ${process.env.E2E_REPLICAS}`);
  return replicas;
}

/**
 * Both services as real processes on their own databases, sharing SERVICE_TOKEN_SECRET, the main
 * API pointing at the pricing API directly, and nginx in front of both. With `replicas` > 1 (on
 * PostgreSQL: TEST_DATABASE_URL) each service runs that many processes on its one database, behind
 * the gateway's upstreams, with rate limits shared in Redis (E2E_REDIS_URL, default database 1 of
 * 127.0.0.1:6379); the main API's outbox delivers to the first pricing API replica, which tells
 * the others.
 */
export async function startStack(options: { mainEnv?: NodeJS.ProcessEnv; replicas?: number } = {}): Promise<Stack> {
  const replicas = options.replicas ?? configuredReplicas();
  if (replicas > 1 && !process.env.TEST_DATABASE_URL) {
    throw new Error("E2E_REPLICAS > 1 needs TEST_DATABASE_URL: the replicas of a service share one PostgreSQL database");
  }
  const shared: NodeJS.ProcessEnv = replicas > 1 ? { REDIS_URL: process.env.E2E_REDIS_URL ?? "redis://127.0.0.1:6379/1" } : {};
  const secret = randomBytes(32).toString("base64url");
  const issuerDir = fs.mkdtempSync(path.join(os.tmpdir(), "e2e-issuer-"));
  const pricingPort = await freePort();
  const started: Service[] = [];
  let gateway: Gateway | undefined;
  let web: ChildProcess | undefined;
  const stop = async () => {
    await gateway?.stop();
    if (web && web.exitCode === null && web.signalCode === null) await new Promise((resolve) => web?.once("exit", resolve).kill("SIGTERM"));
    // Replicas first: the first process of each service drops the database they share.
    await Promise.all(started.slice(2).map((s) => s.cleanup()));
    await Promise.all(started.slice(0, 2).map((s) => s.cleanup()));
    fs.rmSync(issuerDir, { recursive: true, force: true });
  };
  try {
    const results = await Promise.allSettled([
      startService("pricing-api", { SERVICE_TOKEN_SECRET: secret, ...shared }, { port: pricingPort }),
      startService("main-api", {
        ...shared,
        SERVICE_TOKEN_SECRET: secret,
        PRICING_API_URL: `http://127.0.0.1:${pricingPort}`,
        PRICING_API_TIMEOUT_MS: "10000",
        MAIN_API_DEV_ISSUER_DIR: issuerDir,
        OUTBOX_POLL_MS: "200",
        OUTBOX_BACKOFF_BASE_MS: "100",
        OUTBOX_BACKOFF_MAX_MS: "1000",
        ANALYSIS_INTERVAL_MINUTES: "0",
        ...options.mainEnv,
      }),
    ]);
    for (const result of results) if (result.status === "fulfilled") started.push(result.value);
    const failed = results.find((r) => r.status === "rejected");
    if (failed) throw failed.reason;
    const [pricing, main] = started;
    const pricings = [pricing];
    const mains = [main];
    for (let i = 1; i < replicas; i++) {
      const more = await Promise.all([startReplica(pricing), startReplica(main)]);
      started.push(...more);
      pricings.push(more[0]);
      mains.push(more[1]);
    }
    const upstream = (services: Service[]) => services.map((s) => `127.0.0.1:${s.port}`);
    const webPort = await freePort();
    web = spawn(process.execPath, [path.join(ROOT, "scripts/web-server.mjs")], {
      env: { PATH: process.env.PATH, WEB_PORT: String(webPort), WEB_HOST: "127.0.0.1" },
      stdio: ["ignore", "ignore", "inherit"],
    });
    await waitFor(`http://127.0.0.1:${webPort}/config.json`, 60_000);
    gateway = await startGateway({ mainApi: upstream(mains), pricingApi: upstream(pricings), web: `127.0.0.1:${webPort}` });
    return {
      main,
      pricing,
      mains,
      pricings,
      gateway,
      consoleUrl: gateway.url,
      api: `${gateway.url}/api`,
      pricingUrl: `${gateway.url}/pricing`,
      devToken(email, ...flags) {
        const cli = spawnSync(process.execPath, [path.join(ROOT, "apps/main-api/dist/cli/dev-token.js"), "--email", email, ...flags], {
          env: { PATH: process.env.PATH, MAIN_API_DEV_ISSUER_DIR: issuerDir },
          encoding: "utf8",
        });
        if (cli.status !== 0) throw new Error(`dev-token failed: ${cli.stderr}`);
        return cli.stdout.trim();
      },
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
