import { Navigate, NavLink, Outlet, useLocation } from "react-router";
import { canManage, useMe } from "../../../app/app-context";

export default function Settings() {
  const me = useMe().data;
  const manager = canManage(me);
  const { pathname } = useLocation();
  if (pathname.replace(/\/$/, "") === "/settings") return <Navigate to={manager ? "/settings/api-keys" : "/settings/users"} replace />;
  return (
    <>
      <h1>Settings</h1>
      <nav aria-label="Settings" className="subnav nav-links">
        {manager && <NavLink to="/settings/api-keys">API keys</NavLink>}
        <NavLink to="/settings/users">Users</NavLink>
        <NavLink to="/settings/tenants">Tenants</NavLink>
        {manager && <NavLink to="/settings/webhooks">Webhooks</NavLink>}
        {manager && <NavLink to="/settings/allocation">Allocation</NavLink>}
        <NavLink to="/settings/dimensions">Dimensions</NavLink>
        <NavLink to="/settings/business-metrics">Business metrics</NavLink>
        <NavLink to="/settings/organization">Organization</NavLink>
      </nav>
      <Outlet />
    </>
  );
}
