import type { CoverageGroup } from "@cloudcost/contracts";
import { useQuery } from "@tanstack/react-query";
import { useApp } from "../../app/app-context";

const DAY_MS = 86_400_000;

/** The last `days` complete UTC days and today so far: bills arrive a day or two late, so today is mostly empty. */
export function lastDays(days: number, now: Date): { start: string; end: string } {
  const tomorrow = Math.floor(now.getTime() / DAY_MS) * DAY_MS + DAY_MS;
  return { start: new Date(tomorrow - (days + 1) * DAY_MS).toISOString().slice(0, 10), end: new Date(tomorrow).toISOString().slice(0, 10) };
}

/** Utilization of each commitment (owners and admins). */
export function useCommitmentList(orgId: string, range: { start: string; end: string }, enabled: boolean) {
  const { client } = useApp();
  return useQuery({
    queryKey: ["commitments", orgId, range],
    queryFn: () => client.main.listCommitments({ params: { org_id: orgId }, query: range }),
    enabled: enabled && !!orgId,
  });
}

/** Coverage by group (every role: members and viewers get their tenants' usage). */
export function useCoverage(orgId: string, range: { start: string; end: string }, groupBy: CoverageGroup) {
  const { client } = useApp();
  return useQuery({
    queryKey: ["commitment-coverage", orgId, range, groupBy],
    queryFn: () => client.main.getCommitmentCoverage({ params: { org_id: orgId }, query: { ...range, group_by: groupBy } }),
    enabled: !!orgId,
  });
}

/** One purchase recommendation per commitment rate, with its savings curve (owners and admins). */
export function useRecommendations(orgId: string, lookbackDays: number, enabled: boolean) {
  const { client } = useApp();
  return useQuery({
    queryKey: ["commitment-recommendations", orgId, lookbackDays],
    queryFn: () =>
      client.main.getCommitmentRecommendations({ params: { org_id: orgId }, query: { lookback_days: String(lookbackDays), include_curve: "true" } }),
    enabled: enabled && !!orgId,
  });
}
