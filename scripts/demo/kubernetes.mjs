// The demo's Kubernetes clusters. `demo-eks`: three node pools, `general` (six reserved
// m5.2xlarge, priced from the demo bill: a 1-year reservation's effective cost per hour),
// `memory` (three r5.xlarge) and `gpu` (two g5.2xlarge of one A10G each, an `ml` namespace training
// on them), about a quarter of it idle. The right-sizing fleet's nodes (fleet.mjs) run one pod
// each, requesting 70 % of the node. 14 days of hourly pod samples; deterministic for a given clock hour.
import { demoFleet, HOURS, prng } from "./fleet.mjs";
import { SUB_ACCOUNTS } from "./focus.mjs";

const CLUSTER = "demo-eks";
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
const DAYS = 14;
/** What the bill charges a reserved m5.2xlarge an hour (1-year no-upfront standard reservation; on demand 0.384). */
export const RESERVED_HOURLY = 0.242;

const POOLS = [
  { pool: "general", type: "m5.2xlarge", cores: 8, ram: 32, nodes: 6, reserved: true },
  { pool: "memory", type: "r5.xlarge", cores: 4, ram: 32, nodes: 3 },
  { pool: "gpu", type: "g5.2xlarge", cores: 8, ram: 32, gpus: 1, nodes: 2 },
];

// namespace, controller, pool, replicas, CPU request, memory request (GB), usage share of the request, GPUs
const WORKLOADS = [
  ["web", "frontend", "general", 8, 1, 2, 0.35],
  ["api", "api-server", "general", 8, 1.5, 4, 0.6],
  ["payments", "ledger", "general", 4, 1, 6, 0.4],
  ["monitoring", "prometheus", "general", 2, 2, 16, 0.8],
  ["batch", "reports", "general", 4, 1, 4, 0.9],
  ["data", "warehouse", "memory", 3, 3, 24, 0.9],
  ["ml", "trainer", "gpu", 2, 4, 16, 0.7, 1],
];

const nodeId = (pool, i) => `${CLUSTER}-${pool}-${i}`;

export function kubernetesNodes() {
  return POOLS.flatMap(({ pool, type, cores, ram, gpus, nodes, reserved }) =>
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
      ...(gpus ? { gpu_count: gpus } : {}),
      ...(reserved ? { purchase_option: "reserved" } : {}),
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
    // Each pool's pods are placed on its nodes in turn, so no node is asked for more than it has.
    const placed = new Map();
    for (const [namespace, controller, pool, replicas, cpu, memory, share, gpus] of WORKLOADS) {
      const nodes = POOLS.find((p) => p.pool === pool).nodes;
      for (let r = 0; r < replicas; r++) {
        const slot = placed.get(pool) ?? 0;
        placed.set(pool, slot + 1);
        const jitter = 0.85 + rand() * 0.3;
        samples.push({
          cluster: CLUSTER,
          namespace,
          pod: `${controller}-${r}`,
          node: nodeId(pool, slot % nodes),
          controller_kind: namespace === "data" ? "StatefulSet" : namespace === "ml" ? "Job" : "Deployment",
          controller_name: controller,
          labels: { team: namespace === "data" || namespace === "monitoring" ? "platform" : namespace === "ml" ? "research" : "product", app: controller },
          timestamp,
          cpu_request_cores: cpu,
          memory_request_gb: memory,
          cpu_usage_cores: Math.round(cpu * share * load * jitter * 1000) / 1000,
          memory_usage_gb: Math.round(memory * Math.min(1.1, share * jitter + 0.1) * 1000) / 1000,
          ...(gpus ? { gpu_request: gpus } : {}),
        });
      }
    }
  }
  return samples;
}

/**
 * One pod on each of a tenant's fleet nodes (fleet.mjs) for the hours the node sends utilization
 * samples: its app's namespace, requesting 70 % of the node's cores and memory and using 30-70 % of
 * the CPU and 80 % of the memory it requests.
 */
export function fleetPodSamples(spec, now) {
  const rand = prng(41);
  const lastHour = Math.floor(now / HOUR_MS) - 1;
  const samples = [];
  for (const r of demoFleet(spec).resources.filter((x) => x.resource_type === "kubernetes_node")) {
    const hours = r.profile === "new" ? 8 : HOURS - 1;
    const cpu = Math.round(r.cpu_cores * 0.7 * 1000) / 1000;
    const memory = Math.round(r.ram_gb * 0.7 * 1000) / 1000;
    const app = r.labels.team;
    for (let h = hours - 1; h >= 0; h--) {
      samples.push({
        cluster: r.cluster,
        namespace: app,
        pod: `${app}-${r.resource_id}`,
        node: r.resource_id,
        controller_kind: "Deployment",
        controller_name: app,
        labels: { team: app, app },
        timestamp: new Date((lastHour - h) * HOUR_MS).toISOString(),
        cpu_request_cores: cpu,
        memory_request_gb: memory,
        cpu_usage_cores: Math.round(cpu * (0.3 + rand() * 0.4) * 1000) / 1000,
        memory_usage_gb: Math.round(memory * 0.8 * 1000) / 1000,
      });
    }
  }
  return samples;
}

/** The days of the bill (the nodes ran before their agent sent pods: the bill's 60 days, as focus.mjs). */
const BILL_DAYS = 60;
/** The reservation covering the general pool. */
export const RESERVATION = "arn:aws:ec2:us-east-1:111111111111:reserved-instances/ri-0demo6m52xl";

