import type { MetricValuesMode, PutBusinessMetricRequest } from "@cloudcost/contracts";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useApp } from "../../app/app-context";
import { spendKeys } from "../spend/keys";
import { settingsKeys } from "./keys";

/** The organization's business metrics (every role reads them); owners and admins save, upload values to and delete one. */
export function useBusinessMetrics(orgId: string) {
  const { client } = useApp();
  const queryClient = useQueryClient();
  // Unit costs on the Spend page divide by these amounts: a change refreshes them too.
  const refresh = () =>
    Promise.all([queryClient.invalidateQueries({ queryKey: settingsKeys.businessMetrics(orgId) }), queryClient.invalidateQueries({ queryKey: spendKeys.all })]);
  const list = useQuery({
    queryKey: settingsKeys.businessMetrics(orgId),
    queryFn: () => client.main.listBusinessMetrics({ params: { org_id: orgId } }),
    enabled: !!orgId,
  });
  const save = useMutation({
    mutationFn: ({ name, body }: { name: string; body: PutBusinessMetricRequest }) => client.main.putBusinessMetric({ params: { org_id: orgId, name }, body }),
    onSuccess: refresh,
  });
  /** A CSV text (`date,amount,label`) stored in `mode`. */
  const upload = useMutation({
    mutationFn: ({ name, csv, mode }: { name: string; csv: string; mode: MetricValuesMode }) =>
      client.main.postBusinessMetricValues({ params: { org_id: orgId, name }, query: { mode }, body: csv, contentType: "text/csv" }),
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: (name: string) => client.main.deleteBusinessMetric({ params: { org_id: orgId, name } }),
    onSuccess: refresh,
  });
  return { list, save, upload, remove };
}

/** A metric's stored amounts from `start` (inclusive) to `end` (exclusive). */
export function useMetricValues(orgId: string, name: string | undefined, start: string, end: string) {
  const { client } = useApp();
  return useQuery({
    queryKey: settingsKeys.metricValues(orgId, name ?? "", start, end),
    queryFn: () => client.main.listBusinessMetricValues({ params: { org_id: orgId, name: name ?? "" }, query: { start, end } }),
    enabled: !!orgId && !!name && !!start && !!end,
  });
}
