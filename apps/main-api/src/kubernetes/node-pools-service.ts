import { Decimal } from "@cloudcost/decimal";
import type { NodePoolRecommendation, NodePoolRecommendations } from "@cloudcost/contracts";
import type { SqlClient } from "@cloudcost/db";
import { HttpError } from "@cloudcost/http";
import type { TenantRef } from "../context";
import type { Prisma } from "../db";
import type { ComputeCatalogs } from "../compute/catalog-prices";
import { hourlyOf, monthly, sameKind } from "../compute/rightsizing";
import type { ComputeSettings, loadComputeSettings } from "../compute/settings";
import { type PricedNode, priceNodes } from "./node-prices";
import type { KubernetesRepository, PoolRow } from "./repository";

/** The node pools of a tenant that may carry a floor (a cost one customer controls: every recommendation reads them). */
export const MAX_NODE_POOL_SETTINGS = 1000;

/** Nodes are sized so the pods' requests fill at most 85% of each one's allocatable capacity. */
const HEADROOM = new Decimal("0.85");
const byteOrder = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const num = (value: string | null) => new Decimal(value ?? 0);

/** Takes `rate` of each tier of `total` (tiers of `size` in order, the last one open) and sums them. */
function tiered(total: Decimal, tiers: [size: number, rate: string][]): Decimal {
  let left = total;
  let reserved = new Decimal(0);
  for (const [size, rate] of tiers) {
    if (left.lte(0)) break;
    const part = Decimal.min(left, size);
    reserved = reserved.plus(part.times(rate));
    left = left.minus(part);
  }
  return reserved;
}

/**
 * What pods can be scheduled on of a node of `cores` and `ram` GB: its capacity less the system
 * reservation (GKE's table): CPU 6% of the first core, 1% of the second, 0.5% of the third and
 * fourth, 0.25% of the rest; memory 25% of the first 4 GB, 20% of the next 4, 10% of the next 8,
 * 6% of the next 112, 2% of the rest, plus 0.1 GB for eviction.
 */
export function allocatable(cores: number, ram: number): { cpu: Decimal; memory: Decimal } {
  const cpu = new Decimal(cores).minus(
    tiered(new Decimal(cores), [
      [1, "0.06"],
      [1, "0.01"],
      [2, "0.005"],
      [Number.POSITIVE_INFINITY, "0.0025"],
    ]),
  );
  const memory = new Decimal(ram)
    .minus(
      tiered(new Decimal(ram), [
        [4, "0.25"],
        [4, "0.2"],
        [8, "0.1"],
        [112, "0.06"],
        [Number.POSITIVE_INFINITY, "0.02"],
      ]),
    )
    .minus("0.1");
  return { cpu, memory: Decimal.max(memory, 0) };
}

interface Requests {
  cpu: Decimal;
  memory: Decimal;
  gpus: Decimal;
}

/**
 * Nodes of a type needed for `requests`: at least `minNodes`; CPU and memory requests at 85% of
 * the allocatable capacity; in a GPU pool, the GPU requests in whole GPUs, and CPU and memory up to
 * the whole allocatable capacity (its nodes are sized by their accelerators).
 */
export function nodesNeeded(requests: Requests, row: { cpu_cores: number; ram_gb: number; gpu_count: number }, minNodes: number, gpuPool: boolean): number {
  const cap = allocatable(row.cpu_cores, row.ram_gb);
  const fill = gpuPool ? new Decimal(1) : HEADROOM;
  const need = (amount: Decimal, per: Decimal) =>
    amount.lte(0) ? new Decimal(0) : per.lte(0) ? new Decimal(Number.POSITIVE_INFINITY) : amount.dividedBy(per).ceil();
  return Decimal.max(
    minNodes,
    need(requests.cpu, cap.cpu.times(fill)),
    need(requests.memory, cap.memory.times(fill)),
    gpuPool ? need(requests.gpus, new Decimal(row.gpu_count)) : 0,
  ).toNumber();
}

/** The pool's current type: the one most of its nodes have (ties: byte order). */
function currentOf(nodes: PricedNode[]): PricedNode | null {
  const counts = new Map<string, number>();
  for (const n of nodes) if (n.node.instance_type) counts.set(n.node.instance_type, (counts.get(n.node.instance_type) ?? 0) + 1);
  const [type] = [...counts.entries()].sort((a, b) => b[1] - a[1] || byteOrder(a[0], b[0]))[0] ?? [];
  return nodes.find((n) => n.node.instance_type === type) ?? null;
}

