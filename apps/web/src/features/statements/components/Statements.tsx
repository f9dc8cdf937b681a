import type { SpendMetric } from "@cloudcost/contracts";
import { type FormEvent, useState } from "react";
import { Link } from "react-router";
import { canManage, useMe } from "../../../app/app-context";
import { Empty, ErrorNote, QueryState } from "../../../shared/components/status";
import { formatDate } from "../../../shared/format";
import { useDimensions } from "../../settings/dimension-hooks";
import { useOrganizationSettings } from "../../settings/hooks";
import { useStatementNames, useStatements } from "../hooks";
import { OwnersOnly } from "./OwnersOnly";
import { byLabel, lastMonth, METRICS, metricLabel, periodOptions } from "../statements";
import { DataTable } from "../../../shared/components/DataTable";

/** Statements: what each tenant or each value of a dimension is charged for a month (owners and admins). */
export default function Statements() {
  const me = useMe().data;
  const orgId = me?.organization.id ?? "";
  const manager = canManage(me);
  const { list, create } = useStatements(orgId, manager);
  const dimensions = useDimensions(orgId).list.data?.items ?? [];
  const { dimensionName } = useStatementNames(orgId, manager);
  const settings = useOrganizationSettings(orgId).settings.data;
  const [now] = useState(() => new Date());
  const [period, setPeriod] = useState(() => lastMonth(now));
  const [by, setBy] = useState("tenant");
  const [metric, setMetric] = useState<SpendMetric>("effective_cost");
  const [currency, setCurrency] = useState<string>();
  const chosenCurrency = currency ?? settings?.default_currency ?? "USD";

  if (me && !manager) return <OwnersOnly title="Statements" hint=": ask one of them for your team&rsquo;s statement" />;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate({ period, by, metric, currency: chosenCurrency.trim().toUpperCase() });
  };
  const statementsById = new Map((list.data?.items ?? []).map((s) => [s.id, s]));

  return (
    <>
      <h1>Statements</h1>
      <p className="muted">
        A statement says what each recipient, a tenant or a value of a dimension (after its split rules), is charged for a month, section by section, and how
        their totals and the unallocated rest add up to the bill. A draft may be deleted; a final statement never changes, and a new one of the same month
        supersedes it with the changes per recipient.
      </p>
      <form className="card form" onSubmit={submit} aria-labelledby="statement-new">
        <h2 id="statement-new">New statement</h2>
        <label>
          Period (UTC month)
          <select value={period} onChange={(e) => setPeriod(e.target.value)}>
            {periodOptions(now).map((p) => (
              <option key={p} value={p}>
                {p}
              </option>
            ))}
          </select>
        </label>
        <label>
          By (who the recipients are)
          <select value={by} onChange={(e) => setBy(e.target.value)}>
            <option value="tenant">Tenant</option>
            {dimensions.map((d) => (
              <option key={d.key} value={`dimension:${d.key}`}>
                {d.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Metric
          <select value={metric} onChange={(e) => setMetric(e.target.value as SpendMetric)}>
            {METRICS.map((m) => (
              <option key={m.value} value={m.value}>
                {m.label}
              </option>
            ))}
          </select>
        </label>
        <label>
          Currency
          <input required maxLength={3} value={chosenCurrency} onChange={(e) => setCurrency(e.target.value)} />
        </label>
        <div className="actions">
          <button type="submit" className="primary" disabled={create.isPending}>
            Create statement
          </button>
        </div>
        {create.error && <ErrorNote error={create.error} title="Could not create the statement" />}
        {create.data && (
          <p role="status" data-testid="statement-created">
            Created statement <Link to={`/statements/${encodeURIComponent(create.data.id)}`}>{create.data.number}</Link> (draft).
          </p>
        )}
      </form>
      <h2>Statements</h2>
      <QueryState query={list}>
        {(data) =>
          data.items.length === 0 ? (
            <Empty>No statement yet. Create one above.</Empty>
          ) : (
            <DataTable caption="Statements, newest first" columns={["Number", "Period", "By", "Metric", "Currency", "Status", "Created", "Supersedes"]}>
              {data.items.map((s) => (
                <tr key={s.id} data-testid="statement">
                  <td>
                    <Link to={`/statements/${encodeURIComponent(s.id)}`}>{s.number}</Link>
                  </td>
                  <td>{s.period}</td>
                  <td>{byLabel(s.by, dimensionName)}</td>
                  <td>{metricLabel(s.metric)}</td>
                  <td>{s.currency}</td>
                  <td>{s.status}</td>
                  <td>{formatDate(s.created_at)}</td>
                  <td>{s.supersedes ? (statementsById.get(s.supersedes)?.number ?? s.supersedes) : <span className="muted">none</span>}</td>
                </tr>
              ))}
            </DataTable>
          )
        }
      </QueryState>
    </>
  );
}
