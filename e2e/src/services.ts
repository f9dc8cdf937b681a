import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort, waitForChild } from "./ports";
import { adminClient, createDatabase, databaseUrl as serverDatabaseUrl, templateFor } from "./templates";

const ROOT = path.resolve(__dirname, "../..");

// As the images run them: jemalloc preloaded when the machine has it (docs/deployment.md).
const JEMALLOC = ["/usr/local/lib", "/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu"]
  .map((dir) => path.join(dir, "libjemalloc.so.2"))
  .find((file) => fs.existsSync(file));
// As the images run them: each service's Node.js flags (infra/node-flags.json; docs/deployment.md).
const NODE_FLAGS: Record<"main-api" | "pricing-api", string[]> = JSON.parse(fs.readFileSync(path.join(ROOT, "infra/node-flags.json"), "utf8"));

/** The prefix of a service's environment variables (`MAIN_API_PORT`, ...). */
const envPrefix = (name: Service["name"]) => (name === "main-api" ? "MAIN_API" : "PRICING_API");

/** Starts on other free ports when a picked one was taken meanwhile, at most this many times. */
const PORT_ATTEMPTS = 3;

export interface Service {
  name: "main-api" | "pricing-api";
  url: string;
  port: number;
  /** Prometheus' /metrics, on the service's separate metrics listener. */
  metricsUrl: string;
  env: NodeJS.ProcessEnv;
  /** Working directory of the process; the embedded database lives in `${dataDir}/db`. */
  dataDir: string;
  /** The PostgreSQL database (with TEST_DATABASE_URL), else undefined. */
  databaseUrl?: string;
  logs: string[];
  process: ChildProcess;
  /** Sends `signal` (default SIGTERM) and resolves with the exit code (null when killed by a signal). */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  /** Starts the process again on the same port and database. */
  start(): Promise<void>;
  /** Stops the process (SIGKILL when it does not exit), drops its database and removes its directory. */
  cleanup(): Promise<void>;
}

/**
 * Starts a built service (`apps/<name>/dist/server.js`) as a real process on its own database: an
 * embedded one in a temp directory, or, with TEST_DATABASE_URL, a new database on that server; both
 * copied from the run's prepared template (migrated, catalog loaded) when there is one.
 * `options.entry` runs another copy of the built server.js (the image's file layout).
 */
export async function startService(
  name: "main-api" | "pricing-api",
  env: NodeJS.ProcessEnv,
  options: { port?: number; entry?: string } = {},
): Promise<Service> {
  const port = options.port ?? (await freePort());
  const metricsPort = await freePort();
  const upper = envPrefix(name);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `e2e-${name}-`));
  const serviceEnv: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? "info",
    [`${upper}_PORT`]: String(port),
    [`${upper}_HOST`]: "127.0.0.1",
    [`${upper}_METRICS_PORT`]: String(metricsPort),
    [`${upper}_DATA_DIR`]: path.join(dataDir, "db"),
    ...(JEMALLOC ? { LD_PRELOAD: JEMALLOC } : {}),
    ...env,
  };
  const template = await templateFor(name);
  const databaseUrl = process.env.TEST_DATABASE_URL
    ? serverDatabaseUrl(await createDatabase(`cloudcost_e2e_${name.replace("-", "_")}`, template?.database))
    : undefined;
  if (databaseUrl) serviceEnv[`${upper}_DATABASE_URL`] = databaseUrl;
  else if (template?.dir) fs.cpSync(template.dir, path.join(dataDir, "db"), { recursive: true });
  return launch(name, serviceEnv, {
    port,
    metricsPort,
    dataDir,
    databaseUrl,
    ownsDatabase: true,
    entry: options.entry,
    portsMayMove: options.port === undefined,
  });
}

/**
 * Another process of a running service on the same PostgreSQL database (as a second replica behind
 * the gateway): its own port, metrics port and working directory; `of` owns the database.
 */
export async function startReplica(of: Service): Promise<Service> {
  if (!of.databaseUrl) throw new Error(`a second ${of.name} replica needs a PostgreSQL database (TEST_DATABASE_URL): an embedded one belongs to one process`);
  const upper = envPrefix(of.name);
  const port = await freePort();
  const metricsPort = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `e2e-${of.name}-replica-`));
  const env: NodeJS.ProcessEnv = {
    ...of.env,
    [`${upper}_PORT`]: String(port),
    [`${upper}_METRICS_PORT`]: String(metricsPort),
    [`${upper}_DATA_DIR`]: path.join(dataDir, "db"),
  };
  return launch(of.name, env, { port, metricsPort, dataDir, databaseUrl: of.databaseUrl, ownsDatabase: false, portsMayMove: true });
}

async function launch(
  name: "main-api" | "pricing-api",
  serviceEnv: NodeJS.ProcessEnv,
  options: { port: number; metricsPort: number; dataDir: string; databaseUrl?: string; ownsDatabase: boolean; entry?: string; portsMayMove: boolean },
): Promise<Service> {
  const { port, metricsPort, dataDir, databaseUrl } = options;
  const service: Service = {
    name,
    port,
    url: `http://127.0.0.1:${port}`,
    metricsUrl: `http://127.0.0.1:${metricsPort}/metrics`,
    env: serviceEnv,
    dataDir,
    databaseUrl,
    logs: [],
    process: undefined as unknown as ChildProcess,
    async start() {
      const entry = options.entry ?? path.join(ROOT, `apps/${name}/dist/server.js`);
      const child = spawn(process.execPath, [...NODE_FLAGS[name], entry], {
        cwd: dataDir,
        env: serviceEnv,
        stdio: ["ignore", "pipe", "pipe"],
      });
      for (const stream of [child.stdout, child.stderr]) stream?.on("data", (chunk) => service.logs.push(String(chunk)));
      service.process = child;
      try {
        await waitForChild(`${service.url}/readyz`, child, 90_000);
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
    async cleanup() {
      const child = service.process;
      if (child && child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGTERM");
        const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
        await exited;
        clearTimeout(timer);
      }
      if (databaseUrl && options.ownsDatabase) await dropServerDatabase(databaseUrl);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
  const upper = envPrefix(name);
  let currentMetricsPort = metricsPort;
  for (let attempt = 1; ; attempt++) {
    try {
      await service.start();
      return service;
    } catch (err) {
      // A picked port is free only when it was picked: another test's process may bind it first.
      // Ports this function picked move to new free ones (a port the caller chose stays, but its
      // metrics port, always picked here, moves when it is the one taken).
      const taken = /EADDRINUSE[^\n]*?:(\d+)/.exec(service.logs.join(""));
      const metricsTaken = taken !== null && Number(taken[1]) === currentMetricsPort;
      if (!taken || (!options.portsMayMove && !metricsTaken) || attempt >= PORT_ATTEMPTS) {
        await service.cleanup();
        throw err;
      }
      service.logs.length = 0;
      if (options.portsMayMove) {
        service.port = await freePort();
        service.url = `http://127.0.0.1:${service.port}`;
        serviceEnv[`${upper}_PORT`] = String(service.port);
      }
      currentMetricsPort = await freePort();
      service.metricsUrl = `http://127.0.0.1:${currentMetricsPort}/metrics`;
      serviceEnv[`${upper}_METRICS_PORT`] = String(currentMetricsPort);
    }
  }
}

/** Drops a service's database (closing what still holds it). */
async function dropServerDatabase(databaseUrl: string): Promise<void> {
  const database = new URL(databaseUrl).pathname.slice(1);
  const client = adminClient();
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
}
