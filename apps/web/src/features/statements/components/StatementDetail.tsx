import { Link, useNavigate, useParams } from "react-router";
import { canManage, useMe } from "../../../app/app-context";
import { Empty, ErrorNote, QueryState } from "../../../shared/components/status";
import { formatDate } from "../../../shared/format";
import { useStatement, useStatementNames } from "../hooks";
import { OwnersOnly } from "./OwnersOnly";
import { byLabel, isZero, metricLabel } from "../statements";
import { Amount, AmountCell } from "./Amount";
import { DataTable, num } from "../../../shared/components/DataTable";

/** One statement: its reconciliation, its recipients with their totals, the changes against the one it supersedes; finalize or delete a draft. */
export default function StatementDetail() {
  const { id = "" } = useParams();
  const me = useMe().data;
  const orgId = me?.organization.id ?? "";
  const manager = canManage(me);
  const navigate = useNavigate();
  const { statement, finalize, remove } = useStatement(orgId, id, manager);
  const { dimensionName, recipientName } = useStatementNames(orgId, manager);

  if (me && !manager) return <OwnersOnly title="Statement" />;

  return (
    <>
      <p>
        <Link to="/statements">← All statements</Link>
      </p>
      <QueryState query={statement}>
        {(s) => {
          const nameOf = (value: string) => recipientName(s.by, value);
          const r = s.reconciliation;
          const recipientLink = (value: string) => (
            <Link to={`/statements/${encodeURIComponent(s.id)}/recipients/${encodeURIComponent(value)}`}>{nameOf(value)}</Link>
          );
          return (
            <>
              <h1>Statement {s.number}</h1>
              <p data-testid="statement-summary">
                {s.period} by {byLabel(s.by, dimensionName)}, {metricLabel(s.metric)} in {s.currency}. <strong>{s.status}</strong>, created{" "}
                {formatDate(s.created_at)}
                {s.finalized_at ? `, final since ${formatDate(s.finalized_at)}` : ""}.
              </p>
              {s.status === "draft" ? (
                <div className="actions">
                  <button
                    type="button"
                    className="primary"
                    disabled={finalize.isPending}
                    onClick={() =>
                      window.confirm(`Finalize statement ${s.number}? A final statement never changes and cannot be deleted.`) && finalize.mutate()
                    }
                  >
                    Finalize
                  </button>{" "}
                  <button
                    type="button"
                    className="danger"
                    disabled={remove.isPending}
                    onClick={() =>
                      window.confirm(`Delete the draft statement ${s.number}?`) && remove.mutate(undefined, { onSuccess: () => navigate("/statements") })
                    }
                  >
                    Delete draft
                  </button>
                </div>
              ) : (
                <p className="muted" data-testid="final-note">
                  Final: it never changes and cannot be deleted. To correct it, create a new statement of the same month; it supersedes this one.
                </p>
              )}
              {finalize.error && <ErrorNote error={finalize.error} title="Could not finalize the statement" />}
              {remove.error && <ErrorNote error={remove.error} title="Could not delete the statement" />}

              <section aria-labelledby="reconciliation">
                <h2 id="reconciliation">Reconciliation</h2>
                <dl className="cards" data-testid="reconciliation">
                  <div className="card stat">
                    <dt>Bill total</dt>
                    <dd>
                      <Amount value={r.bill_total} currency={s.currency} />
                    </dd>
                  </div>
                  <div className="card stat">
                    <dt>Allocated</dt>
                    <dd>
                      <Amount value={r.allocated_total} currency={s.currency} />
                    </dd>
                  </div>
                  <div className="card stat">
                    <dt>Unallocated</dt>
                    <dd>
                      <Amount value={r.unallocated_total} currency={s.currency} />
                    </dd>
                  </div>
                  <div className="card stat">
                    <dt>Difference</dt>
                    <dd data-testid="difference">
                      <Amount value={r.difference} currency={s.currency} />
                    </dd>
                  </div>
                </dl>
                {isZero(r.difference) ? (
                  <p data-testid="reconciled">The recipients&rsquo; totals plus the unallocated cost equal the bill: the difference is 0.</p>
                ) : (
                  <div className="error" role="alert" data-testid="not-reconciled">
                    <strong>The statement does not add up:</strong> the recipients&rsquo; totals plus the unallocated cost differ from the bill by{" "}
                    {r.difference} {s.currency}.
                  </div>
                )}
              </section>

              <section aria-labelledby="recipients">
                <h2 id="recipients">Recipients</h2>
                {s.recipients.length === 0 ? (
                  <Empty>No recipient: nothing of the month was charged to one.</Empty>
                ) : (
                  <DataTable caption="Recipients and their totals" columns={["Recipient", num("Total")]}>
                    {s.recipients.map((x) => (
                      <tr key={x.value} data-testid="recipient">
                        <td>{recipientLink(x.value)}</td>
                        <AmountCell value={x.total} currency={s.currency} />
                      </tr>
                    ))}
                  </DataTable>
                )}
              </section>

              {s.supersedes && (
                <section aria-labelledby="changes">
                  <h2 id="changes">Changes against the superseded statement</h2>
                  {s.changes && s.changes.length > 0 ? (
                    <DataTable caption="Changes per recipient" columns={["Recipient", num("Previous"), num("Now"), num("Difference")]}>
                      {s.changes.map((c) => (
                        <tr key={c.value} data-testid="change">
                          <td>{nameOf(c.value)}</td>
                          <AmountCell value={c.previous_total} currency={s.currency} />
                          <AmountCell value={c.total} currency={s.currency} />
                          <AmountCell value={c.difference} currency={s.currency} />
                        </tr>
                      ))}
                    </DataTable>
                  ) : (
                    <Empty>No recipient&rsquo;s total changed.</Empty>
                  )}
                </section>
              )}
            </>
          );
        }}
      </QueryState>
    </>
  );
}
