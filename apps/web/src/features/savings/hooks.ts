import { useQuery } from "@tanstack/react-query";
import { useApp } from "../../app/app-context";
import { savingsKeys } from "./keys";

/** The tenant's resizes and retirements after a recommendation, with their realized savings, in [start, end). */
export function useRealizedSavings(tenantId: string | undefined, range: { start: string; end: string }) {
  const { client } = useApp();
  return useQuery({
    queryKey: savingsKeys.realized(tenantId, range),
    queryFn: () => client.main.getRealizedSavings({ tenant: tenantId ?? "", query: range }),
    enabled: !!tenantId,
  });
}