function recommend(pool: PoolRow, nodes: PricedNode[], settings: ComputeSettings): NodePoolRecommendation {
  const requests = { cpu: num(pool.cpu_p95), memory: num(pool.memory_p95), gpus: num(pool.gpu_p95) };
  const largest = { cpu: num(pool.largest_cpu), memory: num(pool.largest_memory), gpus: num(pool.largest_gpu) };
  const current = currentOf(nodes);
  const currentMonthly = current?.row ? monthly(hourlyOf(current.row, settings.savingsBasis)).times(nodes.length) : null;
  const minNodes = pool.min_nodes ?? (nodes.length === 1 ? 1 : 2);
  const base: NodePoolRecommendation = {
    cluster: pool.cluster,
    node_pool: pool.node_pool,
    current: { instance_type: current?.node.instance_type ?? "", nodes: nodes.length, monthly_cost_usd: currentMonthly?.toNumber() ?? null },
    recommended: null,
    savings_monthly_usd: 0,
    requests: { cpu_cores: requests.cpu.toNumber(), memory_gb: requests.memory.toNumber(), gpus: requests.gpus.toNumber() },
    largest_pod: { cpu_cores: largest.cpu.toNumber(), memory_gb: largest.memory.toNumber(), gpus: largest.gpus.toNumber() },
    min_nodes: minNodes,
    hours: Number(pool.hours),
  };
  const currentRow = current?.row;
  if (!current || !currentRow || !currentMonthly || Number(pool.hours) === 0) return base;
  // A pool of GPU nodes: its candidates have the same accelerator (sameKind) and GPUs.
  const gpuPool = current.gpus > 0;

  const seen = new Set<string>();
  const options = current.catalog
    .filter((row) => {
      if (seen.has(row.instance_type)) return false;
      seen.add(row.instance_type);
      return sameKind(currentRow, row, current.node.architecture as typeof row.architecture | null, settings.allowArchitectureChange);
    })
    .filter((row) => !gpuPool || row.gpu_count > 0)
    .filter((row) => {
      const cap = allocatable(row.cpu_cores, row.ram_gb);
      return largest.cpu.lte(cap.cpu) && largest.memory.lte(cap.memory) && (!gpuPool || largest.gpus.lte(row.gpu_count));
    })
    .map((row) => {
      const count = nodesNeeded(requests, row, minNodes, gpuPool);
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

export interface NodePoolServiceDeps {
  sql: SqlClient;
  /** Reads the organization's settings (compute/settings.ts). */
  prisma: Prisma;
  /** The organization's compute prices (one cache per app, as the right-sizing cycle's). */
  catalogs: ComputeCatalogs;
  pools: Pick<KubernetesRepository, "findNodes" | "findPoolRequests" | "savePoolSetting">;
  settings: { loadComputeSettings: typeof loadComputeSettings };
}

export type NodePoolService = ReturnType<typeof createNodePoolService>;

/** Node pools of the tenant (authorize selected the tenant): their floors and their right-sizing. */
export function createNodePoolService({ sql, prisma, catalogs, pools, settings }: NodePoolServiceDeps) {
  return {
    /** Sets (or with null removes) a pool's floor; a new floor beside MAX_NODE_POOL_SETTINGS others is a 409 limit_reached. */
    async setNodePoolFloor(tenantId: string, setting: { cluster: string; nodePool: string; minNodes: number | null }): Promise<void> {
      const { saved, held } = await pools.savePoolSetting(sql, tenantId, setting, MAX_NODE_POOL_SETTINGS);
      if (!saved)
        throw new HttpError(
          "limit_reached",
          `The tenant has floors on ${held} node pools, at most ${MAX_NODE_POOL_SETTINGS}: clear one (min_nodes null) before setting another.`,
        );
    },

    /** Node-pool right-sizing (docs/api.md, "Kubernetes node pools") over the organization's lookback window, as of `now`. */
    async nodePoolRecommendations(tenant: TenantRef, now: Date): Promise<NodePoolRecommendations> {
      const organization = await settings.loadComputeSettings(prisma, tenant.organizationId);
      const since = new Date(now.getTime() - organization.lookbackDays * 86_400_000);
      const requests = await pools.findPoolRequests(sql, tenant.id, since);
      // A retired node has left its pool.
      const nodes = (await pools.findNodes(sql, tenant.id)).filter((n) => n.node_pool !== null && !n.retired);
      const priced = await priceNodes(catalogs, tenant.organizationId, nodes, organization.savingsBasis);
      const items = requests.map((pool) =>
        recommend(
          pool,
          priced.filter((p) => (p.node.cluster ?? "") === pool.cluster && p.node.node_pool === pool.node_pool),
          organization,
        ),
      );
      return { items, lookback_days: organization.lookbackDays };
    },
  };
}
