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
  cpu_cost: string;
  ram_cost: string;
  usage_cost: string;
}

interface Sum {
  cpuHours: Dec;
  ramHours: Dec;
  cpu: Dec;
  ram: Dec;
  usage: Dec;
  /** Allocated cost before any shared idle (the efficiency's denominator). */
  allocated: Dec;
}

const zero = (): Sum => ({ cpuHours: new D(0), ramHours: new D(0), cpu: new D(0), ram: new D(0), usage: new D(0), allocated: new D(0) });
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
 * Rows per group from the database's exact (cluster, group) sums: idle shared within each cluster in
 * proportion to the groups' allocated cost there (a cluster where nothing is allocated keeps its
 * idle), costs rounded to cents so that rows add up to the nodes' cost exactly.
 */
export function allocationRows(input: ExactRow[], shareIdle: boolean) {
  const groups = new Map<string, Map<string, Sum>>();
  // A cluster's idle: its nodes' cost, less what its groups were charged.
  const idle = new Map<string, { cpu: Dec; ram: Dec }>();
  const addIdle = (cluster: string, cpu: Decimal.Value, ram: Decimal.Value) => {
    const i = idle.get(cluster) ?? { cpu: new D(0), ram: new D(0) };
    idle.set(cluster, { cpu: i.cpu.plus(cpu), ram: i.ram.plus(ram) });
  };
  for (const r of input) {
    if (r.capacity) {
      addIdle(r.cluster, r.cpu_cost, r.ram_cost);
      continue;
    }
    addIdle(r.cluster, new D(r.cpu_cost).negated(), new D(r.ram_cost).negated());
    let inCluster = groups.get(r.cluster);
    if (!inCluster) {
      inCluster = new Map();
      groups.set(r.cluster, inCluster);
    }
    const s = inCluster.get(r.grp) ?? zero();
    inCluster.set(r.grp, {
      cpuHours: s.cpuHours.plus(r.cpu_hours),
      ramHours: s.ramHours.plus(r.ram_hours),
      cpu: s.cpu.plus(r.cpu_cost),
      ram: s.ram.plus(r.ram_cost),
      usage: s.usage.plus(r.usage_cost),
      allocated: s.allocated.plus(r.cpu_cost).plus(r.ram_cost),
    });
  }

  const merged = new Map<string, Sum>();
  const idleLeft = { cpu: new D(0), ram: new D(0) };
  const clusters = new Set([...groups.keys(), ...idle.keys()]);
  for (const cluster of clusters) {
    const inCluster = groups.get(cluster) ?? new Map<string, Sum>();
    const clusterIdle = idle.get(cluster) ?? { cpu: new D(0), ram: new D(0) };
    const allocated = [...inCluster.values()].reduce((a, s) => a.plus(s.allocated), new D(0));
    const share = shareIdle && allocated.gt(0);
    if (!share) {
      idleLeft.cpu = idleLeft.cpu.plus(clusterIdle.cpu);
      idleLeft.ram = idleLeft.ram.plus(clusterIdle.ram);
    }
    for (const [grp, s] of inCluster) {
      const part = share ? s.allocated.dividedBy(allocated) : new D(0);
      const m = merged.get(grp) ?? zero();
      merged.set(grp, {
        cpuHours: m.cpuHours.plus(s.cpuHours),
        ramHours: m.ramHours.plus(s.ramHours),
        cpu: m.cpu.plus(s.cpu).plus(clusterIdle.cpu.times(part)),
        ram: m.ram.plus(s.ram).plus(clusterIdle.ram.times(part)),
        usage: m.usage.plus(s.usage),
        allocated: m.allocated.plus(s.allocated),
      });
    }
  }
  // In group order, so that the cents of equal remainders go the same way on every call.
  const entries = [...merged.entries()].sort(([a], [b]) => byteOrder(a, b));
  // Idle is always shown unless all of it was shared.
  const showIdle = input.some((r) => r.capacity) && (!shareIdle || !idleLeft.cpu.isZero() || !idleLeft.ram.isZero());
  const withIdle = showIdle ? [...entries, [IDLE, { ...zero(), cpu: idleLeft.cpu, ram: idleLeft.ram }] as [string, Sum]] : entries;

  const sum = (pick: (s: Sum) => Dec) => withIdle.reduce((a, [, s]) => a.plus(pick(s)), new D(0));
  const total = sum((s) => s.cpu.plus(s.ram)).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
  const cpuTotal = sum((s) => s.cpu).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
  const cpu = roundToTarget(
    withIdle.map(([, s]) => s.cpu),
    cpuTotal,
  );
  const ram = roundToTarget(
    withIdle.map(([, s]) => s.ram),
    total.minus(cpuTotal),
  );
  const rows: AllocationRow[] = withIdle.map(([group, s], i) => ({
    group,
    cpu_core_hours: hours(s.cpuHours),
    ram_gb_hours: hours(s.ramHours),
    cpu_cost: cpu[i].toFixed(2),
    ram_cost: ram[i].toFixed(2),
    total_cost: cpu[i].plus(ram[i]).toFixed(2),
    efficiency:
      group === IDLE || s.allocated.isZero() ? null : Math.min(1, s.usage.dividedBy(s.allocated).toDecimalPlaces(4, Decimal.ROUND_HALF_UP).toNumber()),
  }));
  rows.sort((a, b) => Number(a.group === IDLE) - Number(b.group === IDLE) || new D(b.total_cost).comparedTo(a.total_cost) || byteOrder(a.group, b.group));
  const totals = {
    cpu_core_hours: hours(sum((s) => s.cpuHours)),
    ram_gb_hours: hours(sum((s) => s.ramHours)),
    cpu_cost: cpuTotal.toFixed(2),
    ram_cost: total.minus(cpuTotal).toFixed(2),
    total_cost: total.toFixed(2),
  };
  return { rows, totals };
}
