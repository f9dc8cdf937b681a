import { createContext, type ReactNode, useContext, useEffect, useMemo, useState } from "react";
import type { Tenant } from "@cloudcost/contracts";

const KEY = "cloudcost.tenant";

interface TenantState {
  tenants: Tenant[];
  tenantId: string | undefined;
  setTenantId(id: string): void;
}

const TenantContext = createContext<TenantState>({ tenants: [], tenantId: undefined, setTenantId: () => {} });

/**
 * The tenant the tenant-scoped pages act on: the one picked in the header, else the first one in
 * reach. While the tenant list loads, the caller's own tenant ids stand in, so that the page's
 * first query does not wait for the list.
 */
export function TenantProvider({ tenants, provisional, children }: { tenants: Tenant[] | undefined; provisional: string[]; children: ReactNode }) {
  const active = useMemo(() => (tenants ?? []).filter((t) => !t.archived_at), [tenants]);
  const [picked, setPicked] = useState(() => localStorage.getItem(KEY) ?? undefined);
  const ids = tenants ? active.map((t) => t.id) : provisional;
  const tenantId = picked && ids.includes(picked) ? picked : ids[0];
  useEffect(() => {
    if (picked) localStorage.setItem(KEY, picked);
  }, [picked]);
  const value = useMemo(() => ({ tenants: active, tenantId, setTenantId: setPicked }), [active, tenantId]);
  return <TenantContext.Provider value={value}>{children}</TenantContext.Provider>;
}

export const useTenant = () => useContext(TenantContext);

/** The options of a tenant select: one per tenant, its id the value, its name the text. */
export function TenantOptions({ tenants }: { tenants: readonly { id: string; name: string }[] }) {
  return tenants.map((t) => (
    <option key={t.id} value={t.id}>
      {t.name}
    </option>
  ));
}
