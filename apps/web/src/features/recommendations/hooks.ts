import type { RecommendationState } from "@cloudcost/contracts";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
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

/** Runs the tenant's right-sizing analysis now; the summary and the list are fetched again after. */
export function useAnalyze(tenantId: string) {
  const { client } = useApp();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => client.main.analyzeRecommendations({ tenant: tenantId }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: recommendationKeys.all }),
  });
}

/** Records the team's decision on one resource's recommendation (a reason, and a date for a snooze). */
export function useDecision(tenantId: string, resourceId: string) {
  const { client } = useApp();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ state, reason, snoozedUntil }: { state: RecommendationState; reason: string; snoozedUntil: string }) =>
      client.main.updateRecommendationState({
        tenant: tenantId,
        params: { resource_id: resourceId },
        body: {
          state,
          ...(reason.trim() ? { reason: reason.trim() } : {}),
          ...(state === "snoozed" ? { snoozed_until: snoozedUntil } : {}),
        },
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: recommendationKeys.all }),
  });
}
