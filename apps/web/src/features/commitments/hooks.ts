import type { CoverageGroup } from "@cloudcost/contracts";
import { useQuery } from "@tanstack/react-query";
import { useApp } from "../../app/app-context";
import { commitmentKeys } from "./keys";

/** Utilization of each commitment (owners and admins). */
export function useCommitmentList(orgId: string, range: { start: string; end: string }, enabled: boolean) {
  const { client } = useApp();
  return useQuery({
    queryKey: commitmentKeys.list(orgId, range),
    queryFn: () => client.main.listCommitments({ params: { org_id: orgId }, query: range }),
    enabled: enabled && !!orgId,
  });
}

/** Coverage by group (every role: members and viewers get their tenants' usage). */
export function useCoverage(orgId: string, range: { start: string; end: string }, groupBy: CoverageGroup) {
  const { client } = useApp();
  return useQuery({
    queryKey: commitmentKeys.coverage(orgId, range, groupBy),
    queryFn: () => client.main.getCommitmentCoverage({ params: { org_id: orgId }, query: { ...range, group_by: groupBy } }),
    enabled: !!orgId,
  });
}

/** One purchase recommendation per commitment rate, with its savings curve (owners and admins). */
export function usePurchaseRecommendations(orgId: string, lookbackDays: number, enabled: boolean) {
  const { client } = useApp();
  return useQuery({
    queryKey: commitmentKeys.purchases(orgId, lookbackDays),
    queryFn: () =>
      client.main.getCommitmentRecommendations({ params: { org_id: orgId }, query: { lookback_days: String(lookbackDays), include_curve: "true" } }),
    enabled: enabled && !!orgId,
  });
}
