// The demo fleet: two tenants of VMs and Kubernetes nodes across AWS, Azure and GCP, with 14 days
// of hourly utilization shaped so that one analysis gives every action. Deterministic: the same
// seed and clock hour give the same fleet and samples.

/** mulberry32: a tiny deterministic PRNG (uniform in [0, 1)). */
export function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Real catalog types (apps/pricing-api/prisma/seed) priced in every region listed beside them.
// `steady` types are the cheapest of their shape in those regions, so a steady load keeps them (NOOP);
// on the others the analysis usually finds something cheaper or smaller.
const TYPES = {
  aws: {
    regions: ["us-east-1", "eu-west-1"],
    general: [
      ["m5.large", 2, 8],
      ["m5.xlarge", 4, 16],
      ["m5.2xlarge", 8, 32],
      ["c5.xlarge", 4, 8],
      ["c5.2xlarge", 8, 16],
      ["r5.xlarge", 4, 32],
      ["r5.2xlarge", 8, 64],
    ],
    steady: [
      ["m5a.large", 2, 8],
      ["m5a.xlarge", 4, 16],
      ["c6a.xlarge", 4, 8],
      ["c6a.2xlarge", 8, 16],
    ],
  },
  azure: {
    regions: ["eastus", "westeurope"],
    general: [
      ["Standard_D2s_v3", 2, 8],
      ["Standard_D4s_v3", 4, 16],
      ["Standard_D8s_v3", 8, 32],
      ["Standard_E4s_v3", 4, 32],
      ["Standard_E8s_v3", 8, 64],
      ["Standard_F4s_v2", 4, 8],
    ],
    steady: [["Standard_D4as_v5", 4, 16]],
  },
  gcp: {
    regions: ["us-central1", "europe-west1"],
    general: [
      ["n2-standard-2", 2, 8],
      ["n2-standard-4", 4, 16],
      ["n2-standard-8", 8, 32],
      ["n2-highmem-4", 4, 32],
      ["n2-highmem-8", 8, 64],
      ["c2-standard-8", 8, 32],
    ],
    steady: [
      ["e2-standard-2", 2, 8],
      ["e2-standard-4", 4, 16],
      ["e2-standard-8", 8, 32],
    ],
  },
};
const PROVIDERS = ["aws", "azure", "gcp"];

/** Utilization profiles: [cpu base, cpu daily swing, memory base, memory swing] in percent. */
const PROFILES = {
  idle: [0.6, 1.2, 12, 4], // CPU p95 < 3 and max < 10: TERMINATE
  oversized: [6, 16, 18, 14], // a smaller type fits: DOWNSIZE
  hot: [78, 20, 70, 15], // above 70% CPU at p95: UPSIZE
  steady: [52, 10, 68, 6], // near the targets on the cheapest type of its shape: NOOP
};
// Profile per slot out of 20: 2 idle, 9 oversized, 2 hot, 4 steady, 2 new (too few samples), 1 unpriced.
const MIX = [
  "oversized",
  "idle",
  "oversized",
  "steady",
  "hot",
  "oversized",
  "new",
  "oversized",
  "steady",
  "oversized",
  "idle",
  "oversized",
  "steady",
  "unpriced",
  "oversized",
  "hot",
  "steady",
  "oversized",
  "new",
  "oversized",
];

export const TENANTS = [
  { key: "production", name: "Production", prefix: "prod", vms: 150, nodes: 50 },
  { key: "staging", name: "Staging", prefix: "stg", vms: 70, nodes: 30 },
];
/**
 * Production also holds three VMs that show what the analysis prices: a Windows VM (AWS has no
 * Windows rows: Linux + licence), a spot VM (spot prices) and an m5 VM under the organization's
 * negotiated m5 discount in us-east-1 (load.mjs registers it before the analysis runs).
 */
const SHOWCASE = [
  { suffix: "windows", instance_type: "m5.2xlarge", cpu_cores: 8, ram_gb: 32, operating_system: "windows", app: "reports" },
  { suffix: "spot", instance_type: "m5.xlarge", cpu_cores: 4, ram_gb: 16, purchase_option: "spot", app: "ml-batch" },
  { suffix: "negotiated", instance_type: "m5.2xlarge", cpu_cores: 8, ram_gb: 32, app: "search" },
];
export const SHOWCASE_COUNT = SHOWCASE.length;

/** Resources registered after the analysis ran: they stay pending until the next cycle. */
export const PENDING_PER_TENANT = 6;
export const HOURS = 14 * 24;

const pick = (rand, list) => list[Math.floor(rand() * list.length)];
const round1 = (n) => Math.round(Math.min(100, Math.max(0, n)) * 10) / 10;

