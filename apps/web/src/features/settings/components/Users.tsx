import type { Role, User } from "@cloudcost/contracts";
import { type FormEvent, useState } from "react";
import { canManage, useMe } from "../../../app/app-context";
import { Empty, ErrorNote, QueryState } from "../../../shared/components/status";
import { formatDate } from "../../../shared/format";
import { useTenant } from "../../../app/tenant";
import { type InvitationForm, useInvite, usePeople } from "../hooks";
import { TenantChecks } from "./TenantChecks";
import { DataTable } from "../../../shared/components/DataTable";

const ROLES: Role[] = ["owner", "admin", "member", "viewer"];

export default function Users() {
  const me = useMe().data;
  const orgId = me?.organization.id;
  const manager = canManage(me);
  const { tenants } = useTenant();
  const { users, invitations, update, refresh } = usePeople(orgId, manager);
  const tenantName = (id: string) => tenants.find((t) => t.id === id)?.name ?? id;
  // Only owners make or change owners (the API says so too): an admin is not offered it.
  const assignable = ROLES.filter((r) => me?.role === "owner" || r !== "owner");
  return (
    <>
      {manager && <InviteForm orgId={orgId ?? ""} roles={assignable} onDone={refresh} />}
      <h2>Users</h2>
      <QueryState query={users}>
        {(page) => (
          <div className="table-wrap">
            <DataTable caption="Users of the organization" columns={["Name", "E-mail", "Role", "Tenants", "State"]}>
              {page.items.map((u) => (
                <tr key={u.id}>
                  <td>{u.name}</td>
                  <td>{u.email}</td>
                  <td>
                    {manager && u.id !== me?.user?.id && (me?.role === "owner" || u.role !== "owner") ? (
                      <select
                        aria-label={`Role of ${u.name}`}
                        value={u.role}
                        onChange={(e) => update.mutate({ id: u.id, body: { role: e.target.value as Role } })}
                      >
                        {assignable.map((r) => (
                          <option key={r}>{r}</option>
                        ))}
                      </select>
                    ) : (
                      u.role
                    )}
                  </td>
                  <td>
                    {u.role === "owner" || u.role === "admin" ? "all" : u.tenant_ids.map(tenantName).join(", ") || "none"}
                    {manager && u.role !== "owner" && u.role !== "admin" && (
                      <TenantEditor user={u} saving={update.isPending} onSave={(tenant_ids) => update.mutate({ id: u.id, body: { tenant_ids } })} />
                    )}
                  </td>
                  <td>
                    {u.active ? "active" : "deactivated"}{" "}
                    {manager && u.id !== me?.user?.id && (me?.role === "owner" || u.role !== "owner") && (
                      <button type="button" className={u.active ? "danger" : ""} onClick={() => update.mutate({ id: u.id, body: { active: !u.active } })}>
                        {u.active ? "Deactivate" : "Reactivate"}
                        <span className="sr-only"> {u.name}</span>
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </DataTable>
          </div>
        )}
      </QueryState>
      {update.error && <ErrorNote error={update.error} title="Could not change the user" />}
      {manager && (
        <>
          <h2>Invitations</h2>
          <QueryState query={invitations}>
            {(page) =>
              page.items.length === 0 ? (
                <Empty>No invitation sent yet.</Empty>
              ) : (
                <ul className="plain">
                  {page.items.map((inv) => (
                    <li key={inv.id}>
                      {inv.email} as {inv.role} · {inv.status} · expires {formatDate(inv.expires_at)}
                    </li>
                  ))}
                </ul>
              )
            }
          </QueryState>
        </>
      )}
    </>
  );
}

function InviteForm({ orgId, roles, onDone }: { orgId: string; roles: Role[]; onDone(): void }) {
  const [form, setForm] = useState<InvitationForm>({ email: "", role: "member", tenant_ids: [] });
  const invite = useInvite(orgId, () => {
    setForm({ email: "", role: "member", tenant_ids: [] });
    onDone();
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    invite.mutate(form);
  };
  return (
    <form className="card form" onSubmit={submit} aria-labelledby="invite-title">
      <h2 id="invite-title">Invite a user</h2>
      <div className="row">
        <label>
          E-mail address
          <input type="email" required value={form.email} onChange={(e) => setForm({ ...form, email: e.target.value })} />
        </label>
        <label>
          Role
          <select value={form.role} onChange={(e) => setForm({ ...form, role: e.target.value as Role })}>
            {roles.map((r) => (
              <option key={r}>{r}</option>
            ))}
          </select>
        </label>
      </div>
      {(form.role === "member" || form.role === "viewer") && (
        <TenantChecks legend="Tenants" picked={form.tenant_ids} onChange={(tenant_ids) => setForm({ ...form, tenant_ids })} />
      )}
      <button type="submit" className="primary" disabled={invite.isPending}>
        Send invitation
      </button>
      {invite.isSuccess && <p role="status">Invitation sent.</p>}
      {invite.error && <ErrorNote error={invite.error} title="Could not invite" />}
    </form>
  );
}

/** A member's or viewer's tenants, edited in place (owners and admins reach every tenant). */
function TenantEditor({ user, saving, onSave }: { user: User; saving: boolean; onSave(ids: string[]): void }) {
  const [picked, setPicked] = useState(user.tenant_ids);
  const [open, setOpen] = useState(false);
  return (
    <details open={open} onToggle={(e) => setOpen((e.target as HTMLDetailsElement).open)} className="tenant-editor">
      <summary>
        Edit tenants<span className="sr-only"> of {user.name}</span>
      </summary>
      <TenantChecks legend={`Tenants ${user.name} reaches`} legendClassName="sr-only" picked={picked} onChange={setPicked} />
      <button
        type="button"
        disabled={saving}
        onClick={() => {
          onSave(picked);
          setOpen(false);
        }}
      >
        Save tenants<span className="sr-only"> of {user.name}</span>
      </button>
    </details>
  );
}
