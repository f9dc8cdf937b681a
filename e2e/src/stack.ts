import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startGateway, type Gateway } from "./nginx";
import { freePort, waitFor } from "./ports";
import { startService, type Service } from "./services";

const ROOT = path.resolve(__dirname, "../..");

export interface Stack {
  main: Service;
  pricing: Service;
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

/**
 * Both services as real processes on their own databases, sharing SERVICE_TOKEN_SECRET, the main
 * API pointing at the pricing API directly, and nginx in front of both.
 */
export async function startStack(options: { mainEnv?: NodeJS.ProcessEnv } = {}): Promise<Stack> {
  const secret = randomBytes(32).toString("base64url");
  const issuerDir = fs.mkdtempSync(path.join(os.tmpdir(), "e2e-issuer-"));
  const pricingPort = await freePort();
  const started: Service[] = [];
  let gateway: Gateway | undefined;
  let web: ChildProcess | undefined;
  const stop = async () => {
    await gateway?.stop();
    if (web && web.exitCode === null && web.signalCode === null) await new Promise((resolve) => web?.once("exit", resolve).kill("SIGTERM"));
    await Promise.all(started.map((s) => s.cleanup()));
    fs.rmSync(issuerDir, { recursive: true, force: true });
  };
  try {
    const results = await Promise.allSettled([
      startService("pricing-api", { SERVICE_TOKEN_SECRET: secret }, { port: pricingPort }),
      startService("main-api", {
        SERVICE_TOKEN_SECRET: secret,
        PRICING_API_URL: `http://127.0.0.1:${pricingPort}`,
        PRICING_API_TIMEOUT_MS: "2000",
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
    const webPort = await freePort();
    web = spawn(process.execPath, [path.join(ROOT, "scripts/web-server.mjs")], {
      env: { PATH: process.env.PATH, WEB_PORT: String(webPort), WEB_HOST: "127.0.0.1" },
      stdio: ["ignore", "ignore", "inherit"],
    });
    await waitFor(`http://127.0.0.1:${webPort}/config.json`, 15_000);
    gateway = await startGateway({ mainApi: `127.0.0.1:${main.port}`, pricingApi: `127.0.0.1:${pricing.port}`, web: `127.0.0.1:${webPort}` });
    return {
      main,
      pricing,
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
