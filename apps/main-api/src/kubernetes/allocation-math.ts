import { Decimal } from "@cloudcost/decimal";
import type { AllocationRow } from "@cloudcost/contracts";

/** Enough digits that shares of a month of a large cluster keep every cent (the default is 20). */
const D = Decimal.clone({ precision: 50 });
type Dec = InstanceType<typeof D>;

export const IDLE = "__idle__";

/** One (cluster, group) of the database's answer, or a cluster's node cost (`capacity`). */
export interface ExactRow {
  cluster: string;
  grp: string;
  capacity: boolean;
  cpu_hours: string;
  ram_hours: string;
  gpu_hours: string;
  cpu_cost: string;
  ram_cost: string;
  gpu_cost: string;
  usage_cost: string;
  bill_days: bigint | string | number;
  catalog_days: bigint | string | number;
}

interface Sum {
  cpuHours: Dec;
  ramHours: Dec;
  gpuHours: Dec;
  cpu: Dec;
  ram: Dec;
  gpu: Dec;
  usage: Dec;
  /** CPU and memory cost before any shared idle (the efficiency's denominator). */
  allocated: Dec;
}

/** The three priced resources, in the order their cents are fixed. */
const RESOURCES = ["cpu", "ram", "gpu"] as const;
type Resource = (typeof RESOURCES)[number];
type PerResource = Record<Resource, Dec>;

const zero = (): Sum => ({
  cpuHours: new D(0),
  ramHours: new D(0),
  gpuHours: new D(0),
  cpu: new D(0),
  ram: new D(0),
  gpu: new D(0),
  usage: new D(0),
  allocated: new D(0),
});
const none = (): PerResource => ({ cpu: new D(0), ram: new D(0), gpu: new D(0) });
const byteOrder = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Rounds each value to cents so that they sum to `target` exactly (largest remainder: every value
 * is floored, then the cents still missing go to the largest remainders, ties in list order).
 */
export function roundToTarget(values: Dec[], target: Dec): Dec[] {
  const floors = values.map((v) => v.toDecimalPlaces(2, Decimal.ROUND_FLOOR));
  let missing = target
    .minus(floors.reduce((a, b) => a.plus(b), new D(0)))
    .times(100)
    .round()
    .toNumber();
  const order = values.map((v, i) => ({ i, rest: v.minus(floors[i]) })).sort((a, b) => b.rest.comparedTo(a.rest) || a.i - b.i);
  const result = [...floors];
  for (let k = 0; missing !== 0 && order.length > 0; k = (k + 1) % order.length) {
    const step = missing > 0 ? 0.01 : -0.01;
    result[order[k].i] = result[order[k].i].plus(step);
    missing -= Math.sign(missing);
  }
  return result;
}

const hours = (value: Dec) => value.toDecimalPlaces(6, Decimal.ROUND_HALF_UP).toNumber();

/**
 * Rows per group from the database's exact (cluster, group) sums: each resource's idle (CPU, memory,
 * GPU) shared within each cluster in proportion to the groups' allocated cost of that resource
 * there (a cluster where nothing of a resource is allocated keeps that idle), costs rounded to cents
 * so that rows add up to the nodes' cost exactly, per resource and in total.
 */
