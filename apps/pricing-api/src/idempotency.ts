import { idempotency, unauthenticated } from "@cloudcost/http";
import type { AppDeps } from "./deps";

/** `Idempotency-Key` handling on the pricing API's POST operations, per account (runs after requireApiKey authenticated the key). */
export function idempotent(deps: Pick<AppDeps, "idempotencyStore" | "logger">): ReturnType<typeof idempotency> {
  return idempotency({
    store: deps.idempotencyStore,
    scopeOf: (req) => {
      if (!req.auth) throw unauthenticated("Missing API key.");
      return `acct:${req.auth.accountId}`;
    },
    onStoreError: (err, req) => deps.logger.error({ err, requestId: req.id }, "idempotency key not stored or released"),
  });
}
