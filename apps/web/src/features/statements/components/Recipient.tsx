import { Link, useParams } from "react-router";
import { canManage, useMe, useTenants } from "../../../app/app-context";
import { Empty, ErrorNote, QueryState } from "../../../shared/components/status";
import { useDimensions } from "../../settings/dimension-hooks";
import { useRecipientDownload, useRecipientStatement } from "../hooks";
import { byLabel, metricLabel, SECTIONS } from "../statements";
import { Amount } from "./Amount";

/** A recipient's statement: each section's lines and the total; its CSV and PDF. */
export default function Recipient() {
  const { id = "", value = "" } = useParams();
  const me = useMe().data;
  const orgId = me?.organization.id ?? "";
  const manager = canManage(me);
  const statement = useRecipientStatement(orgId, id, value, manager);
  const { download, error } = useRecipientDownload(orgId, id, value);
  const dimensions = useDimensions(orgId).list.data?.items ?? [];
  const dimensionName = (key: string) => dimensions.find((d) => d.key === key)?.name;
  const tenants = useTenants(manager ? orgId : undefined).data?.items ?? [];

  if (me && !manager)
    return (
      <>
        <h1>Statement</h1>
        <Empty>Statements are for owners and admins of the organization.</Empty>
      </>
    );

  return (
    <>
      <p>
        <Link to={`/statements/${encodeURIComponent(id)}`}>← The statement</Link>
      </p>
      <QueryState query={statement}>
        {(r) => {
          const name = r.by === "tenant" ? (tenants.find((t) => t.id === r.recipient)?.name ?? r.recipient) : r.recipient;
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
                      <table>
                        <caption className="sr-only">{heading}</caption>
                        <thead>
                          <tr>
                            <th scope="col">Description</th>
                            {shared && <th scope="col">Source</th>}
                            {shared && <th scope="col">Method</th>}
                            {shared && (
                              <th scope="col" className="num">
                                Ratio
                              </th>
                            )}
                            <th scope="col" className="num">
                              Amount
                            </th>
                          </tr>
                        </thead>
                        <tbody>
                          {lines.map((line, i) => (
                            <tr key={i}>
                              <td>{line.description}</td>
                              {shared && <td>{line.source ?? <span className="muted">unallocated</span>}</td>}
                              {shared && <td>{line.method ?? "—"}</td>}
                              {shared && <td className="num">{line.ratio ?? "—"}</td>}
                              <td className="num">
                                <Amount value={line.amount} currency={r.currency} />
                              </td>
                            </tr>
                          ))}
                        </tbody>
                      </table>
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