export function allocationRows(input: ExactRow[], shareIdle: boolean) {
  const groups = new Map<string, Map<string, Sum>>();
  // A cluster's idle: its nodes' cost, less what its groups were charged.
  const idle = new Map<string, PerResource>();
  const addIdle = (cluster: string, sign: 1 | -1, r: ExactRow) => {
    const i = idle.get(cluster) ?? none();
    idle.set(cluster, {
      cpu: i.cpu.plus(new D(r.cpu_cost).times(sign)),
      ram: i.ram.plus(new D(r.ram_cost).times(sign)),
      gpu: i.gpu.plus(new D(r.gpu_cost).times(sign)),
    });
  };
  const basis = { bill_node_days: 0, catalog_node_days: 0 };
  for (const r of input) {
    if (r.capacity) {
      addIdle(r.cluster, 1, r);
      basis.bill_node_days += Number(r.bill_days);
      basis.catalog_node_days += Number(r.catalog_days);
      continue;
    }
    addIdle(r.cluster, -1, r);
    let inCluster = groups.get(r.cluster);
    if (!inCluster) {
      inCluster = new Map();
      groups.set(r.cluster, inCluster);
    }
    const s = inCluster.get(r.grp) ?? zero();
    inCluster.set(r.grp, {
      cpuHours: s.cpuHours.plus(r.cpu_hours),
      ramHours: s.ramHours.plus(r.ram_hours),
      gpuHours: s.gpuHours.plus(r.gpu_hours),
      cpu: s.cpu.plus(r.cpu_cost),
      ram: s.ram.plus(r.ram_cost),
      gpu: s.gpu.plus(r.gpu_cost),
      usage: s.usage.plus(r.usage_cost),
      allocated: s.allocated.plus(r.cpu_cost).plus(r.ram_cost),
    });
  }

  const merged = new Map<string, Sum>();
  const idleLeft = none();
  const clusters = new Set([...groups.keys(), ...idle.keys()]);
  for (const cluster of clusters) {
    const inCluster = groups.get(cluster) ?? new Map<string, Sum>();
    const clusterIdle = idle.get(cluster) ?? none();
    // Per resource: the groups' allocated cost of it in this cluster, the share's denominator.
    const allocated = none();
    for (const s of inCluster.values()) for (const k of RESOURCES) allocated[k] = allocated[k].plus(s[k]);
    const shares = (k: Resource) => shareIdle && allocated[k].gt(0);
    for (const k of RESOURCES) if (!shares(k)) idleLeft[k] = idleLeft[k].plus(clusterIdle[k]);
    for (const [grp, s] of inCluster) {
      const part = (k: Resource) => (shares(k) ? clusterIdle[k].times(s[k]).dividedBy(allocated[k]) : new D(0));
      const m = merged.get(grp) ?? zero();
      merged.set(grp, {
        cpuHours: m.cpuHours.plus(s.cpuHours),
        ramHours: m.ramHours.plus(s.ramHours),
        gpuHours: m.gpuHours.plus(s.gpuHours),
        cpu: m.cpu.plus(s.cpu).plus(part("cpu")),
        ram: m.ram.plus(s.ram).plus(part("ram")),
        gpu: m.gpu.plus(s.gpu).plus(part("gpu")),
        usage: m.usage.plus(s.usage),
        allocated: m.allocated.plus(s.allocated),
      });
    }
  }
  // In group order, so that the cents of equal remainders go the same way on every call.
  const entries = [...merged.entries()].sort(([a], [b]) => byteOrder(a, b));
  // Idle is always shown unless all of it was shared.
  const showIdle = input.some((r) => r.capacity) && (!shareIdle || RESOURCES.some((k) => !idleLeft[k].isZero()));
  const withIdle = showIdle ? [...entries, [IDLE, { ...zero(), ...idleLeft }] as [string, Sum]] : entries;

  const sum = (pick: (s: Sum) => Dec) => withIdle.reduce((a, [, s]) => a.plus(pick(s)), new D(0));
  // The total to the cent, then CPU's and GPU's cents; memory takes the rest, so the three add up to the total.
  const total = sum((s) => s.cpu.plus(s.ram).plus(s.gpu)).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
  const cpuTotal = sum((s) => s.cpu).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
  const gpuTotal = sum((s) => s.gpu).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
  const ramTotal = total.minus(cpuTotal).minus(gpuTotal);
  const cpu = roundToTarget(
    withIdle.map(([, s]) => s.cpu),
    cpuTotal,
  );
  const ram = roundToTarget(
    withIdle.map(([, s]) => s.ram),
    ramTotal,
  );
  const gpu = roundToTarget(
    withIdle.map(([, s]) => s.gpu),
    gpuTotal,
  );
  const rows: AllocationRow[] = withIdle.map(([group, s], i) => ({
    group,
    cpu_core_hours: hours(s.cpuHours),
    ram_gb_hours: hours(s.ramHours),
    gpu_hours: hours(s.gpuHours),
    cpu_cost: cpu[i].toFixed(2),
    ram_cost: ram[i].toFixed(2),
    gpu_cost: gpu[i].toFixed(2),
    total_cost: cpu[i].plus(ram[i]).plus(gpu[i]).toFixed(2),
    efficiency:
      group === IDLE || s.allocated.isZero() ? null : Math.min(1, s.usage.dividedBy(s.allocated).toDecimalPlaces(4, Decimal.ROUND_HALF_UP).toNumber()),
  }));
  rows.sort((a, b) => Number(a.group === IDLE) - Number(b.group === IDLE) || new D(b.total_cost).comparedTo(a.total_cost) || byteOrder(a.group, b.group));
  const totals = {
    cpu_core_hours: hours(sum((s) => s.cpuHours)),
    ram_gb_hours: hours(sum((s) => s.ramHours)),
    gpu_hours: hours(sum((s) => s.gpuHours)),
    cpu_cost: cpuTotal.toFixed(2),
    ram_cost: ramTotal.toFixed(2),
    gpu_cost: gpuTotal.toFixed(2),
    total_cost: total.toFixed(2),
    basis,
  };
  return { rows, totals };
}
