import { unauthenticated } from "@cloudcost/http";
import type { Handlers } from "../operations";

/** `GET /v1/pricing/account`: which account and key a request authenticates as (to check a key). */
export function accountHandlers(): Handlers<"getAccount"> {
  return {
    getAccount: (_input, req) => {
      if (!req.auth) throw unauthenticated("Missing API key.");
      return { status: 200, body: { account_id: req.auth.accountId, key_id: req.auth.keyId } };
    },
  };
}
