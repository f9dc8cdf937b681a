import type { Me, Tenant } from "@cloudcost/contracts";
import { useQuery } from "@tanstack/react-query";
import { createContext, type ReactNode, useCallback, useContext, useMemo, useState } from "react";
import { MainApi } from "./api/client";
import { tokenStore } from "./auth/session";
import type { RuntimeConfig } from "./config";

interface AppState {
  config: RuntimeConfig;
  api: MainApi;
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
  const api = useMemo(() => new MainApi(config.mainApiBase, tokenStore.get, signOut), [config.mainApiBase, signOut]);
  const value = useMemo(() => ({ config, api, token, signIn, signOut }), [config, api, token, signIn, signOut]);
  return <AppContext.Provider value={value}>{children}</AppContext.Provider>;
}

export function useApp(): AppState {
  const state = useContext(AppContext);
  if (!state) throw new Error("useApp outside AppProvider");
  return state;
}

export function useMe() {
  const { api, token } = useApp();
  return useQuery({ queryKey: ["me", token], queryFn: () => api.call<Me>("/v1/me"), enabled: !!token, retry: false, staleTime: 60_000 });
}

export function useTenants(orgId: string | undefined) {
  const { api } = useApp();
  return useQuery({
    queryKey: ["tenants", orgId],
    queryFn: () => api.call<{ items: Tenant[]; next_cursor: string | null }>(`/v1/organizations/${orgId}/tenants`, { query: { limit: "500" } }),
    enabled: !!orgId,
  });
}

export const canManage = (me: Me | undefined) => me?.role === "owner" || me?.role === "admin";
export const canWrite = (me: Me | undefined) => !!me && me.role !== "viewer";
