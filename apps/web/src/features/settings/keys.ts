/** The settings pages' query keys, one root per organization-wide list a change there invalidates. */
export const settingsKeys = {
  all: ["settings"] as const,
  organization: (orgId: string | undefined) => [...settingsKeys.all, "organization", orgId] as const,
  apiKeys: () => [...settingsKeys.all, "api-keys"] as const,
  /** Users and invitations: an invitation, a role change or a deactivation refreshes both. */
  people: (orgId: string | undefined) => [...settingsKeys.all, "people", orgId] as const,
  users: (orgId: string | undefined) => [...settingsKeys.people(orgId), "users"] as const,
  invitations: (orgId: string | undefined) => [...settingsKeys.people(orgId), "invitations"] as const,
  webhooks: (orgId: string | undefined) => [...settingsKeys.all, "webhooks", orgId] as const,
  deliveries: (webhookId: string) => [...settingsKeys.all, "webhook-deliveries", webhookId] as const,
  allocationRules: (orgId: string | undefined) => [...settingsKeys.all, "allocation-rules", orgId] as const,
  spendImports: (orgId: string | undefined) => [...settingsKeys.all, "spend-imports", orgId] as const,
  importSessions: (orgId: string | undefined) => [...settingsKeys.all, "spend-import-sessions", orgId] as const,
  /** Dimensions and their versions: a saved version or a deletion refreshes both. */
  dimensions: (orgId: string | undefined) => [...settingsKeys.all, "dimensions", orgId] as const,
  dimensionVersions: (orgId: string | undefined, key: string) => [...settingsKeys.dimensions(orgId), "versions", key] as const,
  /** Business metrics and their values: a save, an upload or a deletion refreshes both. */
  businessMetrics: (orgId: string | undefined) => [...settingsKeys.all, "business-metrics", orgId] as const,
  metricValues: (orgId: string | undefined, name: string, start: string, end: string) =>
    [...settingsKeys.businessMetrics(orgId), "values", name, start, end] as const,
};
