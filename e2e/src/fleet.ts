import type { Action, ComputeResourceInput, MetricSample } from "@cloudcost/contracts";

const HOUR = 3_600_000;
/** 13 days of hourly samples: inside the 14-day lookback, more than 24 hours apart. */
const FULL_HISTORY = 13 * 24;

export interface FleetMember {
  resource: ComputeResourceInput;
  /** What the right-sizing rule must decide (docs/api.md, The right-sizing rule), given the catalog and the samples. */
  expect: Action;
  cpu: [number, number];
  memory: [number, number];
  samples: number;
}

const vm = (resource: ComputeResourceInput): ComputeResourceInput => ({
  resource_type: "virtual_machine",
  architecture: "x86_64",
  operating_system: "linux",
  ...resource,
});

/**
 * A small fleet across AWS, Azure and GCP with real catalog instance types. Utilization ranges are
 * chosen so that each member gets a known action: the samples spread evenly over [lo, hi], so the
 * nearest-rank p95 is lo + (hi - lo) * 22/23.
 */
export const FLEET: FleetMember[] = [
  {
    // p95 CPU 1.45 % < 3 and max 1.5 % < 10: idle.
    resource: vm({
      resource_id: "vm-aws-idle",
      name: "old batch box",
      provider: "aws",
      region: "us-east-1",
      availability_zone: "us-east-1a",
      instance_type: "m5.xlarge",
      cpu_cores: 4,
      ram_gb: 16,
    }),
    expect: "TERMINATE",
    cpu: [0.2, 1.5],
    memory: [5, 10],
    samples: FULL_HISTORY,
  },
  {
    // needs 8 x 19.3/70 = 2.2 vCPU and 32 x 39.1/80 = 15.7 GB: a 4 vCPU / 16 GB type is cheaper.
    resource: vm({
      resource_id: "vm-aws-low",
      name: "api server",
      provider: "aws",
      region: "us-east-1",
      availability_zone: "us-east-1b",
      instance_type: "m5.2xlarge",
      cpu_cores: 8,
      ram_gb: 32,
    }),
    expect: "DOWNSIZE",
    cpu: [5, 20],
    memory: [20, 40],
    samples: FULL_HISTORY,
  },
  {
    // needs 4 x 94.3/70 = 5.4 vCPU: more than its 4.
    resource: vm({
      resource_id: "vm-azure-hot",
      name: "build agent",
      provider: "azure",
      region: "eastus",
      instance_type: "Standard_D4s_v5",
      cpu_cores: 4,
      ram_gb: 16,
    }),
    expect: "UPSIZE",
    cpu: [80, 95],
    memory: [40, 60],
    samples: FULL_HISTORY,
  },
  {
    // needs 6.8 vCPU and 27.7 GB: e2-standard-8 has the same shape for less.
    resource: vm({
      resource_id: "vm-gcp-n2",
      name: "analytics worker",
      provider: "gcp",
      region: "us-central1",
      availability_zone: "us-central1-a",
      instance_type: "n2-standard-8",
      cpu_cores: 8,
      ram_gb: 32,
    }),
    expect: "DOWNSIZE",
    cpu: [40, 60],
    memory: [50, 70],
    samples: FULL_HISTORY,
  },
  {
    // the same need on e2-standard-8, the cheapest non-burstable type that fits: right-sized.
    resource: vm({
      resource_id: "vm-gcp-steady",
      name: "cache",
      provider: "gcp",
      region: "us-central1",
      instance_type: "e2-standard-8",
      cpu_cores: 8,
      ram_gb: 32,
    }),
    expect: "NOOP",
    cpu: [40, 60],
    memory: [50, 70],
    samples: FULL_HISTORY,
  },
  {
    // six samples: not enough signal.
    resource: vm({
      resource_id: "vm-aws-new",
      name: "fresh instance",
      provider: "aws",
      region: "us-east-1",
      instance_type: "m5.large",
      cpu_cores: 2,
      ram_gb: 8,
    }),
    expect: "NO_RECOMMENDATION",
    cpu: [30, 40],
    memory: [30, 40],
    samples: 6,
  },
  {
    // A Kubernetes node: counted under resource_type=kubernetes_node only.
    resource: {
      resource_id: "node-eks-1",
      name: "ip-10-0-1-23.ec2.internal",
      resource_type: "kubernetes_node",
      provider: "aws",
      region: "us-east-1",
      instance_type: "m5.xlarge",
      architecture: "x86_64",
      operating_system: "linux",
      labels: { "eks.amazonaws.com/nodegroup": "general" },
    },
    expect: "DOWNSIZE",
    cpu: [30, 50],
    memory: [40, 60],
    samples: FULL_HISTORY,
  },
];

/**
 * Deterministic hourly samples ending half an hour ago: value i is lo + (hi - lo) * ((7 i) mod 24)/23,
 * so every one of 24 levels occurs equally often.
 */
export function samplesOf(members: FleetMember[], now = Date.now()): MetricSample[] {
  const end = now - 30 * 60_000;
  const level = (i: number, [lo, hi]: [number, number]) => Math.round((lo + ((hi - lo) * ((7 * i) % 24)) / 23) * 100) / 100;
  return members.flatMap((member) =>
    Array.from({ length: member.samples }, (_, i) => ({
      resource_id: member.resource.resource_id,
      timestamp: new Date(end - (member.samples - 1 - i) * HOUR).toISOString(),
      cpu_utilization: level(i, member.cpu),
      memory_utilization: level(i, member.memory),
    })),
  );
}
