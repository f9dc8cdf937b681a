import { useState } from "react";
import { SpendChart } from "../../spend/components/SpendChart";
import { Empty, QueryState } from "../../../shared/components/status";
import { formatNumber, formatPercent, money } from "../../../shared/format";
import type { Allocation } from "@cloudcost/contracts";
import { groupLabel, IDLE_GROUP, lastDays, stackByDay } from "../kubernetes";
import { useNamespaceAllocation } from "../hooks";
import { DataTable, num, ScrollRegion } from "../../../shared/components/DataTable";

const DAYS = 14;

/** The nodes' cost of the last two weeks by namespace, per day, with what no pod claimed. */
export function NamespaceCosts({ tenantId }: { tenantId: string }) {
  const [shareIdle, setShareIdle] = useState(false);
  const range = lastDays(DAYS);
  const allocation = useNamespaceAllocation(tenantId, range, shareIdle);
  return (
    <section aria-labelledby="k8s-namespaces">
      <h2 id="k8s-namespaces">Cost by namespace, last {DAYS} days</h2>
      <p className="hint">
        Each node-hour costs what the bill says for that node and day, else the organization's effective price of its type, split into CPU, memory and GPUs; a
        pod is charged the larger of its request and its usage of CPU and memory, and the GPUs it requests, as a share of the node. What no pod claims is idle:
        shown on its own, or shared among the namespaces of each cluster, CPU idle by CPU cost, memory idle by memory cost and GPU idle by GPU cost.
      </p>
      <label className="checkbox">
        <input type="checkbox" checked={shareIdle} onChange={(e) => setShareIdle(e.target.checked)} /> Share idle cost among namespaces
      </label>
      <QueryState query={allocation}>
        {(data) => {
          if (data.rows.length === 0) return <Empty>No pod samples in this range: send them to POST /api/v1/tenant/kubernetes/pods.</Empty>;
          const stacked = stackByDay(data);
          return (
            <>
              <SpendChart keys={stacked.keys.map(groupLabel)} periods={relabel(stacked.periods)} currency="USD" title="Cost by namespace per day" />
              <ScrollRegion label="Cost by namespace">
                <DataTable
                  caption={`Cost by namespace from ${data.start.slice(0, 10)} to ${data.end.slice(0, 10)}`}
                  columns={[
                    "Namespace",
                    num("Core-hours"),
                    num("GB-hours"),
                    num("GPU-hours"),
                    num("CPU cost"),
                    num("Memory cost"),
                    num("GPU cost"),
                    num("Total"),
                    num("Efficiency"),
                  ]}
                  foot={
                    <tr>
                      <th scope="row">Nodes' cost</th>
                      <td className="num">{formatNumber(data.totals.cpu_core_hours)}</td>
                      <td className="num">{formatNumber(data.totals.ram_gb_hours)}</td>
                      <td className="num">{formatNumber(data.totals.gpu_hours)}</td>
                      <td className="num">{money(data.totals.cpu_cost, "USD")}</td>
                      <td className="num">{money(data.totals.ram_cost, "USD")}</td>
                      <td className="num">{money(data.totals.gpu_cost, "USD")}</td>
                      <td className="num" data-testid="k8s-total">
                        {money(data.totals.total_cost, "USD")}
                      </td>
                      <td />
                    </tr>
                  }
                >
                  {data.rows.map((row) => (
                    <tr key={row.group}>
                      <td>{groupLabel(row.group)}</td>
                      <td className="num">{formatNumber(row.cpu_core_hours)}</td>
                      <td className="num">{formatNumber(row.ram_gb_hours)}</td>
                      <td className="num">{formatNumber(row.gpu_hours)}</td>
                      <td className="num">{money(row.cpu_cost, "USD")}</td>
                      <td className="num">{money(row.ram_cost, "USD")}</td>
                      <td className="num">{money(row.gpu_cost, "USD")}</td>
                      <td className="num">{money(row.total_cost, "USD")}</td>
                      <td className="num" title="Usage cost over allocated cost">
                        {row.efficiency === null ? "—" : formatPercent(Math.round(row.efficiency * 1000) / 10)}
                      </td>
                    </tr>
                  ))}
                </DataTable>
              </ScrollRegion>
              {idleText(data.rows) && (
                <p className="hint" data-testid="k8s-idle">
                  {idleText(data.rows)}
                </p>
              )}
              <p className="hint" data-testid="k8s-basis">
                {basisText(data.totals.basis)}
              </p>
              {data.unpriced_nodes.length > 0 && <p className="hint">Nodes without a price (counted as zero): {data.unpriced_nodes.join(", ")}.</p>}
              {data.nodes_without_pods.length > 0 && (
                <p className="hint" data-testid="k8s-nodes-without-pods">
                  {nodesWithoutPodsText(data.nodes_without_pods)}
                </p>
              )}
            </>
          );
        }}
      </QueryState>
    </section>
  );
}

/** Idle per resource, from the `__idle__` row (none when all idle was shared). */
export function idleText(rows: Allocation["rows"]): string | null {
  const idle = rows.find((r) => r.group === IDLE_GROUP);
  if (!idle) return null;
  return `Idle: CPU ${money(idle.cpu_cost, "USD")}, memory ${money(idle.ram_cost, "USD")}, GPU ${money(idle.gpu_cost, "USD")} (claimed by no pod; shared per resource when idle is shared).`;
}

const nodeDays = (n: number) => (n === 1 ? "1 node-day" : `${formatNumber(n)} node-days`);
/** Where the nodes' prices came from. */
export function basisText(basis: Allocation["totals"]["basis"]): string {
  return `Node prices: ${nodeDays(basis.bill_node_days)} from the bill (reservations, savings plans and spot discounts included), ${
    basis.catalog_node_days === 1 ? "1" : formatNumber(basis.catalog_node_days)
  } at the catalog's effective price.`;
}

const NAMED = 5;
/** The API names at most 100 such nodes; the page names a few of them and counts the rest. */
export function nodesWithoutPodsText(nodes: string[]): string {
  const count = nodes.length >= 100 ? "100 or more nodes" : nodes.length === 1 ? "1 node" : `${nodes.length} nodes`;
  const rest = nodes.length - NAMED;
  const named = nodes.slice(0, NAMED).join(", ");
  return `No pod was sampled on ${count} billed in this range, so their whole cost is idle (is an agent sending their pods?): ${named}${
    rest > 0 ? ` and ${nodes.length >= 100 ? "more" : `${rest} more`}` : ""
  }.`;
}

const relabel = (periods: ReturnType<typeof stackByDay>["periods"]) =>
  periods.map((p) => ({ ...p, values: Object.fromEntries(Object.entries(p.values).map(([k, v]) => [groupLabel(k), v])) }));
