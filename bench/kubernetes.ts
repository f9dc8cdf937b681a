/**
 * Kubernetes benchmark (not a test), PostgreSQL only:
 * 1. Pod ingest over HTTP (kubernetes-ingest.ts): the built main API in its own process on its own
 *    database, 1, 2 and 4 agents (clusters of one tenant, each on its own 334 nodes) in this process,
 *    each sending BENCH_K8S_ROUNDS requests of 10,000 samples (a new hour each) one after the other;
 *    samples per second over the wall time, and the CPU per request of the API's and PostgreSQL's
 *    processes.
 * 2. Allocation of a month of one cluster of BENCH_K8S_NODES nodes (1,000) and BENCH_K8S_PODS pods
 *    (30,000, 30 a node) by namespace through the allocation service (the claim roll-up), over the
 *    month and per day, beside the same aggregation over the raw samples (the baseline), p50 of
 *    BENCH_K8S_CALLS; nodes are priced by a fixed in-process catalog (the pricing API's time is not
 *    the query's). The pods fit their nodes (m5.2xlarge: requests 3.75 of 8 cores, 18.75 of 32 GB)
 *    except on every 50th node, whose pods use more CPU than it has (2 % of the node-days
 *    over-committed); last, the worst case: every node's capacity cut to a quarter, so that every
 *    node-day is over-committed.
 *
 *   BENCH_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres pnpm --filter @cloudcost/bench exec tsx kubernetes.ts
 *
 * The month (pods x 24 x BENCH_K8S_DAYS samples: 21.6 M at the defaults) is loaded with one
 * INSERT ... SELECT FROM generate_series and its four roll-ups built with one GROUP BY each (what
 * the ingest maintains batch by batch). Writes bench/results/kubernetes.json; without
 * BENCH_DATABASE_URL it says so and exits 0. BENCH_KEEP=1 keeps the database.
 * Knobs: BENCH_K8S_ROUNDS (12), BENCH_K8S_INGEST_ONLY (skip the allocation), BENCH_K8S_NODES, BENCH_K8S_PODS, BENCH_K8S_DAYS (30), BENCH_K8S_CALLS (10), BENCH_K8S_BASELINE_CALLS (3).
 */
import os from "node:os";
import path from "node:path";
import { AllocationQuery, type InstanceTypeRow } from "@cloudcost/contracts";
import type { Database } from "@cloudcost/db";
import type { ComputeCatalogs } from "../apps/main-api/src/compute/catalog-prices";
import { createComputeServices } from "../apps/main-api/src/compute/services";
import { createPrisma } from "../apps/main-api/src/db";
import { allocationRepository, wholeDayAllocationSql } from "../apps/main-api/src/kubernetes/allocation-repository";
import { createAllocationService } from "../apps/main-api/src/kubernetes/allocation-service";
import { kubernetesRepository } from "../apps/main-api/src/kubernetes/repository";
import { openBenchDatabase } from "./bench-database";
import { measurePodIngestOverHttp } from "./kubernetes-ingest";
import { env, round, runBenchmark, time, writeResults } from "./measure";

const ROUNDS = env("BENCH_K8S_ROUNDS", 12);
const NODES = env("BENCH_K8S_NODES", 1000);
const PODS = env("BENCH_K8S_PODS", 30_000);
const DAYS = env("BENCH_K8S_DAYS", 30);
const CALLS = env("BENCH_K8S_CALLS", 10);
const BASELINE_CALLS = env("BENCH_K8S_BASELINE_CALLS", 3);
const MONTH = { id: "ten_bench_k8s_month", organizationId: "org_bench_k8s" };
// September: the default 30 days are one whole calendar month, as a month's allocation asks for.
const START = "2026-09-01T00:00:00.000Z";

const ROW: InstanceTypeRow = {
  instance_type: "m5.2xlarge",
  family: "m5",
  cpu_cores: 8,
  ram_gb: 32,
  gpu_count: 0,
  burstable: false,
  architecture: "x86_64",
  operating_system: "linux",
  usage_type: "on_demand",
  price_per_hour: 0.384,
  currency: "USD",
};
const catalogs: ComputeCatalogs = { catalog: async () => [ROW] };

