import { useQuery } from "@tanstack/react-query";
import { useApp } from "../../app/app-context";

/** The tenant's allocation by namespace over `range`, with a breakdown per day. */
export function useNamespaceAllocation(tenantId: string | undefined, range: { start: string; end: string }, shareIdle: boolean) {
  const { client } = useApp();
  return useQuery({
    queryKey: ["kubernetes", "allocation", tenantId, range.start, range.end, shareIdle],
    queryFn: () =>
      client.main.getAllocation({
        tenant: tenantId ?? "",
        query: { start: range.start, end: range.end, aggregate: "namespace", share_idle: shareIdle ? "true" : "false", step: "day" },
      }),
    enabled: !!tenantId,
  });
}

export function useNodePoolRecommendations(tenantId: string | undefined) {
  const { client } = useApp();
  return useQuery({
    queryKey: ["kubernetes", "node-pools", tenantId],
    queryFn: () => client.main.listNodePoolRecommendations({ tenant: tenantId ?? "" }),
    enabled: !!tenantId,
  });
}
