import type { PricingKeyRole, RouteDefinition } from "@cloudcost/contracts";
import { forbidden, unauthenticated } from "@cloudcost/http";
import type { AccountContext } from "../context";
import type { ApiKeyIdentity } from "./api-key-store";

const RANK: Record<PricingKeyRole, number> = { viewer: 0, member: 1, admin: 2 };

/**
 * The pricing API's one authorization of a declared operation, after authentication and
 * validation: 403 (in the path's error shape) unless the key has at least the table's `minKeyRole`
 * (viewer keys read and price usage, member keys also register prices, pins and reports, admin keys
 * also delete). It returns the handler's context: the key's account for an account-scoped operation.
 */
export function authorize(route: RouteDefinition, key: ApiKeyIdentity | undefined): AccountContext | Record<string, never> {
  if (route.auth !== "api_key") return {};
  if (!key) throw unauthenticated("Missing API key.");
  const needed = route.minKeyRole;
  if (needed && !(RANK[key.role] >= RANK[needed])) throw forbidden(`This operation needs a ${needed} key or higher; this key's role is ${key.role}.`);
  return { account: key };
}
