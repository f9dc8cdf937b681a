import { useQuery } from "@tanstack/react-query";
import { useApp } from "../app/app-context";
import { queryOf } from "../shared/url-query";

export function useSummary(tenantId: string | undefined, query: URLSearchParams) {
  const { client } = useApp();
  return useQuery({
    queryKey: ["summary", tenantId, query.toString()],
    queryFn: () => client.main.getRecommendationSummary({ tenant: tenantId ?? "", query: queryOf(query) }),
    enabled: !!tenantId,
  });
}

export function useRecommendations(tenantId: string | undefined, query: URLSearchParams) {
  const { client } = useApp();
  return useQuery({
    queryKey: ["recommendations", tenantId, query.toString()],
    queryFn: () => client.main.listRecommendations({ tenant: tenantId ?? "", query: queryOf(query) }),
    enabled: !!tenantId,
    placeholderData: (previous) => previous,
  });
}
