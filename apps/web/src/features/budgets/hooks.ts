import type { Budget } from "@cloudcost/contracts";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useApp } from "../../app/app-context";
import type { budgetBody } from "./budget";
import { budgetKeys } from "./keys";

type BudgetBody = Extract<ReturnType<typeof budgetBody>, { body: unknown }>["body"];

/** The tenant's budgets with their burn. */
export function useBudgets(tenantId: string | undefined, enabled = true) {
  const { client } = useApp();
  return useQuery({
    queryKey: budgetKeys.list(tenantId),
    queryFn: () => client.main.listBudgets({ tenant: tenantId ?? "" }),
    enabled: enabled && !!tenantId,
  });
}

/** Deletes a budget of the tenant. */
export function useDeleteBudget(tenantId: string) {
  const { client } = useApp();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => client.main.deleteBudget({ params: { id }, tenant: tenantId }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: budgetKeys.list(tenantId) }),
  });
}

/** Creates a budget, or changes `budget`; `onSaved` runs once the list is fresh. */
export function useSaveBudget(tenantId: string, budget: Budget | undefined, onSaved: () => void) {
  const { client } = useApp();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: BudgetBody) =>
      budget ? client.main.updateBudget({ params: { id: budget.id }, tenant: tenantId, body }) : client.main.createBudget({ tenant: tenantId, body }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: budgetKeys.list(tenantId) });
      onSaved();
    },
  });
}

/** The tenant's anomalies, feedback on one, and a detection run now. */
export function useAnomalies(tenantId: string) {
  const { client } = useApp();
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: budgetKeys.anomalies(tenantId) });
  const anomalies = useQuery({ queryKey: budgetKeys.anomalies(tenantId), queryFn: () => client.main.listAnomalies({ tenant: tenantId }) });
  const feedback = useMutation({
    mutationFn: ({ id, value }: { id: string; value: "yes" | "no" | "planned_activity" }) =>
      client.main.updateAnomaly({ params: { id }, tenant: tenantId, body: { feedback: value } }),
    onSuccess: refresh,
  });
  const detect = useMutation({ mutationFn: () => client.main.detectAnomalies({ tenant: tenantId, body: {} }), onSuccess: refresh });
  return { anomalies, feedback, detect };
}
