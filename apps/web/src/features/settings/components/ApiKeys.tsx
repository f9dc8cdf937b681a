import type { ApiKeyRole, CreateApiKeyResponse } from "@cloudcost/contracts";
import { type FormEvent, useState } from "react";
import { canManage, useMe } from "../../../app/app-context";
import { SecretOnce } from "../../../shared/components/SecretOnce";
import { Empty, ErrorNote, QueryState } from "../../../shared/components/status";
import { formatDate } from "../../../shared/format";
import { type ApiKeyForm, useApiKeys } from "../hooks";
import { TenantChecks } from "./TenantChecks";
import { DataTable } from "../../../shared/components/DataTable";

export default function ApiKeys() {
  const me = useMe().data;
  const [created, setCreated] = useState<CreateApiKeyResponse>();
  const [form, setForm] = useState<ApiKeyForm>({ name: "", role: "viewer", tenant_ids: [] });
  const {
    list: keys,
    create,
    revoke,
  } = useApiKeys(canManage(me), (key) => {
    setCreated(key);
    setForm({ name: "", role: "viewer", tenant_ids: [] });
  });
  if (!canManage(me)) return <Empty>Only owners and admins manage API keys.</Empty>;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate(form);
  };
  return (
    <>
      <form className="card form" onSubmit={submit} aria-labelledby="new-key">
        <h2 id="new-key">New API key</h2>
        <p className="muted">A key works on the main API and on the pricing API, with at most your own role.</p>
        <div className="row">
          <label>
            Name
            <input required maxLength={200} value={form.name} onChange={(e) => setForm({ ...form, name: e.target.value })} />
          </label>
          <label>
            Role
            <select value={form.role} onChange={(e) => setForm({ ...form, role: e.target.value as ApiKeyRole })}>
              <option value="viewer">viewer (read)</option>
              <option value="member">member (read and write)</option>
              <option value="admin">admin (every tenant)</option>
            </select>
          </label>
        </div>
        {form.role !== "admin" && (
          <TenantChecks legend="Tenants the key reaches" picked={form.tenant_ids} onChange={(tenant_ids) => setForm({ ...form, tenant_ids })} />
        )}
        <button type="submit" className="primary" disabled={create.isPending}>
          Create key
        </button>
        {create.error && <ErrorNote error={create.error} title="Could not create the key" />}
      </form>
      {created && <SecretOnce key={created.key} what="the key" secret={created.key} testId="new-key" onDone={() => setCreated(undefined)} />}
      <QueryState query={keys}>
        {(page) =>
          page.items.length === 0 ? (
            <Empty>No API key yet.</Empty>
          ) : (
            <div className="table-wrap">
              <DataTable caption="API keys" columns={["Name", "Prefix", "Role", "Created by", "Last used", "State"]}>
                {page.items.map((k) => (
                  <tr key={k.id}>
                    <td>{k.name}</td>
                    <td>
                      <code>{k.prefix}…</code>
                    </td>
                    <td>{k.role}</td>
                    <td>{k.created_by?.name ?? "—"}</td>
                    <td>{k.last_used_at ? formatDate(k.last_used_at) : "never"}</td>
                    <td>
                      {k.revoked_at ? (
                        `revoked ${formatDate(k.revoked_at)}`
                      ) : (
                        <button
                          type="button"
                          className="danger"
                          onClick={() => window.confirm(`Revoke the key "${k.name}"? Anything using it stops working.`) && revoke.mutate(k.id)}
                        >
                          Revoke<span className="sr-only"> {k.name}</span>
                        </button>
                      )}
                    </td>
                  </tr>
                ))}
              </DataTable>
            </div>
          )
        }
      </QueryState>
      {revoke.error && <ErrorNote error={revoke.error} title="Could not revoke" />}
    </>
  );
}
