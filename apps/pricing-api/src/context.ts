import type { RouteDefinition } from "@cloudcost/contracts";
import type { ApiKeyIdentity } from "./auth/api-key-store";

/** An account-scoped operation: the calling key's account, whose role authorize checked against the table. */
export interface AccountContext {
  account: ApiKeyIdentity;
}

/** The context the pricing API's authorize builds for an operation, from its declared scope. */
export type ContextOf<R extends RouteDefinition> = R["scope"] extends "account" ? AccountContext : unknown;