const nodes = (count: number) =>
  Array.from({ length: count }, (_, i) => ({
    resource_id: `node-${i}`,
    resource_type: "kubernetes_node" as const,
    provider: "aws",
    region: "us-east-1",
    instance_type: "m5.2xlarge",
    cpu_cores: 8,
    ram_gb: 32,
    cluster: "bench",
    node_pool: `pool-${i % 4}`,
    purchase_option: "on_demand" as const,
  }));

async function upsertNodes(db: Database, tenant: typeof MONTH) {
  const prisma = createPrisma(db.adapter);
  const all = nodes(NODES);
  const { inventory } = createComputeServices({ prisma, sql: db.sql });
  for (let i = 0; i < all.length; i += 1000) await inventory.upsertResources(tenant, all.slice(i, i + 1000));
  await prisma.$disconnect();
}

async function loadMonth(db: Database) {
  await upsertNodes(db, MONTH);
  const t0 = performance.now();
  const hours = DAYS * 24;
  await db.sql.query(
    `INSERT INTO kubernetes_pod_samples (tenant_id, cluster, namespace, pod, hour, node, controller, labels, cpu_request, memory_request, cpu_usage, memory_usage)
     SELECT $1, 'bench', 'ns-' || ((p * 13) % 50), 'pod-' || p, $2::timestamptz + h * interval '1 hour', 'node-' || ((p / 30) % $3),
       'Deployment/app-' || ((p * 17) % 3000), jsonb_build_object('team', 'team-' || (p % 7)),
       0.05 + (p % 4) * 0.05, 0.25 + (p % 4) * 0.25,
       CASE WHEN (p / 30) % 50 = 0 THEN 0.4 ELSE ((p * 7 + h) % 100) / 400.0 END, 0.25 + ((p * 3 + h) % 10) / 10.0
     FROM generate_series(0, $4 - 1) p, generate_series(0, $5 - 1) h`,
    [MONTH.id, START, NODES, PODS, hours],
  );
  await db.sql.query(
    `INSERT INTO kubernetes_node_hours (tenant_id, node, hour, pods, cpu_request, memory_request)
     SELECT tenant_id, node, hour, count(*), sum(cpu_request), sum(memory_request) FROM kubernetes_pod_samples WHERE tenant_id = $1 GROUP BY tenant_id, node, hour`,
    [MONTH.id],
  );
  await db.sql.query(
    `INSERT INTO kubernetes_claim_days (tenant_id, day, node, cluster, namespace, controller, samples, cpu_claim, memory_claim, cpu_usage, memory_usage)
     SELECT tenant_id, (hour AT TIME ZONE 'UTC')::date, node, cluster, namespace, controller, count(*),
       sum(greatest(cpu_request, coalesce(cpu_usage, 0))), sum(greatest(memory_request, coalesce(memory_usage, 0))),
       sum(coalesce(cpu_usage, 0)), sum(coalesce(memory_usage, 0))
     FROM kubernetes_pod_samples WHERE tenant_id = $1 GROUP BY 1, 2, 3, 4, 5, 6`,
    [MONTH.id],
  );
  await db.sql.query(
    `INSERT INTO kubernetes_node_days (tenant_id, day, node, cluster, hours, cpu_claim, memory_claim)
     SELECT h.tenant_id, h.day, h.node, 'bench', h.hours, c.cpu, c.mem
     FROM (SELECT tenant_id, (hour AT TIME ZONE 'UTC')::date AS day, node, count(*) AS hours FROM kubernetes_node_hours WHERE tenant_id = $1 GROUP BY 1, 2, 3) h
     JOIN (SELECT day, node, sum(cpu_claim) AS cpu, sum(memory_claim) AS mem FROM kubernetes_claim_days WHERE tenant_id = $1 GROUP BY 1, 2) c
       ON c.day = h.day AND c.node = h.node`,
    [MONTH.id],
  );
  await db.sql.query(
    `INSERT INTO kubernetes_claim_months (tenant_id, month, node, cluster, namespace, controller, samples, cpu_claim, memory_claim, cpu_usage, memory_usage)
     SELECT tenant_id, date_trunc('month', day::timestamp)::date, node, cluster, namespace, controller, sum(samples), sum(cpu_claim), sum(memory_claim),
       sum(cpu_usage), sum(memory_usage)
     FROM kubernetes_claim_days WHERE tenant_id = $1 GROUP BY 1, 2, 3, 4, 5, 6`,
    [MONTH.id],
  );
  // The nodes too (autovacuum would, in time): planned as two rows, the allocation's joins go by nested loops.
  await db.sql.exec(
    "ANALYZE compute_resources; ANALYZE kubernetes_pod_samples; ANALYZE kubernetes_node_hours; ANALYZE kubernetes_claim_days; ANALYZE kubernetes_claim_months; ANALYZE kubernetes_node_days;",
  );
  const [over] = await db.sql.query<{ n: string }>(
    "SELECT count(*)::text AS n FROM kubernetes_node_days WHERE tenant_id = $1 AND (cpu_claim > 8 * hours OR memory_claim > 32 * hours)",
    [MONTH.id],
  );
  return {
    nodes: NODES,
    pods: PODS,
    days: DAYS,
    samples: PODS * hours,
    node_days_over_committed: Number(over.n),
    load_s: round((performance.now() - t0) / 1000),
  };
}

