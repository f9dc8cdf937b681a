import type { DimensionPreviewQuery, PutDimensionRequest } from "@cloudcost/contracts";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useApp } from "../../app/app-context";
import { settingsKeys } from "./keys";

/** The organization's dimensions (every role reads them); owners and admins save a version, preview a draft, delete one. */
export function useDimensions(orgId: string) {
  const { client } = useApp();
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: settingsKeys.dimensions(orgId) });
  const list = useQuery({
    queryKey: settingsKeys.dimensions(orgId),
    queryFn: () => client.main.listDimensions({ params: { org_id: orgId } }),
    enabled: !!orgId,
  });
  const save = useMutation({
    mutationFn: ({ key, body }: { key: string; body: PutDimensionRequest }) => client.main.putDimension({ params: { org_id: orgId, key }, body }),
    onSuccess: refresh,
  });
  const preview = useMutation({
    mutationFn: ({ key, body, query }: { key: string; body: PutDimensionRequest; query: Pick<DimensionPreviewQuery, "start" | "end"> }) =>
      client.main.previewDimension({ params: { org_id: orgId, key }, query, body }),
  });
  const remove = useMutation({ mutationFn: (key: string) => client.main.deleteDimension({ params: { org_id: orgId, key } }), onSuccess: refresh });
  return { list, save, preview, remove };
}

/** Every version of one dimension, newest first (fetched when shown). */
export function useDimensionVersions(orgId: string, key: string) {
  const { client } = useApp();
  return useQuery({
    queryKey: settingsKeys.dimensionVersions(orgId, key),
    queryFn: () => client.main.listDimensionVersions({ params: { org_id: orgId, key } }),
  });
}
