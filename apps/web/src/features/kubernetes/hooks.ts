import { useQuery } from "@tanstack/react-query";
import { useApp } from "../../app/app-context";
import { kubernetesKeys } from "./keys";

/** The tenant's allocation by namespace over `range`, with a breakdown per day. */
export function useNamespaceAllocation(tenantId: string | undefined, range: { start: string; end: string }, shareIdle: boolean) {
  const { client } = useApp();
  return useQuery({
    queryKey: kubernetesKeys.allocation(tenantId, range, shareIdle),
    queryFn: () =>
      client.main.getAllocation({
        tenant: tenantId ?? "",
        query: { start: range.start, end: range.end, aggregate: "namespace", share_idle: shareIdle ? "true" : "false", step: "day" },
      }),
    enabled: !!tenantId,
  });
}

/** Node-pool right-sizing of the tenant's clusters. */
export function useNodePoolRecommendations(tenantId: string | undefined) {
  const { client } = useApp();
  return useQuery({
    queryKey: kubernetesKeys.nodePools(tenantId),
    queryFn: () => client.main.listNodePoolRecommendations({ tenant: tenantId ?? "" }),
    enabled: !!tenantId,
  });
}
