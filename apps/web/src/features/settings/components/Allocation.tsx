import { type FormEvent, useEffect, useState } from "react";
import { canManage, useMe } from "../../../app/app-context";
import { Empty, ErrorNote, QueryState } from "../../../shared/components/status";
import { moved, type RuleForm, ruleToForm, rulesBody } from "../allocation";
import { formatDate, money } from "../../../shared/format";
import { TenantOptions, useTenant } from "../../../app/tenant";
import { useAllocation } from "../hooks";
import { DataTable } from "../../../shared/components/DataTable";

const blank = (tenant: string): RuleForm => ({ tenant_id: tenant, sub_account_ids: "", billing_account_ids: "", tag_key: "", tag_values: "" });

/** FOCUS import allocation: the organization's rules (first match wins) and its imports. */
export default function Allocation() {
  const me = useMe().data;
  const orgId = me?.organization.id ?? "";
  const { tenants } = useTenant();
  const [rows, setRows] = useState<RuleForm[]>();
  const { rules, imports, sessions, save, remove } = useAllocation(orgId, canManage(me), (stored) => setRows(stored.rules.map(ruleToForm)));
  const [problem, setProblem] = useState<string>();
  useEffect(() => {
    if (rules.data && rows === undefined) setRows(rules.data.rules.map(ruleToForm));
  }, [rules.data, rows]);
  if (!canManage(me)) return <Empty>Only owners and admins manage how imported cloud bills are allocated.</Empty>;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const result = rulesBody(rows ?? []);
    if ("error" in result) return setProblem(result.error);
    setProblem(undefined);
    save.mutate(result);
  };
  const edit = (i: number, change: Partial<RuleForm>) => setRows((rows ?? []).map((r, j) => (j === i ? { ...r, ...change } : r)));
  return (
    <>
      <h2>Allocation rules</h2>
      <p className="muted">
        Lines of imported FOCUS bills go to the tenant of the first rule they match (every criterion given must match; a rule without criteria matches
        everything). Lines no rule matches stay unallocated, visible to owners and admins. Saving re-allocates the lines already imported.
      </p>
      <QueryState query={rules}>
        {() => (
          <form className="form" onSubmit={submit} aria-label="Allocation rules">
            {(rows ?? []).length === 0 && <Empty>No rule: every imported line is unallocated.</Empty>}
            <ol className="plain budget-list rules">
              {(rows ?? []).map((row, i) => (
                <li key={i} className="card">
                  <fieldset>
                    <legend>Rule {i + 1}</legend>
                    <div className="row">
                      <label>
                        Tenant
                        <select value={row.tenant_id} onChange={(e) => edit(i, { tenant_id: e.target.value })}>
                          {!tenants.some((t) => t.id === row.tenant_id) && <option value={row.tenant_id}>{row.tenant_id || "pick a tenant"}</option>}
                          <TenantOptions tenants={tenants} />
                        </select>
                      </label>
                      <label>
                        Sub-account ids
                        <input value={row.sub_account_ids} onChange={(e) => edit(i, { sub_account_ids: e.target.value })} />
                      </label>
                      <label>
                        Billing account ids
                        <input value={row.billing_account_ids} onChange={(e) => edit(i, { billing_account_ids: e.target.value })} />
                      </label>
                      <label>
                        Tag key
                        <input value={row.tag_key} onChange={(e) => edit(i, { tag_key: e.target.value })} />
                      </label>
                      <label>
                        Tag values
                        <input value={row.tag_values} onChange={(e) => edit(i, { tag_values: e.target.value })} />
                      </label>
                    </div>
                    <div className="analyze">
                      <button type="button" disabled={i === 0} onClick={() => setRows(moved(rows ?? [], i, -1))}>
                        Move up<span className="sr-only"> rule {i + 1}</span>
                      </button>
                      <button type="button" disabled={i === (rows ?? []).length - 1} onClick={() => setRows(moved(rows ?? [], i, 1))}>
                        Move down<span className="sr-only"> rule {i + 1}</span>
                      </button>
                      <button type="button" className="danger" onClick={() => setRows((rows ?? []).filter((_, j) => j !== i))}>
                        Remove rule {i + 1}
                      </button>
                    </div>
                  </fieldset>
                </li>
              ))}
            </ol>
            <div className="analyze">
              <button type="button" onClick={() => setRows([...(rows ?? []), blank(tenants[0]?.id ?? "")])} disabled={tenants.length === 0}>
                Add rule
              </button>
              <button type="submit" className="primary" disabled={save.isPending}>
                Save rules
              </button>
              {save.data && <span role="status">Saved: {save.data.reallocated_lines} imported lines moved.</span>}
            </div>
            {problem && (
              <p className="error" role="alert">
                {problem}
              </p>
            )}
            {save.error && <ErrorNote error={save.error} title="Could not save the rules" />}
          </form>
        )}
      </QueryState>
      <h2>Imported bills</h2>
      <p className="muted">
        Imported with <code>POST /api/v1/organizations/{"{org_id}"}/spend/imports</code> (a FOCUS 1.0-1.3 CSV or Parquet file); a later import of the same
        billing account and period replaces the earlier one.
      </p>
      {remove.error && <ErrorNote error={remove.error} title="Could not delete the import" />}
      <QueryState query={imports}>
        {(page) =>
          page.items.length === 0 ? (
            <Empty>No bill imported yet.</Empty>
          ) : (
            <ul className="plain budget-list">
              {page.items.map((imp) => (
                <li key={imp.id} className="card">
                  <strong>{imp.file_name ?? imp.id}</strong> <span className="muted">FOCUS {imp.focus_version}</span> · {formatDate(imp.created_at)} ·{" "}
                  {imp.session !== null && (
                    <>
                      session {imp.session}, part {imp.part} of {imp.parts} ({imp.state === "pending" ? "pending: not counted yet" : "completed"}) ·{" "}
                    </>
                  )}
                  {imp.rows} rows ({imp.allocated_rows} allocated, {imp.unallocated_rows} unallocated) ·{" "}
                  {imp.totals.map((t) => money(t.billed_cost, t.currency)).join(", ")}{" "}
                  <button type="button" className="danger" onClick={() => window.confirm("Delete this import and its lines?") && remove.mutate(imp.id)}>
                    Delete<span className="sr-only"> import {imp.file_name ?? imp.id}</span>
                  </button>
                </li>
              ))}
            </ul>
          )
        }
      </QueryState>
      <h2>Import sessions</h2>
      <p className="muted">
        A bill sent as several files (for example an AWS Data Exports run) is one import session: <code>?session=…&amp;part=n&amp;parts=N</code> on each file,
        or the export&apos;s <code>Manifest.json</code> first. Parts of a pending session are not counted anywhere (spend, reports, budgets) until its last part
        arrives; then the whole session is stored at once and replaces the earlier lines of its billing accounts and periods. A session still incomplete 24
        hours after its first part is dropped.
      </p>
      <QueryState query={sessions}>
        {(page) =>
          page.items.length === 0 ? (
            <Empty>No import session yet.</Empty>
          ) : (
            page.items.map((session) => (
              <DataTable
                key={session.id}
                captionVisible
                caption={
                  <>
                    Session {session.id}
                    {session.execution_id ? ` (export run ${session.execution_id})` : ""}: {session.received_parts.length} of {session.parts} parts received,{" "}
                    {session.state === "completed"
                      ? `completed ${session.completed_at ? formatDate(session.completed_at) : ""}`
                      : `pending, not counted yet${session.expires_at ? ` (dropped ${formatDate(session.expires_at)} if incomplete)` : ""}`}
                  </>
                }
                columns={["Part", "File", "State", "Rows", "Received"]}
              >
                {session.received_parts.map((part) => (
                  <tr key={part.import_id}>
                    <th scope="row">
                      Part {part.part} of {session.parts}
                    </th>
                    <td>{part.file_name ?? part.import_id}</td>
                    <td>{session.state === "completed" ? "completed" : "pending (not counted yet)"}</td>
                    <td>{part.rows}</td>
                    <td>{formatDate(part.received_at)}</td>
                  </tr>
                ))}
              </DataTable>
            ))
          )
        }
      </QueryState>
    </>
  );
}
