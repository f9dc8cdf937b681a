/** The realized savings' query keys. */
export const savingsKeys = {
  realized: (tenantId: string | undefined, range: { start: string; end: string }) => ["savings", tenantId, range.start, range.end] as const,
};
