import { Link, useParams } from "react-router";
import { canManage, useMe } from "../../../app/app-context";
import { ErrorNote, QueryState } from "../../../shared/components/status";
import { useRecipientDownload, useRecipientStatement, useStatementNames } from "../hooks";
import { OwnersOnly } from "./OwnersOnly";
import { byLabel, metricLabel, SECTIONS } from "../statements";
import { Amount, AmountCell } from "./Amount";
import { DataTable, num } from "../../../shared/components/DataTable";

/** A recipient's statement: each section's lines and the total; its CSV and PDF. */
export default function Recipient() {
  const { id = "", value = "" } = useParams();
  const me = useMe().data;
  const orgId = me?.organization.id ?? "";
  const manager = canManage(me);
  const statement = useRecipientStatement(orgId, id, value, manager);
  const { download, error } = useRecipientDownload(orgId, id, value);
  const { dimensionName, recipientName } = useStatementNames(orgId, manager);

  if (me && !manager) return <OwnersOnly title="Statement" />;

  return (
    <>
      <p>
        <Link to={`/statements/${encodeURIComponent(id)}`}>← The statement</Link>
      </p>
      <QueryState query={statement}>
        {(r) => {
          const name = recipientName(r.by, r.recipient);
          return (
            <>
              <h1>
                {name}: statement {r.number}
              </h1>
              <p data-testid="recipient-summary">
                {r.organization.name}, {r.period}, by {byLabel(r.by, dimensionName)}, {metricLabel(r.metric)} in {r.currency} ({r.status}).
              </p>
              <div className="actions">
                <button type="button" className="link" onClick={() => download("csv", r.number)}>
                  Download CSV
                </button>{" "}
                <button type="button" className="link" onClick={() => download("pdf", r.number)}>
                  Download PDF
                </button>
              </div>
              {error !== undefined && <ErrorNote error={error} title="Could not download" />}
              {SECTIONS.map(([key, heading]) => {
                const lines = r.sections[key];
                const shared = key === "shared";
                return (
                  <section key={key} aria-labelledby={`section-${key}`} data-testid={`section-${key}`}>
                    <h2 id={`section-${key}`}>{heading}</h2>
                    {lines.length === 0 ? (
                      <p className="muted">None.</p>
                    ) : (
                      <DataTable caption={heading} columns={["Description", shared && "Source", shared && "Method", shared && num("Ratio"), num("Amount")]}>
                        {lines.map((line, i) => (
                          <tr key={i}>
                            <td>{line.description}</td>
                            {shared && <td>{line.source ?? <span className="muted">unallocated</span>}</td>}
                            {shared && <td>{line.method ?? "—"}</td>}
                            {shared && <td className="num">{line.ratio ?? "—"}</td>}
                            <AmountCell value={line.amount} currency={r.currency} />
                          </tr>
                        ))}
                      </DataTable>
                    )}
                  </section>
                );
              })}
              <p className="total" data-testid="recipient-total">
                <strong>Total</strong> <Amount value={r.total} currency={r.currency} />
              </p>
            </>
          );
        }}
      </QueryState>
    </>
  );
}
