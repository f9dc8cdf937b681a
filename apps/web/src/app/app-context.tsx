import type { Me } from "@cloudcost/contracts";
import { useQuery } from "@tanstack/react-query";
import { createContext, type ReactNode, useCallback, useContext, useMemo, useState } from "react";
import { type CloudCostClient, consoleClient } from "../shared/api/client";
import { tokenStore } from "./session";
import type { RuntimeConfig } from "./config";
import { sessionKeys, tenantKeys } from "./keys";

interface AppState {
  config: RuntimeConfig;
  /** Both APIs (@cloudcost/client); the main API with the session's token. */
  client: CloudCostClient;
  token: string | undefined;
  signIn(token: string): void;
  signOut(): void;
}

const AppContext = createContext<AppState | null>(null);

export function AppProvider({ config, children }: { config: RuntimeConfig; children: ReactNode }) {
  const [token, setToken] = useState(tokenStore.get);
  const signOut = useCallback(() => {
    tokenStore.clear();
    setToken(undefined);
  }, []);
  const signIn = useCallback((next: string) => {
    tokenStore.set(next);
    setToken(next);
  }, []);
  const client = useMemo(() => consoleClient(config, tokenStore.get, signOut), [config, signOut]);
  const value = useMemo(() => ({ config, client, token, signIn, signOut }), [config, client, token, signIn, signOut]);
  return <AppContext.Provider value={value}>{children}</AppContext.Provider>;
}

export function useApp(): AppState {
  const state = useContext(AppContext);
  if (!state) throw new Error("useApp outside AppProvider");
  return state;
}

export function useMe() {
  const { client, token } = useApp();
  return useQuery({ queryKey: sessionKeys.me(token), queryFn: () => client.main.getMe(), enabled: !!token, retry: false, staleTime: 60_000 });
}

export function useTenants(orgId: string | undefined) {
  const { client } = useApp();
  return useQuery({
    queryKey: tenantKeys.list(orgId),
    queryFn: () => client.main.listTenants({ params: { org_id: orgId ?? "" }, query: { limit: 500 } }),
    enabled: !!orgId,
  });
}

export const canManage = (me: Me | undefined) => me?.role === "owner" || me?.role === "admin";
export const canWrite = (me: Me | undefined) => !!me && me.role !== "viewer";
