import type { pricingAccountRoutes } from "@cloudcost/contracts";
import type { Handlers } from "../operations";

/** `GET /v1/pricing/account`: which account and key a request authenticates as (to check a key). */
export function accountHandlers(): Handlers<keyof typeof pricingAccountRoutes> {
  return {
    getAccount: (_input, { account }) => ({ status: 200, body: { account_id: account.accountId, key_id: account.keyId } }),
  };
}
