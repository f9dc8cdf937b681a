/** The budgets feature's query keys (budgets and anomalies of one tenant). */
export const budgetKeys = {
  list: (tenantId: string | undefined) => ["budgets", tenantId] as const,
  anomalies: (tenantId: string | undefined) => ["anomalies", tenantId] as const,
};
