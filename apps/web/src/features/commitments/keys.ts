/** The commitments feature's query keys (the organization's commitments, coverage and purchase recommendations). */
export const commitmentKeys = {
  all: ["commitments"] as const,
  list: (orgId: string, range: { start: string; end: string }) => [...commitmentKeys.all, "list", orgId, range] as const,
  coverage: (orgId: string, range: { start: string; end: string }, groupBy: string) => [...commitmentKeys.all, "coverage", orgId, range, groupBy] as const,
  purchases: (orgId: string, lookbackDays: number) => [...commitmentKeys.all, "purchases", orgId, lookbackDays] as const,
};
