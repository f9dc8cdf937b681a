import type { RequestHandler } from "express";
import { idempotency } from "@cloudcost/http";
import { accountOf } from "./auth/middleware";
import type { AppDeps } from "./deps";

/** `Idempotency-Key` handling on the pricing API's POST operations, per account (mount after requireApiKey). */
export function idempotent(deps: Pick<AppDeps, "idempotencyStore" | "logger">): RequestHandler {
  return idempotency({
    store: deps.idempotencyStore,
    scopeOf: (req) => `acct:${accountOf(req)}`,
    onStoreError: (err, req) => deps.logger.error({ err, requestId: req.id }, "idempotency key not stored or released"),
  });
}
