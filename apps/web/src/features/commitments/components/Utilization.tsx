import type { CommitmentUtilization } from "@cloudcost/contracts";
import { Empty, QueryState } from "../../../shared/components/status";
import { money } from "../../../shared/format";
import { useCommitmentList } from "../hooks";

/** A utilization bar: the used share of what was committed. */
function Bar({ percent }: { percent: string | null }) {
  const value = percent === null ? 0 : Math.min(100, Number(percent));
  return (
    <meter className="utilization-meter" min={0} max={100} low={70} optimum={100} value={value} aria-label={`Utilization ${percent ?? "unknown"} %`}>
      {percent ?? "—"} %
    </meter>
  );
}

const name = (c: CommitmentUtilization) => c.commitment_discount_id.split("/").pop() ?? c.commitment_discount_id;

export function Utilization({ orgId, range }: { orgId: string; range: { start: string; end: string } }) {
  const list = useCommitmentList(orgId, range, true);
  return (
    <section className="card" aria-labelledby="utilization">
      <h2 id="utilization">Utilization</h2>
      <p className="muted">Used = the effective cost of the usage each commitment paid for; unused = what it cost without being used (its Unused lines).</p>
      <QueryState query={list}>
        {(data) =>
          data.items.length === 0 ? (
            <Empty>No commitment charged in this range.</Empty>
          ) : (
            // biome-ignore lint/a11y/noNoninteractiveTabindex: a wide table must be focusable to scroll with the keyboard (axe scrollable-region-focusable)
            <div className="table-scroll" tabIndex={0}>
              <table>
                <caption>
                  Commitments, {range.start} to {range.end}
                </caption>
                <thead>
                  <tr>
                    <th scope="col">Commitment</th>
                    <th scope="col">Type</th>
                    <th scope="col">Utilization</th>
                    <th scope="col">Committed</th>
                    <th scope="col">Unused</th>
                    <th scope="col">Savings</th>
                  </tr>
                </thead>
                <tbody>
                  {data.items.map((c) => (
                    <tr key={c.commitment_discount_id}>
                      <th scope="row" title={c.commitment_discount_id}>
                        {name(c)}
                      </th>
                      <td>{c.type ?? c.category ?? "—"}</td>
                      <td>
                        <Bar percent={c.utilization_percent} /> {c.utilization_percent ?? "—"} %
                      </td>
                      <td>{money(c.committed_cost, "USD")}</td>
                      <td>{money(c.unused_cost, "USD")}</td>
                      <td title="List cost of the usage it covered minus what that usage cost">{money(c.savings, "USD")}</td>
                    </tr>
                  ))}
                </tbody>
                <tfoot>
                  <tr>
                    <th scope="row">All</th>
                    <td />
                    <td>{data.totals.utilization_percent ?? "—"} %</td>
                    <td>{money(data.totals.committed_cost, "USD")}</td>
                    <td>{money(data.totals.unused_cost, "USD")}</td>
                    <td>{money(data.totals.savings, "USD")}</td>
                  </tr>
                </tfoot>
              </table>
            </div>
          )
        }
      </QueryState>
    </section>
  );
}
