import type { CreateStatementRequest } from "@cloudcost/contracts";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useApp, useTenants } from "../../app/app-context";
import { saveBlob } from "../../shared/api/client";
import { useDimensions } from "../settings/dimension-hooks";
import { statementKeys } from "./keys";

/** The organization's statements, newest first (owners and admins only: `enabled` is false for others); create one. */
export function useStatements(orgId: string, enabled: boolean) {
  const { client } = useApp();
  const queryClient = useQueryClient();
  const list = useQuery({
    queryKey: statementKeys.list(orgId),
    queryFn: () => client.main.listStatements({ params: { org_id: orgId } }),
    enabled: enabled && !!orgId,
  });
  const create = useMutation({
    mutationFn: (body: CreateStatementRequest) => client.main.createStatement({ params: { org_id: orgId }, body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: statementKeys.list(orgId) }),
  });
  return { list, create };
}

/** One statement; finalize or delete it (a draft only). */
export function useStatement(orgId: string, id: string, enabled: boolean) {
  const { client } = useApp();
  const queryClient = useQueryClient();
  const statement = useQuery({
    queryKey: statementKeys.one(orgId, id),
    queryFn: () => client.main.getStatement({ params: { org_id: orgId, id } }),
    enabled: enabled && !!orgId && !!id,
  });
  const finalize = useMutation({
    mutationFn: () => client.main.finalizeStatement({ params: { org_id: orgId, id } }),
    onSuccess: (data) => {
      queryClient.setQueryData(statementKeys.one(orgId, id), data);
      return queryClient.invalidateQueries({ queryKey: statementKeys.list(orgId), exact: true });
    },
  });
  const remove = useMutation({
    mutationFn: () => client.main.deleteStatement({ params: { org_id: orgId, id } }),
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: statementKeys.one(orgId, id) });
      return queryClient.invalidateQueries({ queryKey: statementKeys.list(orgId), exact: true });
    },
  });
  return { statement, finalize, remove };
}

/** A recipient's statement: its sections and total. */
export function useRecipientStatement(orgId: string, id: string, value: string, enabled: boolean) {
  const { client } = useApp();
  return useQuery({
    queryKey: statementKeys.recipient(orgId, id, value),
    queryFn: () => client.main.getRecipientStatement({ params: { org_id: orgId, id, value } }),
    enabled: enabled && !!orgId && !!id && !!value,
  });
}

/** The recipient's statement as CSV or PDF, saved as a download with the session's auth (as the Spend page's FOCUS export); `error` is the last failure. */
export function useRecipientDownload(orgId: string, id: string, value: string) {
  const { client } = useApp();
  const [error, setError] = useState<unknown>();
  const download = async (kind: "csv" | "pdf", number: string) => {
    setError(undefined);
    const params = { org_id: orgId, id, value };
    try {
      const blob =
        kind === "csv"
          ? await client.main.getRecipientStatementCsv({ params, as: "blob" })
          : await client.main.getRecipientStatementPdf({ params, as: "blob" });
      saveBlob(blob, `statement-${number}-${value.replace(/[^A-Za-z0-9._-]+/g, "_")}.${kind}`);
    } catch (failure) {
      setError(failure);
    }
  };
  return { download, error };
}

/**
 * How the statement pages name things: a dimension by its name (its key when it has none), and a
 * statement's recipient by its tenant's name when the statement is by tenant (else the value itself).
 */
export function useStatementNames(orgId: string, manager: boolean) {
  const dimensions = useDimensions(orgId).list.data?.items ?? [];
  const tenants = useTenants(manager ? orgId : undefined).data?.items ?? [];
  return {
    dimensionName: (key: string) => dimensions.find((d) => d.key === key)?.name,
    recipientName: (by: string, value: string) => (by === "tenant" ? (tenants.find((t) => t.id === value)?.name ?? value) : value),
  };
}
