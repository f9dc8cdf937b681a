import { type FormEvent, useState } from "react";
import { canManage, useMe } from "../../../app/app-context";
import { Empty, ErrorNote } from "../../../shared/components/status";
import { useTenant } from "../../../app/tenant";
import { useTenantChanges } from "../hooks";

export default function Tenants() {
  const me = useMe().data;
  const orgId = me?.organization.id;
  const { tenants } = useTenant();
  const [name, setName] = useState("");
  const { create, archive } = useTenantChanges(orgId, () => setName(""));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate(name);
  };
  return (
    <>
      {canManage(me) && (
        <form className="card form" onSubmit={submit} aria-labelledby="new-tenant">
          <h2 id="new-tenant">New tenant</h2>
          <div className="row">
            <label>
              Name
              <input required maxLength={200} value={name} onChange={(e) => setName(e.target.value)} />
            </label>
          </div>
          <button type="submit" className="primary" disabled={create.isPending}>
            Create tenant
          </button>
          {create.error && <ErrorNote error={create.error} title="Could not create the tenant" />}
        </form>
      )}
      <h2>Tenants</h2>
      {tenants.length === 0 ? (
        <Empty>No tenant in your reach.</Empty>
      ) : (
        <ul className="plain">
          {tenants.map((t) => (
            <li key={t.id}>
              <strong>{t.name}</strong> <code className="muted">{t.id}</code>{" "}
              {canManage(me) && (
                <button type="button" className="danger" onClick={() => window.confirm(`Archive ${t.name}?`) && archive.mutate(t.id)}>
                  Archive<span className="sr-only"> {t.name}</span>
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {archive.error && <ErrorNote error={archive.error} title="Could not archive" />}
    </>
  );
}
