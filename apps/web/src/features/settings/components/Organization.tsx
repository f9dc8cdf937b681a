import type { OrganizationSettings } from "@cloudcost/contracts";
import { type FormEvent, useEffect, useState } from "react";
import { canManage, useMe } from "../../../app/app-context";
import { ErrorNote, QueryState } from "../../../shared/components/status";
import { useOrganizationSettings } from "../hooks";

export default function Organization() {
  const me = useMe().data;
  const orgId = me?.organization.id;
  const manager = canManage(me);
  const { settings, save } = useOrganizationSettings(orgId);
  const [form, setForm] = useState<OrganizationSettings>();
  useEffect(() => {
    if (settings.data) setForm(settings.data);
  }, [settings.data]);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (form) save.mutate(form);
  };
  const rs = (field: "lookback_days" | "cpu_target_percent" | "memory_target_percent") => ({
    value: form?.rightsizing[field] ?? "",
    onChange: (e: { target: { value: string } }) => form && setForm({ ...form, rightsizing: { ...form.rightsizing, [field]: Number(e.target.value) } }),
    disabled: !manager,
    type: "number",
    required: true,
  });
  return (
    <>
      <p>
        <strong>{me?.organization.name}</strong> <span className="muted">({me?.organization.slug})</span>
      </p>
      <QueryState query={settings}>
        {() => (
          <form className="card form" onSubmit={submit} aria-labelledby="rs-title">
            <h2 id="rs-title">Right-sizing</h2>
            <div className="row">
              <label>
                Look-back window (days, 1-93)
                <input min={1} max={93} {...rs("lookback_days")} />
              </label>
              <label>
                CPU target (%)
                <input min={1} max={100} {...rs("cpu_target_percent")} />
              </label>
              <label>
                Memory target (%)
                <input min={1} max={100} {...rs("memory_target_percent")} />
              </label>
              <label>
                Active window (minutes)
                <input
                  type="number"
                  min={1}
                  max={10080}
                  required
                  disabled={!manager}
                  value={form?.active_window_minutes ?? ""}
                  onChange={(e) => form && setForm({ ...form, active_window_minutes: Number(e.target.value) })}
                />
              </label>
            </div>
            <div className="row">
              <label>
                Savings basis
                <select
                  disabled={!manager}
                  value={form?.rightsizing.savings_basis ?? "effective"}
                  onChange={(e) => form && setForm({ ...form, rightsizing: { ...form.rightsizing, savings_basis: e.target.value as "effective" | "list" } })}
                >
                  <option value="effective">Effective prices (negotiated where registered)</option>
                  <option value="list">Catalog list prices</option>
                </select>
              </label>
              <label className="checkbox">
                <input
                  type="checkbox"
                  disabled={!manager}
                  checked={form?.rightsizing.allow_architecture_change ?? false}
                  onChange={(e) => form && setForm({ ...form, rightsizing: { ...form.rightsizing, allow_architecture_change: e.target.checked } })}
                />
                Allow moves to another CPU architecture (x86_64 and arm64)
              </label>
            </div>
            {manager ? (
              <button type="submit" className="primary" disabled={save.isPending}>
                Save settings
              </button>
            ) : (
              <p className="muted">Only owners and admins change settings.</p>
            )}
            {save.isSuccess && <p role="status">Saved.</p>}
            {save.error && <ErrorNote error={save.error} title="Could not save" />}
          </form>
        )}
      </QueryState>
    </>
  );
}
