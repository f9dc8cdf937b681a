import type { Allocation, AllocationQuery } from "@cloudcost/contracts";
import type { SqlSession } from "@cloudcost/db";
import type { TenantRef } from "../context";
import type { ComputeCatalogs } from "../compute/catalog-prices";
import { allocationRows } from "./allocation-math";
import { priceNodes } from "./node-prices";
import type { AllocationRepository } from "./allocation-repository";
import type { KubernetesRepository } from "./repository";

const MAX_UNPRICED_NAMED = 100;
const isMidnight = (value: string) => value.endsWith("T00:00:00.000Z");

export interface AllocationServiceDeps {
  sql: SqlSession;
  /** The organization's compute prices (one cache per app, as the right-sizing cycle's). */
  catalogs: ComputeCatalogs;
  allocations: AllocationRepository;
  nodes: Pick<KubernetesRepository, "findNodes">;
}

export type AllocationService = ReturnType<typeof createAllocationService>;

/** Kubernetes cost allocation of the tenant (authorize selected the tenant). */
export function createAllocationService({ sql, catalogs, allocations, nodes }: AllocationServiceDeps) {
  /**
   * The nodes' cost of the range allocated to `aggregate` (docs/api.md, "Kubernetes cost allocation"):
   * each node-day priced from the bill where the tenant's spend lines carry the node's id that day,
   * else at the organization's current effective price of its type; the arithmetic in the database (allocation-repository.ts), idle sharing and the rounding to cents in allocation-math.ts.
   */
  async function allocation(tenant: TenantRef, query: AllocationQuery): Promise<Allocation> {
    const priced = await priceNodes(catalogs, tenant.organizationId, await nodes.findNodes(sql, tenant.id), "effective");
    const labelKey = query.aggregate.startsWith("label:") ? query.aggregate.slice("label:".length) : null;
    const byDay = query.step === "day";
    const nodeIds = priced.map((p) => p.node.node);
    const bill = await allocations.findBillDays(sql, tenant.organizationId, tenant.id, nodeIds, query.start, query.end);
    const [rows, idleNodes] = await Promise.all([
      allocations.allocate(sql, tenant.id, {
        start: query.start,
        end: query.end,
        nodes: nodeIds,
        hourly: priced.map((p) => p.hourly?.toString() ?? null),
        cores: priced.map((p) => p.cores),
        ram: priced.map((p) => p.ram),
        gpus: priced.map((p) => p.gpus),
        bill,
        byDay,
        wholeDays: isMidnight(query.start) && isMidnight(query.end),
        aggregate: labelKey === null ? query.aggregate : "label",
        labelKey,
      }),
      allocations.findNodesWithoutPods(sql, tenant.id, query.start, query.end),
    ]);
    const overall = allocationRows(rows, query.share_idle);
    const result: Allocation = {
      start: query.start,
      end: query.end,
      aggregate: query.aggregate,
      share_idle: query.share_idle,
      ...overall,
      unpriced_nodes: priced
        .filter((p) => p.hourly === null)
        .slice(0, MAX_UNPRICED_NAMED)
        .map((p) => p.node.node),
      nodes_without_pods: idleNodes.map((n) => n.node),
    };
    if (byDay) {
      const days = new Map<string, typeof rows>();
      for (const row of rows) {
        const date = row.day ?? "";
        const list = days.get(date);
        if (list) list.push(row);
        else days.set(date, [row]);
      }
      result.days = [...days.keys()].sort().map((date) => ({ date, ...allocationRows(days.get(date) ?? [], query.share_idle) }));
    }
    return result;
  }

  return { allocation };
}