/** The same allocation by namespace, its claims read from the raw samples instead of the roll-up. */
const BASELINE_SQL = wholeDayAllocationSql(`
    SELECT (hour AT TIME ZONE 'UTC')::date AS day, node, namespace AS grp,
      greatest(cpu_request, coalesce(cpu_usage, 0)) AS cpu, greatest(memory_request, coalesce(memory_usage, 0)) AS mem, gpu_request AS gpu,
      coalesce(cpu_usage, 0) AS cpu_used, coalesce(memory_usage, 0) AS mem_used
    FROM kubernetes_pod_samples WHERE tenant_id = $1 AND hour >= $2 AND hour < $3`);

async function benchAllocation(db: Database) {
  const end = new Date(Date.parse(START) + DAYS * 86_400_000).toISOString();
  const { allocation } = createAllocationService({ sql: db.sql, catalogs, allocations: allocationRepository, nodes: kubernetesRepository });
  const query = AllocationQuery.parse({ start: START, end, aggregate: "namespace" });
  const service = await time(CALLS, () => allocation(MONTH, query), 1);
  const perDay = AllocationQuery.parse({ start: START, end, aggregate: "namespace", step: "day" });
  const daily = await time(CALLS, () => allocation(MONTH, perDay), 1);
  const ids = nodes(NODES).map((n) => n.resource_id);
  const baseline = await time(
    BASELINE_CALLS,
    // $8 GPUs, $9-$11 no bill lines, $12 over the range.
    () =>
      db.sql.query(BASELINE_SQL, [MONTH.id, START, end, ids, ids.map(() => "0.384"), ids.map(() => 8), ids.map(() => 32), ids.map(() => 0), [], [], [], false]),
    1,
  );
  // The worst case: the nodes' capacity a quarter of their type's, so the same claims exceed every node-day's.
  await db.sql.query("UPDATE compute_resources SET cpu_cores = 2, ram_gb = 8 WHERE tenant_id = $1", [MONTH.id]);
  const overCommitted = await time(CALLS, () => allocation(MONTH, query), 1);
  return {
    by_namespace: service,
    by_namespace_per_day: daily,
    every_node_day_over_committed: overCommitted,
    raw_samples_baseline: baseline,
    ratio: round(baseline.p50_ms / service.p50_ms, 2),
  };
}

const RESULTS = path.join(__dirname, "results", "kubernetes.json");

async function main() {
  const serverUrl = process.env.BENCH_DATABASE_URL;
  if (!serverUrl) {
    console.log("kubernetes: skipped, BENCH_DATABASE_URL (PostgreSQL) is not set");
    return;
  }
  const results: Record<string, unknown> = { load_average_before: os.loadavg().map((l) => round(l, 2)) };
  // The ingest first, on its own database, with the API in its own process.
  process.env.TEST_DATABASE_URL = serverUrl; // e2e/src/services.ts creates the API's database there
  results.pod_ingest_10000_samples = await measurePodIngestOverHttp({ agents: [1, 2, 4], rounds: ROUNDS });
  if (process.env.BENCH_K8S_INGEST_ONLY) return;
  const { db, drop } = await openBenchDatabase(serverUrl, "k8s");
  try {
    results.month = await loadMonth(db);
    console.log(JSON.stringify(results.month));
    results.allocation = await benchAllocation(db);
    results.load_average_after = os.loadavg().map((l) => round(l, 2));
    console.log(JSON.stringify(results, null, 2));
    writeResults(RESULTS, results);
  } finally {
    await db.close();
    await drop();
  }
}

runBenchmark(main);
