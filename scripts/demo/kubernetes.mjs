// The demo's Kubernetes cluster: one EKS cluster of two node pools, `general` over-provisioned
// (six m5.2xlarge for pods that request about 10 cores), `memory` well used, five namespaces
// and 14 days of hourly pod samples. Deterministic for a given clock hour.
import { prng } from "./fleet.mjs";

const CLUSTER = "demo-eks";
const HOUR_MS = 3_600_000;
const DAYS = 14;

const POOLS = [
  { pool: "general", type: "m5.2xlarge", cores: 8, ram: 32, nodes: 6 },
  { pool: "memory", type: "r5.xlarge", cores: 4, ram: 32, nodes: 3 },
];

// namespace, controller, pool, replicas, CPU request, memory request (GB), usage share of the request
const WORKLOADS = [
  ["web", "frontend", "general", 4, 0.5, 1, 0.35],
  ["api", "api-server", "general", 4, 1, 2, 0.6],
  ["payments", "ledger", "general", 2, 1, 4, 0.4],
  ["monitoring", "prometheus", "general", 2, 0.5, 2, 0.8],
  ["data", "warehouse", "memory", 3, 3, 24, 0.9],
];

const nodeId = (pool, i) => `${CLUSTER}-${pool}-${i}`;

export function kubernetesNodes() {
  return POOLS.flatMap(({ pool, type, cores, ram, nodes }) =>
    Array.from({ length: nodes }, (_, i) => ({
      resource_id: nodeId(pool, i),
      name: nodeId(pool, i),
      resource_type: "kubernetes_node",
      provider: "aws",
      region: "us-east-1",
      instance_type: type,
      architecture: "x86_64",
      operating_system: "linux",
      cpu_cores: cores,
      ram_gb: ram,
      cluster: CLUSTER,
      node_pool: pool,
      labels: { cluster: CLUSTER },
    })),
  );
}

export function podSamples(now) {
  const rand = prng(39);
  const lastHour = Math.floor(now / HOUR_MS) - 1;
  const samples = [];
  for (let h = DAYS * 24 - 1; h >= 0; h--) {
    const timestamp = new Date((lastHour - h) * HOUR_MS).toISOString();
    // Busier in the UTC working day.
    const hourOfDay = (lastHour - h) % 24;
    const load = hourOfDay >= 8 && hourOfDay < 20 ? 1 : 0.6;
    for (const [namespace, controller, pool, replicas, cpu, memory, share] of WORKLOADS) {
      const nodes = POOLS.find((p) => p.pool === pool).nodes;
      for (let r = 0; r < replicas; r++) {
        const jitter = 0.85 + rand() * 0.3;
        samples.push({
          cluster: CLUSTER,
          namespace,
          pod: `${controller}-${r}`,
          node: nodeId(pool, r % nodes),
          controller_kind: namespace === "data" ? "StatefulSet" : "Deployment",
          controller_name: controller,
          labels: { team: namespace === "data" || namespace === "monitoring" ? "platform" : "product", app: controller },
          timestamp,
          cpu_request_cores: cpu,
          memory_request_gb: memory,
          cpu_usage_cores: Math.round(cpu * share * load * jitter * 1000) / 1000,
          memory_usage_gb: Math.round(memory * Math.min(1.1, share * jitter + 0.1) * 1000) / 1000,
        });
      }
    }
  }
  return samples;
}

/** Upserts the nodes and sends the pod samples in batches of at most 10,000. */
export async function loadKubernetes(main, tenant, now, log) {
  const nodes = kubernetesNodes();
  await main.upsertResources({ tenant, body: { resources: nodes } });
  const samples = podSamples(now);
  for (let i = 0; i < samples.length; i += 10_000) await main.ingestPods({ tenant, body: { samples: samples.slice(i, i + 10_000) } });
  log(`  Kubernetes: cluster ${CLUSTER}, ${nodes.length} nodes in ${POOLS.length} pools, ${samples.length} pod samples over ${DAYS} days`);
}
