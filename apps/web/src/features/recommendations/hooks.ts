import { useQuery } from "@tanstack/react-query";
import { useApp } from "../../app/app-context";
import { queryOf } from "../../shared/url-query";
import { recommendationKeys } from "./keys";

/** The tenant's right-sizing summary (savings by action) for the URL's filters. */
export function useSummary(tenantId: string | undefined, query: URLSearchParams) {
  const { client } = useApp();
  return useQuery({
    queryKey: recommendationKeys.summary(tenantId, query.toString()),
    queryFn: () => client.main.getRecommendationSummary({ tenant: tenantId ?? "", query: queryOf(query) }),
    enabled: !!tenantId,
  });
}

/** One page of the tenant's right-sizing recommendations for the URL's filters (the last page stays while the next loads). */
export function useRecommendations(tenantId: string | undefined, query: URLSearchParams) {
  const { client } = useApp();
  return useQuery({
    queryKey: recommendationKeys.list(tenantId, query.toString()),
    queryFn: () => client.main.listRecommendations({ tenant: tenantId ?? "", query: queryOf(query) }),
    enabled: !!tenantId,
    placeholderData: (previous) => previous,
  });
}
