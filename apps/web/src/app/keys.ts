/** The query keys of what every page shares: the caller (`/me`) and the organization's tenants. */
export const sessionKeys = {
  me: (token: string | undefined) => ["me", token] as const,
};

export const tenantKeys = {
  all: ["tenants"] as const,
  list: (orgId: string | undefined) => [...tenantKeys.all, orgId] as const,
};
