import type { Budget, SpendReport } from "@cloudcost/contracts";
import { useQuery } from "@tanstack/react-query";
import { useApp, useMe } from "../app-context";

export type SpendScope = "organization" | "tenant";

/** One spend report: the organization view or the tenant view of the tenant picked in the header. */
export function useSpend(scope: SpendScope, tenantId: string | undefined, query: URLSearchParams, enabled = true) {
  const { api } = useApp();
  const orgId = useMe().data?.organization.id;
  const text = query.toString();
  return useQuery({
    queryKey: ["spend", scope, scope === "tenant" ? tenantId : orgId, text],
    queryFn: () =>
      scope === "tenant"
        ? api.call<SpendReport>("/v1/tenant/spend", { tenant: tenantId, query: new URLSearchParams(text) })
        : api.call<SpendReport>(`/v1/organizations/${orgId}/spend`, { query: new URLSearchParams(text) }),
    enabled: enabled && (scope === "tenant" ? !!tenantId : !!orgId),
  });
}

export function useBudgets(tenantId: string | undefined, enabled = true) {
  const { api } = useApp();
  return useQuery({
    queryKey: ["budgets", tenantId],
    queryFn: () => api.call<{ items: Budget[] }>("/v1/tenant/budgets", { tenant: tenantId }),
    enabled: enabled && !!tenantId,
  });
}
