import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Client } from "pg";
import { freePort, waitForChild } from "./ports";

// A fresh service spends most of its start on initdb, migrations and (pricing API) loading the
// compute catalog seed. The first start of each service in a run prepares that once, as a stopped
// template: an embedded data directory to copy, or a PostgreSQL database to CREATE ... TEMPLATE from.
// globalSetup chooses the run directory; globalTeardown removes it and drops the template databases.

const ROOT = path.resolve(__dirname, "../..");
export type ServiceName = "main-api" | "pricing-api";

export const runDir = (): string | undefined => process.env.E2E_RUN_DIR;

export function adminClient(): Client {
  return new Client({ connectionString: process.env.TEST_DATABASE_URL });
}

export async function createDatabase(prefix: string, template?: string): Promise<string> {
  const database = `${prefix}_${Math.random().toString(16).slice(2, 10)}`;
  const client = adminClient();
  await client.connect();
  try {
    await client.query(`CREATE DATABASE "${database}"${template ? ` TEMPLATE "${template}"` : ""}`);
  } finally {
    await client.end();
  }
  return database;
}

export function databaseUrl(database: string): string {
  const url = new URL(process.env.TEST_DATABASE_URL!);
  url.pathname = `/${database}`;
  return url.toString();
}

/** Runs `fn` while holding a lock directory (test files may run in parallel workers). */
async function withLock<T>(lock: string, fn: () => Promise<T>): Promise<T> {
  for (;;) {
    try {
      fs.mkdirSync(lock);
      break;
    } catch {
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  try {
    return await fn();
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}

/** Starts the service once on an empty database, lets it migrate (and seed), and stops it. */
async function prepare(name: ServiceName, env: NodeJS.ProcessEnv, attempt = 1): Promise<void> {
  const port = await freePort();
  const upper = name === "main-api" ? "MAIN_API" : "PRICING_API";
  const child = spawn(process.execPath, [path.join(ROOT, `apps/${name}/dist/server.js`)], {
    cwd: os.tmpdir(),
    env: {
      PATH: process.env.PATH,
      LOG_LEVEL: "warn",
      SERVICE_TOKEN_SECRET: "e2e-template-secret-0123456789abcdefghijkl",
      ANALYSIS_INTERVAL_MINUTES: "0",
      [`${upper}_PORT`]: String(port),
      [`${upper}_HOST`]: "127.0.0.1",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  // Both streams, so that a failure names what the service said (its log lines go to stdout).
  let output = "";
  for (const stream of [child.stdout, child.stderr]) stream?.on("data", (chunk) => (output += chunk));
  const exited = new Promise<string>((resolve) => child.once("exit", (code, signal) => resolve(signal ? `signal ${signal}` : `code ${code}`)));
  try {
    await waitForChild(`http://127.0.0.1:${port}/readyz`, child, 180_000);
  } catch (err) {
    child.kill("SIGKILL");
    await exited;
    // Another process took the port between freePort() and the service's listen: pick another.
    if (/EADDRINUSE/.test(output) && attempt < 3) return prepare(name, env, attempt + 1);
    throw new Error(`preparing the ${name} template failed: ${(err as Error).message}\n${output}`);
  }
  child.kill("SIGTERM");
  const exit = await exited;
  // Killed by the signal itself: the process had not installed its handlers yet, so the readiness
  // answer came from another process that took the port between freePort() and the listen (seen
  // once under a full parallel run). Its half-made template is dropped and prepared again.
  if (exit === "signal SIGTERM" && attempt < 3) {
    const dir = env[`${upper}_DATA_DIR`];
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
    return prepare(name, env, attempt + 1);
  }
  if (exit !== "code 0") throw new Error(`the ${name} template did not stop cleanly (${exit})\n${output}`);
}

/**
 * The template of a service for this run, prepared on first use: `{dir}` (embedded) or
 * `{database}` (with TEST_DATABASE_URL); undefined outside a run (no globalSetup).
 */
export async function templateFor(name: ServiceName): Promise<{ dir?: string; database?: string } | undefined> {
  const run = runDir();
  if (!run) return undefined;
  const record = path.join(run, `${name}.json`);
  return withLock(path.join(run, `${name}.lock`), async () => {
    if (fs.existsSync(record)) return JSON.parse(fs.readFileSync(record, "utf8"));
    const upper = name === "main-api" ? "MAIN_API" : "PRICING_API";
    let template: { dir?: string; database?: string };
    if (process.env.TEST_DATABASE_URL) {
      const database = await createDatabase(`cloudcost_e2e_tpl_${name.replace("-", "_")}`);
      template = { database };
      fs.writeFileSync(`${record}.pending`, JSON.stringify(template)); // dropped by teardown even if preparing fails
      await prepare(name, { [`${upper}_DATABASE_URL`]: databaseUrl(database) });
    } else {
      const dir = path.join(run, `${name}-template`);
      template = { dir };
      await prepare(name, { [`${upper}_DATA_DIR`]: dir });
    }
    fs.writeFileSync(record, JSON.stringify(template));
    return template;
  });
}

/** globalTeardown: drop the template databases and remove the run directory. */
export async function removeTemplates(): Promise<void> {
  const run = runDir();
  if (!run || !fs.existsSync(run)) return;
  const databases = fs
    .readdirSync(run)
    .filter((f) => f.endsWith(".json.pending"))
    .map((f) => JSON.parse(fs.readFileSync(path.join(run, f), "utf8")).database as string);
  if (databases.length && process.env.TEST_DATABASE_URL) {
    const client = adminClient();
    await client.connect();
    try {
      for (const database of databases) await client.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
    } finally {
      await client.end();
    }
  }
  fs.rmSync(run, { recursive: true, force: true });
}
