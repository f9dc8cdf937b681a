/** The statements feature's query keys: a creation, a finalization or a deletion invalidates `statementKeys.list`'s root. */
export const statementKeys = {
  all: ["statements"] as const,
  list: (orgId: string | undefined) => [...statementKeys.all, orgId] as const,
  one: (orgId: string | undefined, id: string) => [...statementKeys.list(orgId), "statement", id] as const,
  recipient: (orgId: string | undefined, id: string, value: string) => [...statementKeys.one(orgId, id), "recipient", value] as const,
};
