import { Decimal } from "@cloudcost/decimal";
import type { NodePoolRecommendation, NodePoolRecommendations } from "@cloudcost/contracts";
import type { SqlSession } from "@cloudcost/db";
import type { TenantRef } from "../context";
import type { ComputeCatalogs } from "../compute/catalog-prices";
import { hourlyOf, monthly, sameKind } from "../compute/rightsizing";
import type { ComputeSettings } from "../compute/settings";
import { type PricedNode, priceNodes } from "./node-prices";
import { findNodes, findPoolRequests, type PoolRow } from "./repository";

/** Nodes are sized so the pods' requests fill at most 85% of each. */
const HEADROOM = new Decimal("0.85");
const byteOrder = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const num = (value: string | null) => new Decimal(value ?? 0);

/** The pool's current type: the one most of its nodes have (ties: byte order). */
function currentOf(nodes: PricedNode[]): PricedNode | null {
  const counts = new Map<string, number>();
  for (const n of nodes) if (n.node.instance_type) counts.set(n.node.instance_type, (counts.get(n.node.instance_type) ?? 0) + 1);
  const [type] = [...counts.entries()].sort((a, b) => b[1] - a[1] || byteOrder(a[0], b[0]))[0] ?? [];
  return nodes.find((n) => n.node.instance_type === type) ?? null;
}

/** Nodes of `row` needed: max(1, ceil(CPU requests / (vCPU x 0.85)), ceil(memory requests / (RAM x 0.85))). */
export const nodesNeeded = (cpu: Decimal, memory: Decimal, vcpu: number, ram: number) =>
  Decimal.max(1, cpu.dividedBy(HEADROOM.times(vcpu)).ceil(), memory.dividedBy(HEADROOM.times(ram)).ceil()).toNumber();

function recommend(pool: PoolRow, nodes: PricedNode[], settings: ComputeSettings): NodePoolRecommendation {
  const cpu = num(pool.cpu_p95);
  const memory = num(pool.memory_p95);
  const largest = { cpu: num(pool.largest_cpu), memory: num(pool.largest_memory) };
  const current = currentOf(nodes);
  const currentMonthly = current?.row ? monthly(hourlyOf(current.row, settings.savingsBasis)).times(nodes.length) : null;
  const base: NodePoolRecommendation = {
    cluster: pool.cluster,
    node_pool: pool.node_pool,
    current: { instance_type: current?.node.instance_type ?? "", nodes: nodes.length, monthly_cost_usd: currentMonthly?.toNumber() ?? null },
    recommended: null,
    savings_monthly_usd: 0,
    requests: { cpu_cores: cpu.toNumber(), memory_gb: memory.toNumber() },
    largest_pod: { cpu_cores: largest.cpu.toNumber(), memory_gb: largest.memory.toNumber() },
    hours: Number(pool.hours),
  };
  const currentRow = current?.row;
  if (!current || !currentRow || !currentMonthly || Number(pool.hours) === 0) return base;

  const seen = new Set<string>();
  const options = current.catalog
    .filter((row) => {
      if (seen.has(row.instance_type)) return false;
      seen.add(row.instance_type);
      return sameKind(currentRow, row, current.node.architecture as typeof row.architecture | null, settings.allowArchitectureChange);
    })
    .filter((row) => largest.cpu.lte(row.cpu_cores) && largest.memory.lte(row.ram_gb))
    .map((row) => {
      const count = nodesNeeded(cpu, memory, row.cpu_cores, row.ram_gb);
      return { row, count, cost: monthly(hourlyOf(row, settings.savingsBasis)).times(count) };
    })
    // Cheapest first; ties: the current type, then fewer nodes, then type in byte order.
    .sort(
      (a, b) =>
        a.cost.comparedTo(b.cost) ||
        Number(b.row.instance_type === currentRow.instance_type) - Number(a.row.instance_type === currentRow.instance_type) ||
        a.count - b.count ||
        byteOrder(a.row.instance_type, b.row.instance_type),
    );
  const winner = options[0];
  if (!winner) return base;
  return {
    ...base,
    recommended: { instance_type: winner.row.instance_type, nodes: winner.count, monthly_cost_usd: winner.cost.toNumber() },
    savings_monthly_usd: currentMonthly.minus(winner.cost).toNumber(),
  };
}

/** Node-pool right-sizing (docs/api.md, "Kubernetes node pools") over the organization's lookback window. */
export async function nodePoolRecommendations(
  sql: SqlSession,
  catalogs: ComputeCatalogs,
  tenant: TenantRef,
  settings: ComputeSettings,
  now: Date,
): Promise<NodePoolRecommendations> {
  const since = new Date(now.getTime() - settings.lookbackDays * 86_400_000);
  const pools = await findPoolRequests(sql, tenant.id, since);
  // A retired node has left its pool.
  const nodes = (await findNodes(sql, tenant.id)).filter((n) => n.node_pool !== null && !n.retired);
  const priced = await priceNodes(catalogs, tenant.organizationId, nodes, settings.savingsBasis);
  const items = pools.map((pool) =>
    recommend(
      pool,
      priced.filter((p) => (p.node.cluster ?? "") === pool.cluster && p.node.node_pool === pool.node_pool),
      settings,
    ),
  );
  return { items, lookback_days: settings.lookbackDays };
}
