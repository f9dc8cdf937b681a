// Pod ingest as agents drive it: the built main API in its own process (apps/main-api/dist/server.js
// with the flags of infra/node-flags.json, rate limits off, LOG_LEVEL=warn) on a new PostgreSQL
// database, and this process as the agents, each one cluster of one tenant on its own nodes,
// POSTing 10,000-sample bodies (one new hour each, built before the clock starts) one after the
// other over a kept-alive connection. Throughput: samples of all agents / wall time from the first
// request to the last answer.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { startService } from "../e2e/src/services";
import { percentile, round } from "./measure";

const ROOT = path.resolve(__dirname, "..");
const SAMPLES = 10_000;
const PODS_PER_NODE = 30;
const NODES_PER_CLUSTER = Math.ceil(SAMPLES / PODS_PER_NODE);
// 30 days ago at UTC midnight: a pod sample may be at most 93 days old, and the hours sent stay in the past.
const START = Math.floor(Date.now() / 86_400_000) * 86_400_000 - 30 * 86_400_000;

const TICKS_PER_S = 100; // USER_HZ, the unit of /proc/<pid>/stat's times on Linux

/** CPU seconds (user + system) each process has used so far, read from /proc (none where unreadable). */
function cpuSeconds(pids: number[]): Map<number, number> {
  const used = new Map<number, number>();
  for (const pid of pids) {
    try {
      const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
      used.set(pid, (Number(fields[11]) + Number(fields[12])) / TICKS_PER_S);
    } catch {
      // exited meanwhile
    }
  }
  return used;
}

/** CPU seconds used between two readings; a process first seen in the later one counts whole. */
function cpuBetween(before: Map<number, number>, after: Map<number, number>): number {
  let total = 0;
  for (const [pid, seconds] of after) total += seconds - (before.get(pid) ?? 0);
  return total;
}

/** The PostgreSQL server's processes on this machine (its backends come and go; those of the run stay, pooled). */
function postgresPids(): number[] {
  return fs
    .readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((pid) => {
      try {
        return fs.readFileSync(`/proc/${pid}/comm`, "utf8").trim() === "postgres";
      } catch {
        return false;
      }
    });
}

export interface IngestRun {
  agents: number;
  requests: number;
  samples: number;
  wall_s: number;
  samples_per_s: number;
  request_p50_ms: number;
  request_max_ms: number;
  /** CPU per request of the API's process and of PostgreSQL's processes (0 when /proc is not there). */
  api_cpu_ms_per_request: number;
  postgres_cpu_ms_per_request: number;
}

/** One hour of one cluster's 10,000 pods, 30 a node, as an agent sends it. */
function podBody(cluster: string, hourIndex: number): Buffer {
  const timestamp = new Date(START + hourIndex * 3_600_000).toISOString();
  const samples = Array.from({ length: SAMPLES }, (_, p) => ({
    cluster,
    namespace: `ns-${(p * 13) % 50}`,
    pod: `pod-${p}`,
    node: `${cluster}-node-${Math.floor(p / PODS_PER_NODE)}`,
    controller_kind: "Deployment",
    controller_name: `app-${(p * 17) % 3000}`,
    labels: { team: `team-${p % 7}`, app: `app-${(p * 17) % 3000}` },
    timestamp,
    cpu_request_cores: 0.05 + (p % 4) * 0.05,
    memory_request_gb: 0.25 + (p % 4) * 0.25,
    cpu_usage_cores: (p % 100) / 400,
    memory_usage_gb: 0.25 + (p % 10) / 10,
  }));
  return Buffer.from(JSON.stringify({ samples }));
}

