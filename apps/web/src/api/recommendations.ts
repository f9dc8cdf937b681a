import type { RecommendationSummary } from "@cloudcost/contracts";
import { useQuery } from "@tanstack/react-query";
import { useApp } from "../app-context";
import type { Recommendation } from "../lib/recommendation";

export function useSummary(tenantId: string | undefined, query: URLSearchParams) {
  const { api } = useApp();
  return useQuery({
    queryKey: ["summary", tenantId, query.toString()],
    queryFn: () => api.call<RecommendationSummary>("/v1/tenant/compute/recommendations/summary", { tenant: tenantId, query }),
    enabled: !!tenantId,
  });
}

export function useRecommendations(tenantId: string | undefined, query: URLSearchParams) {
  const { api } = useApp();
  return useQuery({
    queryKey: ["recommendations", tenantId, query.toString()],
    queryFn: () => api.call<{ items: Recommendation[]; next_cursor: string | null }>("/v1/tenant/compute/recommendations", { tenant: tenantId, query }),
    enabled: !!tenantId,
    placeholderData: (previous) => previous,
  });
}