function resource(rand, tenant, kind, index, profile) {
  const provider = PROVIDERS[index % 3];
  const t = TYPES[provider];
  const region = pick(rand, t.regions);
  const [type, cpu, ram] = profile === "steady" ? pick(rand, t.steady) : pick(rand, t.general);
  const node = kind === "kubernetes_node";
  const id = `${tenant.prefix}-${node ? "node" : "vm"}-${String(index + 1).padStart(3, "0")}`;
  const app = pick(rand, ["checkout", "search", "billing", "ingest", "reports", "auth", "catalog", "ml-batch"]);
  return {
    resource_id: id,
    name: node ? `${tenant.prefix}-${provider}-pool-${app}-${index + 1}` : `${app}-${provider}-${index + 1}`,
    resource_type: kind,
    provider,
    region,
    availability_zone:
      provider === "aws"
        ? `${region}${pick(rand, ["a", "b", "c"])}`
        : provider === "gcp"
          ? `${region}-${pick(rand, ["a", "b", "c"])}`
          : `${region}-${pick(rand, ["1", "2", "3"])}`,
    // An instance type the catalog does not know: the analysis cannot price it (NO_RECOMMENDATION).
    instance_type: profile === "unpriced" ? `${provider}-legacy-custom-${cpu}` : type,
    architecture: "x86_64",
    operating_system: "linux",
    cpu_cores: cpu,
    ram_gb: ram,
    // A node's cluster as a field too: the Kubernetes page groups its (idle) cost by it.
    ...(node ? { cluster: `${tenant.prefix}-${provider}-k8s` } : {}),
    labels: { team: app, env: tenant.key, ...(node ? { cluster: `${tenant.prefix}-${provider}-k8s` } : {}) },
  };
}

/**
 * The fleet of one tenant: `resources` (with `profile`, not sent) and, separately, `pending` resources
 * registered after the analysis.
 */
export function demoFleet(tenant, seed = 7) {
  const rand = prng(seed + tenant.prefix.length * 1000 + tenant.vms);
  const resources = [];
  for (let i = 0; i < tenant.vms; i++) resources.push({ ...resource(rand, tenant, "virtual_machine", i, MIX[i % MIX.length]), profile: MIX[i % MIX.length] });
  for (let i = 0; i < tenant.nodes; i++) {
    // A node runs a known type (the Kubernetes page prices it); the unpriced legacy types are VMs'.
    const mixed = MIX[(i * 7 + 3) % MIX.length];
    const profile = mixed === "unpriced" ? "oversized" : mixed;
    resources.push({ ...resource(rand, tenant, "kubernetes_node", i, profile), profile });
  }
  if (tenant.key === "production") {
    for (const { suffix, app, ...shape } of SHOWCASE) {
      resources.push({
        resource_id: `${tenant.prefix}-vm-${suffix}`,
        name: `${app}-aws-${suffix}`,
        resource_type: "virtual_machine",
        provider: "aws",
        region: "us-east-1",
        availability_zone: "us-east-1a",
        architecture: "x86_64",
        operating_system: "linux",
        ...shape,
        labels: { team: app, env: tenant.key },
        profile: "oversized",
      });
    }
  }
  const pending = [];
  for (let i = 0; i < PENDING_PER_TENANT; i++) {
    const r = resource(rand, tenant, "virtual_machine", tenant.vms + i, "oversized");
    pending.push({ ...r, profile: "oversized", resource_id: `${tenant.prefix}-vm-new-${i + 1}`, name: `${r.name}-new` });
  }
  return { resources, pending };
}

/**
 * Hourly samples ending at the hour before `now`: 14 days for established resources, 8 hours for
 * "new" ones (fewer than the 12 the analysis needs). Yields arrays of samples, one per resource.
 */
export function* demoSamples(resources, now, seed = 11) {
  const rand = prng(seed);
  const lastHour = Math.floor(now / 3_600_000) * 3_600_000 - 3_600_000;
  for (const r of resources) {
    const [cpuBase, cpuSwing, memBase, memSwing] = PROFILES[r.profile === "new" || r.profile === "unpriced" ? "oversized" : r.profile];
    const hours = r.profile === "new" ? 8 : HOURS - 1;
    const phase = rand() * 24;
    const samples = [];
    for (let h = hours - 1; h >= 0; h--) {
      const ts = lastHour - h * 3_600_000;
      const daily = (Math.sin(((new Date(ts).getUTCHours() + phase) / 24) * 2 * Math.PI) + 1) / 2;
      let cpu = cpuBase + cpuSwing * daily + (rand() - 0.5) * 2;
      let mem = memBase + memSwing * daily + (rand() - 0.5) * 2;
      if (r.profile === "idle") cpu = Math.min(cpu, 2.8);
      if (r.profile === "steady") {
        cpu = Math.min(cpu, 64);
        mem = Math.min(mem, 75);
      }
      samples.push({ resource_id: r.resource_id, timestamp: new Date(ts).toISOString(), cpu_utilization: round1(cpu), memory_utilization: round1(mem) });
    }
    yield samples;
  }
}

/** Splits samples into request bodies of at most `max` samples and `maxBytes` of JSON. */
export function batches(sampleLists, max = 10_000, maxBytes = 1_000_000) {
  const out = [];
  let current = [];
  let bytes = 20;
  for (const list of sampleLists) {
    for (const s of list) {
      const size = JSON.stringify(s).length + 1;
      if (current.length >= max || bytes + size > maxBytes) {
        out.push(current);
        current = [];
        bytes = 20;
      }
      current.push(s);
      bytes += size;
    }
  }
  if (current.length) out.push(current);
  return out;
}
