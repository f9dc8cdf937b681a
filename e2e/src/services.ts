import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Client } from "pg";
import { freePort, waitFor } from "./ports";

const ROOT = path.resolve(__dirname, "../..");

export interface Service {
  name: string;
  url: string;
  port: number;
  env: NodeJS.ProcessEnv;
  logs: string[];
  process: ChildProcess;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  start(): Promise<void>;
}

/**
 * Starts a built service (`apps/<name>/dist/server.js`) as a real process on its own database: an
 * embedded one in a temp directory, or, with TEST_DATABASE_URL, a new database on that server.
 */
export async function startService(
  name: "main-api" | "pricing-api",
  env: NodeJS.ProcessEnv,
  options: { port?: number } = {},
): Promise<Service> {
  const port = options.port ?? (await freePort());
  const upper = name === "main-api" ? "MAIN_API" : "PRICING_API";
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `e2e-${name}-`));
  const serviceEnv: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? "info",
    [`${upper}_PORT`]: String(port),
    [`${upper}_HOST`]: "127.0.0.1",
    [`${upper}_DATA_DIR`]: path.join(dataDir, "db"),
    ...env,
  };
  if (process.env.TEST_DATABASE_URL) serviceEnv[`${upper}_DATABASE_URL`] = await createServerDatabase(name);

  const service: Service = {
    name,
    port,
    url: `http://127.0.0.1:${port}`,
    env: serviceEnv,
    logs: [],
    process: undefined as unknown as ChildProcess,
    async start() {
      const child = spawn(process.execPath, [path.join(ROOT, `apps/${name}/dist/server.js`)], {
        cwd: dataDir,
        env: serviceEnv,
        stdio: ["ignore", "pipe", "pipe"],
      });
      for (const stream of [child.stdout, child.stderr]) stream?.on("data", (chunk) => service.logs.push(String(chunk)));
      service.process = child;
      try {
        await waitFor(`${service.url}/readyz`, 90_000);
      } catch (err) {
        child.kill("SIGKILL");
        throw new Error(`${name} did not become ready: ${(err as Error).message}\n${service.logs.join("").slice(-4000)}`);
      }
    },
    stop(signal = "SIGTERM") {
      const child = service.process;
      return new Promise((resolve) => {
        if (!child || child.exitCode !== null || child.signalCode !== null) return resolve(child?.exitCode ?? null);
        child.once("exit", (code) => resolve(code));
        child.kill(signal);
      });
    },
  };
  await service.start();
  return service;
}

async function createServerDatabase(name: string): Promise<string> {
  const server = process.env.TEST_DATABASE_URL!;
  const database = `cloudcost_e2e_${name.replace("-", "_")}_${randomBytes(4).toString("hex")}`;
  const client = new Client({ connectionString: server });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE "${database}"`);
  } finally {
    await client.end();
  }
  const url = new URL(server);
  url.pathname = `/${database}`;
  return url.toString();
}