/**
 * The bill of the reserved nodes: per node and complete UTC day of the last 60, a line of its 24
 * hours covered by the reservation (FOCUS `Committed`, billed 0, effective cost RESERVED_HOURLY an
 * hour amortized; `ResourceId` the node's id, Production's sub-account), as AWS's export lists a
 * reservation's covered usage; today's hours are not billed yet.
 */
export function reservedNodeBill(now) {
  const today = Math.floor(now / DAY_MS);
  const hoursByDay = new Map();
  for (let d = BILL_DAYS; d >= 1; d--) hoursByDay.set(today - d, 24);
  const columns = [
    "BillingAccountId",
    "BillingAccountName",
    "BillingCurrency",
    "BillingPeriodStart",
    "BillingPeriodEnd",
    "InvoiceIssuerName",
    "ProviderName",
    "PublisherName",
    "SubAccountId",
    "ChargeCategory",
    "ChargeClass",
    "ChargeDescription",
    "ChargeFrequency",
    "ChargePeriodStart",
    "ChargePeriodEnd",
    "ServiceCategory",
    "ServiceName",
    "RegionId",
    "ResourceId",
    "ResourceType",
    "PricingCategory",
    "PricingQuantity",
    "PricingUnit",
    "ConsumedQuantity",
    "ConsumedUnit",
    "CommitmentDiscountId",
    "CommitmentDiscountCategory",
    "CommitmentDiscountType",
    "CommitmentDiscountStatus",
    "ListCost",
    "ContractedCost",
    "BilledCost",
    "EffectiveCost",
  ];
  const general = POOLS.find((p) => p.reserved);
  const rows = [];
  for (const [day, hours] of hoursByDay) {
    const start = new Date(day * DAY_MS);
    const month = [Date.UTC(start.getUTCFullYear(), start.getUTCMonth(), 1), Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1)];
    for (let i = 0; i < general.nodes; i++) {
      const cost = (hours * RESERVED_HOURLY).toFixed(4);
      rows.push({
        // Its own payer account: an import replaces the lines of every (billing account, billing period)
        // pair it holds, so under focus.mjs's account this file would delete the demo's main bill.
        BillingAccountId: "210987654321",
        BillingAccountName: "Demo Corp EKS",
        BillingCurrency: "USD",
        BillingPeriodStart: new Date(month[0]).toISOString(),
        BillingPeriodEnd: new Date(month[1]).toISOString(),
        InvoiceIssuerName: "Amazon Web Services, Inc.",
        ProviderName: "AWS",
        PublisherName: "Amazon Web Services, Inc.",
        SubAccountId: SUB_ACCOUNTS.production,
        ChargeCategory: "Usage",
        ChargeClass: "",
        ChargeDescription: `${general.type} reserved instance hours (EKS node ${nodeId(general.pool, i)})`,
        ChargeFrequency: "Usage-Based",
        ChargePeriodStart: start.toISOString(),
        ChargePeriodEnd: new Date((day + 1) * DAY_MS).toISOString(),
        ServiceCategory: "Compute",
        ServiceName: "Amazon Elastic Compute Cloud",
        RegionId: "us-east-1",
        ResourceId: nodeId(general.pool, i),
        ResourceType: "Virtual Machine",
        PricingCategory: "Committed",
        PricingQuantity: String(hours),
        PricingUnit: "Hours",
        ConsumedQuantity: String(hours),
        ConsumedUnit: "Hours",
        CommitmentDiscountId: RESERVATION,
        CommitmentDiscountCategory: "Usage",
        CommitmentDiscountType: "Reserved Instance",
        CommitmentDiscountStatus: "Used",
        ListCost: (hours * 0.384).toFixed(4),
        ContractedCost: (hours * 0.384).toFixed(4),
        BilledCost: "0",
        EffectiveCost: cost,
      });
    }
  }
  return `${[columns.join(","), ...rows.map((r) => columns.map((c) => (/[",\n]/.test(r[c]) ? `"${r[c].replace(/"/g, '""')}"` : r[c])).join(","))].join("\n")}\n`;
}

const sendPods = async (main, tenant, samples) => {
  for (let i = 0; i < samples.length; i += 10_000) await main.ingestPods({ tenant, body: { samples: samples.slice(i, i + 10_000) } });
};

/** Upserts the demo cluster's nodes, imports its reserved nodes' bill and sends the pod samples (its own and the fleet nodes'). */
export async function loadKubernetes(main, org, tenant, now, log) {
  const nodes = kubernetesNodes();
  await main.upsertResources({ tenant, body: { resources: nodes } });
  await main.createSpendImport({ params: { org_id: org }, body: reservedNodeBill(now), contentType: "text/csv" });
  const samples = podSamples(now);
  await sendPods(main, tenant, samples);
  log(
    `  Kubernetes: cluster ${CLUSTER}, ${nodes.length} nodes in ${POOLS.length} pools (general reserved, priced from the bill), ${samples.length} pod samples over ${DAYS} days`,
  );
}

/** The fleet nodes' pods of one tenant (fleetPodSamples). */
export async function loadFleetPods(main, tenant, spec, now, log) {
  const samples = fleetPodSamples(spec, now);
  await sendPods(main, tenant, samples);
  log(`  ${spec.name}: ${samples.length} pod samples on the fleet's Kubernetes nodes`);
}
