/** The right-sizing recommendations' query keys: an analysis or a decision invalidates `recommendationKeys.all`. */
export const recommendationKeys = {
  all: ["recommendations"] as const,
  summary: (tenantId: string | undefined, query: string) => [...recommendationKeys.all, "summary", tenantId, query] as const,
  list: (tenantId: string | undefined, query: string) => [...recommendationKeys.all, "list", tenantId, query] as const,
};
