/** The Kubernetes feature's query keys (namespace allocation and node-pool recommendations of a tenant). */
export const kubernetesKeys = {
  all: ["kubernetes"] as const,
  allocation: (tenantId: string | undefined, range: { start: string; end: string }, shareIdle: boolean) =>
    [...kubernetesKeys.all, "allocation", tenantId, range.start, range.end, shareIdle] as const,
  nodePools: (tenantId: string | undefined) => [...kubernetesKeys.all, "node-pools", tenantId] as const,
};
