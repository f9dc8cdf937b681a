import type { SpendReport } from "@cloudcost/contracts";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useApp, useMe } from "../../app/app-context";
import { saveBlob } from "../../shared/api/client";
import { queryOf } from "../../shared/url-query";
import { spendKeys } from "./keys";
import { exportQuery, type SpendScope } from "./spend";

/** One spend report: the organization view or the tenant view of the tenant picked in the header. */
export function useSpend(scope: SpendScope, tenantId: string | undefined, query: URLSearchParams, enabled = true) {
  const { client } = useApp();
  const orgId = useMe().data?.organization.id;
  const text = query.toString();
  return useQuery({
    queryKey: spendKeys.report(scope, scope === "tenant" ? tenantId : orgId, text),
    queryFn: () =>
      scope === "tenant"
        ? client.main.getTenantSpend({ tenant: tenantId ?? "", query: queryOf(new URLSearchParams(text)) })
        : client.main.getOrganizationSpend({ params: { org_id: orgId ?? "" }, query: queryOf(new URLSearchParams(text)) }),
    enabled: enabled && (scope === "tenant" ? !!tenantId : !!orgId),
  });
}

/** The API's forecast of the tenant's current month (the console computes none of its own). */
export function useForecast(tenantId: string | undefined, currency = "USD", enabled = true) {
  const { client } = useApp();
  return useQuery({
    queryKey: spendKeys.forecast(tenantId, currency),
    queryFn: () => client.main.getSpendForecast({ tenant: tenantId ?? "", query: { period: "monthly", currency } }),
    enabled: enabled && !!tenantId,
  });
}

/**
 * The FOCUS CSV of the view's range (organization or tenant), saved as a download; `error` is the
 * last failure, `unpriced` how many unpriced usage lines the range held at the last download
 * (left out of the file unless `includeUnpriced`: FOCUS forbids null costs).
 */
export function useSpendExport(search: URLSearchParams, now: Date, orgView: boolean, tenantId: string | undefined) {
  const { client } = useApp();
  const orgId = useMe().data?.organization.id ?? "";
  const [error, setError] = useState<unknown>();
  const [unpriced, setUnpriced] = useState<{ lines: number; included: boolean }>();
  /** `dimensions`: an x_Dimension_<key> column each; `splitBy`: one of them whose split rules write a split line once per piece. */
  const download = async (includeUnpriced: boolean, dimensions: string[] = [], splitBy?: string) => {
    setError(undefined);
    setUnpriced(undefined);
    const query = exportQuery(search, now, orgView);
    if (includeUnpriced) query.set("include_unpriced", "true");
    if (splitBy) {
      query.set("dimensions", splitBy);
      query.set("allocation", "split");
    } else if (dimensions.length) query.set("dimensions", dimensions.join(","));
    try {
      const reply = orgView
        ? await client.main.exportOrganizationSpend.reply({ params: { org_id: orgId }, query: queryOf(query), as: "blob" })
        : await client.main.exportTenantSpend.reply({ tenant: tenantId ?? "", query: queryOf(query), as: "blob" });
      saveBlob(reply.body as Blob, `focus-${query.get("start")}-${query.get("end") ?? now.toISOString().slice(0, 10)}.csv`);
      setUnpriced({ lines: Number(reply.headers.get("x-unpriced-lines") ?? 0), included: includeUnpriced });
    } catch (failure) {
      setError(failure);
    }
  };
  return { download, error, unpriced };
}

/** Prices the tenant's unpriced usage lines of the report's range again. */
export function useReprice(tenantId: string | undefined, report: SpendReport) {
  const { client } = useApp();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => client.main.repriceUsage({ tenant: tenantId ?? "", body: { start: report.start, end: report.end } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: spendKeys.all }),
  });
}
