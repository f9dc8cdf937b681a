import { Empty, QueryState } from "../../../shared/components/status";
import { formatNumber, formatUsd } from "../../../shared/format";
import { useNodePoolRecommendations } from "../hooks";
import { DataTable, num, ScrollRegion } from "../../../shared/components/DataTable";

/** Node pools sized from their pods' requests: current against recommended type and count. */
export function NodePools({ tenantId }: { tenantId: string }) {
  const pools = useNodePoolRecommendations(tenantId);
  return (
    <section aria-labelledby="k8s-pools">
      <h2 id="k8s-pools">Node pools</h2>
      <QueryState query={pools}>
        {(data) => (
          <>
            <p className="hint">
              Over the last {data.lookback_days} days: the pool's pod requests at their 95th-percentile hour must fit in 85% of what pods can be scheduled on
              (the nodes' allocatable capacity), every node must fit the largest pod, and the pool keeps its floor of nodes. A pool of GPU nodes is sized by its
              GPU requests, among types with the same accelerator. The cheapest type and count that do is recommended.
            </p>
            {data.items.length === 0 ? (
              <Empty>No node pools: give kubernetes_node resources a cluster and a node_pool.</Empty>
            ) : (
              <ScrollRegion label="Node pool recommendations">
                <DataTable
                  caption="Node pools, current and recommended"
                  columns={["Cluster / pool", "Current", "Recommended", num("Requests (p95 hour)"), num("Largest pod"), num("Floor"), num("Savings / month")]}
                >
                  {data.items.map((pool) => (
                    <tr key={`${pool.cluster}/${pool.node_pool}`}>
                      <td>
                        {pool.cluster} / {pool.node_pool}
                      </td>
                      <td>
                        {pool.current.nodes} × {pool.current.instance_type || "unknown"} ({formatUsd(pool.current.monthly_cost_usd)})
                      </td>
                      <td>
                        {pool.recommended
                          ? `${pool.recommended.nodes} × ${pool.recommended.instance_type} (${formatUsd(pool.recommended.monthly_cost_usd)})`
                          : "No recommendation (no samples, no price or no candidate)"}
                      </td>
                      <td className="num">{resources(pool.requests)}</td>
                      <td className="num">{resources(pool.largest_pod)}</td>
                      <td className="num">at least {pool.min_nodes}</td>
                      <td className="num">{formatUsd(pool.savings_monthly_usd)}</td>
                    </tr>
                  ))}
                </DataTable>
              </ScrollRegion>
            )}
          </>
        )}
      </QueryState>
    </section>
  );
}

/** Cores and GB, and GPUs where there are any. */
const resources = (r: { cpu_cores: number; memory_gb: number; gpus: number }) =>
  `${formatNumber(r.cpu_cores)} cores, ${formatNumber(r.memory_gb)} GB${r.gpus > 0 ? `, ${formatNumber(r.gpus)} ${r.gpus === 1 ? "GPU" : "GPUs"}` : ""}`;
