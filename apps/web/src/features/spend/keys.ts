import type { SpendScope } from "./spend";

/** The spend feature's query keys: everything under `spendKeys.all`, which a reprice or a rule change invalidates. */
export const spendKeys = {
  all: ["spend"] as const,
  /** One report: `owner` is the tenant id (tenant view) or the organization id; `query` the URL query's text. */
  report: (scope: SpendScope, owner: string | undefined, query: string) => [...spendKeys.all, scope, owner, query] as const,
  forecast: (tenantId: string | undefined, currency: string) => [...spendKeys.all, "forecast", tenantId, currency] as const,
};
