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
const percent = (value: string | null) => (value === null ? "—" : `${value} %`);

/** Net savings with its share of the on-demand equivalent; a loss says so. */
function Net({ value, share, currency }: { value: string; share: string | null; currency: string }) {
  const loss = value.startsWith("-");
  return (
    <span className={loss ? "loss" : undefined}>
      {money(value, currency)} {share !== null && <span className="muted">({share} %)</span>}
      {loss && " (a loss: it cost more than on demand)"}
    </span>
  );
}

export function Utilization({ orgId, range }: { orgId: string; range: { start: string; end: string } }) {
  const list = useCommitmentList(orgId, range, true);
  return (
    <section className="card" aria-labelledby="utilization">
      <h2 id="utilization">Utilization and net savings</h2>
      <p className="muted">
        Used = the effective cost of the usage each commitment paid for; unused = what it cost without being used (its Unused lines). Net savings = the covered
        usage at on-demand rates − (used + unused): negative when the commitment cost more than on demand would have. Totals are per provider and currency.
      </p>
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
                    <th scope="col">On-demand equivalent</th>
                    <th scope="col">Net savings</th>
                  </tr>
                </thead>
                <tbody>
                  {data.items.map((c) => {
                    const currency = c.currency ?? "USD";
                    return (
                      <tr key={`${c.commitment_discount_id} ${c.currency}`}>
                        <th scope="row" title={c.commitment_discount_id}>
                          {name(c)}
                        </th>
                        <td>{c.type ?? c.category ?? "—"}</td>
                        <td>
                          <Bar percent={c.utilization_percent} /> {percent(c.utilization_percent)}
                        </td>
                        <td>{money(c.committed_cost, currency)}</td>
                        <td>{money(c.unused_cost, currency)}</td>
                        <td>{money(c.on_demand_equivalent, currency)}</td>
                        <td>
                          <Net value={c.net_savings} share={c.savings_percent} currency={currency} />
                        </td>
                      </tr>
                    );
                  })}
                </tbody>
                <tfoot>
                  {data.totals.map((t) => {
                    const currency = t.currency ?? "USD";
                    return (
                      <tr key={`${t.provider} ${t.currency}`} data-testid="commitment-total">
                        <th scope="row">
                          All {t.provider ?? ""} ({currency})
                        </th>
                        <td />
                        <td>{percent(t.utilization_percent)}</td>
                        <td>{money(t.committed_cost, currency)}</td>
                        <td>{money(t.unused_cost, currency)}</td>
                        <td>{money(t.on_demand_equivalent, currency)}</td>
                        <td>
                          <Net value={t.net_savings} share={t.savings_percent} currency={currency} />
                        </td>
                      </tr>
                    );
                  })}
                </tfoot>
              </table>
            </div>
          )
        }
      </QueryState>
    </section>
  );
}
