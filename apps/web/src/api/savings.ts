import { useQuery } from "@tanstack/react-query";
import { useApp } from "../app/app-context";

/** The tenant's resizes and retirements after a recommendation, with their realized savings, in [start, end). */
export function useRealizedSavings(tenantId: string | undefined, range: { start: string; end: string }) {
  const { client } = useApp();
  return useQuery({
    queryKey: ["savings", tenantId, range.start, range.end],
    queryFn: () => client.main.getRealizedSavings({ tenant: tenantId ?? "", query: range }),
    enabled: !!tenantId,
  });
}
