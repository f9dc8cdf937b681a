import { Suspense } from "react";
import { Navigate, NavLink, Outlet } from "react-router";
import { canManage, useApp, useMe, useTenants } from "./app-context";
import { tokenEmail } from "./session";
import { ErrorNote, Loading } from "../shared/components/status";
import { TenantOptions, TenantProvider, useTenant } from "./tenant";

/** Signed-in pages: a session with an organization, the header and the page. */
export function Shell() {
  const { token } = useApp();
  const me = useMe();
  const tenants = useTenants(me.data?.organization.id);
  if (!token) return <Navigate to="/sign-in" replace />;
  if (me.error) {
    // An identity without an organization (or a deactivated user) is answered 403: it lands on the sign-up form.
    if ((me.error as { status?: number }).status === 403) return <Navigate to="/welcome" replace />;
    return (
      <main className="page">
        <ErrorNote error={me.error} title="Could not load your account" />
      </main>
    );
  }
  if (!me.data || (tenants.isPending && me.data.tenant_ids.length === 0)) return <Loading label="Loading your organization…" />;
  return (
    <TenantProvider tenants={tenants.data?.items} provisional={me.data.tenant_ids}>
      <a className="skip" href="#main">
        Skip to content
      </a>
      <Header />
      <main id="main" className="page" tabIndex={-1}>
        <Suspense fallback={<Loading />}>
          <Outlet />
        </Suspense>
      </main>
    </TenantProvider>
  );
}

function Header() {
  const { token, signOut } = useApp();
  const me = useMe().data;
  const { tenants, tenantId, setTenantId } = useTenant();
  return (
    <header className="header">
      <div className="brand">
        <span aria-hidden="true">◆</span> {me?.organization.name}
      </div>
      <nav aria-label="Main" className="nav-links">
        <NavLink to="/" end>
          Overview
        </NavLink>
        <NavLink to="/spend">Spend</NavLink>
        <NavLink to="/budgets">Budgets</NavLink>
        <NavLink to="/commitments">Commitments</NavLink>
        <NavLink to="/recommendations">Recommendations</NavLink>
        <NavLink to="/savings">Savings</NavLink>
        <NavLink to="/kubernetes">Kubernetes</NavLink>
        <NavLink to="/prices">Prices</NavLink>
        {canManage(me) && <NavLink to="/statements">Statements</NavLink>}
        <NavLink to="/settings">Settings</NavLink>
      </nav>
      <div className="header-tools">
        <label className="tenant-switch">
          <span>Tenant</span>
          <select value={tenantId ?? ""} onChange={(e) => setTenantId(e.target.value)} disabled={tenants.length === 0}>
            {tenants.length === 0 && <option value="">No tenant in reach</option>}
            <TenantOptions tenants={tenants} />
          </select>
        </label>
        <span className="who" title={me?.role}>
          {me?.user?.email ?? tokenEmail(token)} · {me?.role}
        </span>
        <button type="button" className="link" onClick={signOut}>
          Sign out
        </button>
      </div>
    </header>
  );
}
