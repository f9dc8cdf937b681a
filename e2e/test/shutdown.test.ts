import { spawnSync } from "node:child_process";
import net from "node:net";
import path from "node:path";
import { ApiError, createClient, type PricingApiClient } from "@cloudcost/client";
import { startService, type Service } from "../src/services";

// SIGTERM while a client streams writes: every write the service acknowledged must be stored
// after a restart on the same database, and the process must exit 0 within its shutdown timeout.
// Clients that vanish mid-request must not take the service down.

const ROOT = path.resolve(__dirname, "../..");
const SHUTDOWN_TIMEOUT_MS = 5000;
const WRITES = 200;
const CONCURRENCY = 4;
const SIGTERM_AFTER = 60;

const entry = (i: number) => ({
  provider: "aws",
  service: "rds",
  region: "eu-west-1",
  engine: "PostgreSQL",
  instance_type: `db.e2e.${String(i).padStart(3, "0")}`,
  cost_per_hour: (i + 1) / 1000,
});

/** Resolves with the exit code, or rejects when the process has not exited by `ms`. */
function exitWithin(service: Service, ms: number): Promise<number | null> {
  const child = service.process;
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${service.name} still running ${ms} ms after SIGTERM`)), ms);
    child.once("exit", (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
}

/** Opens a connection, sends `data`, and drops the connection without reading the answer. */
function sendAndVanish(port: number, data: string, afterMs = 0): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1", () => {
      socket.write(data, () =>
        setTimeout(() => {
          socket.destroy();
          resolve();
        }, afterMs),
      );
    });
    socket.on("error", reject);
  });
}

describe("pricing API shutdown", () => {
  let service: Service;
  let key: string;
  let pricing: PricingApiClient;

  beforeAll(async () => {
    service = await startService("pricing-api", {
      SERVICE_TOKEN_SECRET: "e2e-shutdown-secret-0123456789abcdefghij",
      SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS),
    });
    const cli = spawnSync(process.execPath, [path.join(ROOT, "apps/pricing-api/dist/cli/pricing-key.js"), "--account", "acct_shutdown"], {
      env: service.env,
      encoding: "utf8",
    });
    if (cli.status !== 0) throw new Error(`pricing-key failed: ${cli.stderr}`);
    key = cli.stdout.trim();
    pricing = createClient({ pricingUrl: service.url, apiKey: key }).pricing;
  });
  afterAll(async () => {
    await service?.cleanup();
  });

  it("survives clients that disconnect mid-request", async () => {
    const body = JSON.stringify({ entries: [entry(999)] });
    const head = (length: number) =>
      `POST /marketplace/providers/databases HTTP/1.1\r\nHost: x\r\nX-API-Key: ${key}\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`;
    // Half a body, then gone.
    await sendAndVanish(service.port, head(body.length + 1000) + body);
    // A whole request, gone before the answer.
    await sendAndVanish(service.port, head(body.length) + body);
    // Half the headers.
    await sendAndVanish(service.port, "POST /v1/pricing/usage HTTP/1.1\r\nHost: x\r\nContent-Le");
    // A large usage request aborted by the client while the service works on it.
    const usage = Array.from({ length: 10000 }, (_, i) => ({
      resource_id: `r${i}`,
      kind: "database",
      timestamp: "2026-01-01T00:00:00Z",
      labels: { "costs.example.com/pricing-id.database": "dpr_unknown" },
      quantities: { hours: 1 },
    }));
    const aborted = fetch(`${service.url}/v1/pricing/usage`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": key },
      body: JSON.stringify({ usage }),
      signal: AbortSignal.timeout(30),
    });
    await expect(aborted).rejects.toThrow();

    await new Promise((r) => setTimeout(r, 200));
    expect(service.process.exitCode).toBeNull();
    await pricing.pricingHealthz();
    await pricing.registerDatabases({ body: { entries: [entry(998)] } });
    expect(service.logs.join("")).not.toMatch(/uncaught|unhandled/i);
  });

  it("stores every write it acknowledged before SIGTERM and exits 0 within the shutdown timeout", async () => {
    const acknowledged = new Map<string, number>();
    const refused: string[] = [];
    let next = 0;
    let signalled: Promise<number | null> | undefined;
    const worker = async () => {
      while (next < WRITES) {
        const i = next++;
        const e = entry(i);
        try {
          const stored = await pricing.registerDatabases({ body: { entries: [e] }, signal: AbortSignal.timeout(30_000) });
          acknowledged.set(stored.entries[0].instance_type!, e.cost_per_hour);
        } catch (err) {
          // An error answer, or the connection refused or closed (status 0): not acknowledged.
          refused.push(`${e.instance_type}: ${err instanceof ApiError ? `${err.status} ${err.code}` : (err as Error).message}`);
        }
        if (!signalled && acknowledged.size >= SIGTERM_AFTER) {
          service.process.kill("SIGTERM");
          signalled = exitWithin(service, SHUTDOWN_TIMEOUT_MS + 5000);
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    expect(signalled).toBeDefined();
    expect(await signalled).toBe(0);
    expect(acknowledged.size).toBeGreaterThanOrEqual(SIGTERM_AFTER);
    expect(acknowledged.size).toBeLessThan(WRITES); // the service did stop midway
    console.info(`shutdown under load: ${acknowledged.size} of ${WRITES} writes acknowledged, ${refused.length} not`);

    await service.start();
    const stored = await pricing.listDatabases({ query: { service: "rds", region: "eu-west-1" } });
    const byType = new Map(stored.entries.map((e) => [e.instance_type!, e.cost_per_hour]));
    const lost = [...acknowledged].filter(([type, cost]) => byType.get(type) !== cost).map(([type]) => type);
    expect(lost).toEqual([]);
  });
});
