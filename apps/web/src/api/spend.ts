import { useQuery } from "@tanstack/react-query";
import { useApp, useMe } from "../app/app-context";
import { queryOf } from "../shared/url-query";

export type SpendScope = "organization" | "tenant";

/** One spend report: the organization view or the tenant view of the tenant picked in the header. */
export function useSpend(scope: SpendScope, tenantId: string | undefined, query: URLSearchParams, enabled = true) {
  const { client } = useApp();
  const orgId = useMe().data?.organization.id;
  const text = query.toString();
  return useQuery({
    queryKey: ["spend", scope, scope === "tenant" ? tenantId : orgId, text],
    queryFn: () =>
      scope === "tenant"
        ? client.main.getTenantSpend({ tenant: tenantId ?? "", query: queryOf(new URLSearchParams(text)) })
        : client.main.getOrganizationSpend({ params: { org_id: orgId ?? "" }, query: queryOf(new URLSearchParams(text)) }),
    enabled: enabled && (scope === "tenant" ? !!tenantId : !!orgId),
  });
}

export function useBudgets(tenantId: string | undefined, enabled = true) {
  const { client } = useApp();
  return useQuery({
    queryKey: ["budgets", tenantId],
    queryFn: () => client.main.listBudgets({ tenant: tenantId ?? "" }),
    enabled: enabled && !!tenantId,
  });
}

/** The API's forecast of the tenant's current month (the console computes none of its own). */
export function useForecast(tenantId: string | undefined, currency = "USD", enabled = true) {
  const { client } = useApp();
  return useQuery({
    queryKey: ["spend", "forecast", tenantId, currency],
    queryFn: () => client.main.getSpendForecast({ tenant: tenantId ?? "", query: { period: "monthly", currency } }),
    enabled: enabled && !!tenantId,
  });
}
