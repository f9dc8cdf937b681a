import { createContext, type ReactNode, useContext, useEffect, useMemo, useState } from "react";
import type { Tenant } from "@cloudcost/contracts";

const KEY = "cloudcost.tenant";

interface TenantState {
  tenants: Tenant[];
  tenantId: string | undefined;
  setTenantId(id: string): void;
}

const TenantContext = createContext<TenantState>({ tenants: [], tenantId: undefined, setTenantId: () => {} });

/** The tenant the tenant-scoped pages act on: the one picked in the header, else the first one in reach. */
export function TenantProvider({ tenants, children }: { tenants: Tenant[]; children: ReactNode }) {
  const active = useMemo(() => tenants.filter((t) => !t.archived_at), [tenants]);
  const [picked, setPicked] = useState(() => localStorage.getItem(KEY) ?? undefined);
  const tenantId = active.some((t) => t.id === picked) ? picked : active[0]?.id;
  useEffect(() => {
    if (picked) localStorage.setItem(KEY, picked);
  }, [picked]);
  const value = useMemo(() => ({ tenants: active, tenantId, setTenantId: setPicked }), [active, tenantId]);
  return <TenantContext.Provider value={value}>{children}</TenantContext.Provider>;
}

export const useTenant = () => useContext(TenantContext);