function send(agent: http.Agent, url: URL, headers: Record<string, string>, method: string, body: Buffer): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method, agent, headers: { ...headers, "content-type": "application/json", "content-length": String(body.length) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

export async function measurePodIngestOverHttp(options: { agents: number[]; rounds: number }): Promise<{ server: string; runs: IngestRun[] }> {
  const issuerDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-issuer-"));
  const main = await startService("main-api", {
    LOG_LEVEL: "warn",
    RATE_LIMIT_PER_IP: "0",
    RATE_LIMIT_PER_CREDENTIAL: "0",
    ANALYSIS_INTERVAL_MINUTES: "0",
    ALERTS_INTERVAL_MINUTES: "0",
    MAIN_API_DEV_ISSUER_DIR: issuerDir,
  });
  const keepAlive = new http.Agent({ keepAlive: true, maxSockets: Math.max(...options.agents) + 1 });
  try {
    const token = spawnSync(process.execPath, [path.join(ROOT, "apps/main-api/dist/cli/dev-token.js"), "--email", "agents@bench.test"], {
      env: { PATH: process.env.PATH, MAIN_API_DEV_ISSUER_DIR: issuerDir },
      encoding: "utf8",
    });
    if (token.status !== 0) throw new Error(`dev-token failed: ${token.stderr}`);
    const auth = { authorization: `Bearer ${token.stdout.trim()}` };
    const signup = await send(
      keepAlive,
      new URL(`${main.url}/api/v1/signup/complete`),
      auth,
      "POST",
      Buffer.from(JSON.stringify({ company_name: "Bench Agents", first_name: "Ada", last_name: "Lovelace" })),
    );
    if (signup.status !== 201) throw new Error(`sign-up answered ${signup.status}: ${signup.text}`);
    const tenantId = (JSON.parse(signup.text) as { data: { default_tenant: { id: string } } }).data.default_tenant.id;
    const headers = { ...auth, "x-service-tenant-id": tenantId };

    const clusters = Array.from({ length: Math.max(...options.agents) }, (_, a) => `agent-${a}`);
    for (const cluster of clusters) {
      const resources = Array.from({ length: NODES_PER_CLUSTER }, (_, i) => ({
        resource_id: `${cluster}-node-${i}`,
        resource_type: "kubernetes_node",
        provider: "aws",
        region: "us-east-1",
        instance_type: "m5.2xlarge",
        cpu_cores: 8,
        ram_gb: 32,
        cluster,
        node_pool: `pool-${i % 4}`,
        purchase_option: "on_demand",
      }));
      const put = await send(keepAlive, new URL(`${main.url}/api/v1/tenant/compute/resources`), headers, "PUT", Buffer.from(JSON.stringify({ resources })));
      if (put.status !== 200) throw new Error(`upserting ${cluster}'s nodes answered ${put.status}: ${put.text}`);
    }

    const podsUrl = new URL(`${main.url}/api/v1/tenant/kubernetes/pods`);
    let nextHour = 0;
    const runs: IngestRun[] = [];
    for (const agents of options.agents) {
      // A warm-up request per agent, then `rounds` new hours per agent, all bodies built beforehand.
      const hours = options.rounds + 1;
      const first = nextHour;
      nextHour += hours;
      const bodies = clusters.slice(0, agents).map((cluster) => Array.from({ length: hours }, (_, h) => podBody(cluster, first + h)));
      const latencies: number[] = [];
      const agentLoop = async (own: Buffer[], timed: boolean) => {
        for (const body of own) {
          const t0 = performance.now();
          const res = await send(keepAlive, podsUrl, headers, "POST", body);
          if (res.status !== 200) throw new Error(`pod ingest answered ${res.status}: ${res.text.slice(0, 500)}`);
          if (timed) latencies.push(performance.now() - t0);
        }
      };
      await Promise.all(bodies.map((own) => agentLoop(own.slice(0, 1), false)));
      const apiPid = [main.process.pid ?? 0];
      const cpu0 = { api: cpuSeconds(apiPid), pg: cpuSeconds(postgresPids()) };
      const started = performance.now();
      await Promise.all(bodies.map((own) => agentLoop(own.slice(1), true)));
      const wall = (performance.now() - started) / 1000;
      const cpu1 = { api: cpuSeconds(apiPid), pg: cpuSeconds(postgresPids()) };
      const samples = agents * options.rounds * SAMPLES;
      const run = {
        agents,
        requests: agents * options.rounds,
        samples,
        wall_s: round(wall),
        samples_per_s: Math.round(samples / wall),
        request_p50_ms: round(percentile(latencies, 0.5)),
        request_max_ms: round(Math.max(...latencies)),
        api_cpu_ms_per_request: round((cpuBetween(cpu0.api, cpu1.api) * 1000) / (agents * options.rounds)),
        postgres_cpu_ms_per_request: round((cpuBetween(cpu0.pg, cpu1.pg) * 1000) / (agents * options.rounds)),
      };
      console.log(`pod ingest over HTTP: ${JSON.stringify(run)}`);
      runs.push(run);
    }
    return { server: "apps/main-api/dist/server.js in its own process, agents in the bench's process", runs };
  } finally {
    keepAlive.destroy();
    await main.cleanup();
    fs.rmSync(issuerDir, { recursive: true, force: true });
  }
}
