import type { RequestHandler } from "express";
import { idempotency, sqlIdempotencyStore } from "@cloudcost/http";
import type { AppDeps } from "./app";
import { accountOf } from "./auth/middleware";

/** `Idempotency-Key` handling on the pricing API's POST operations, per account (mount after requireApiKey). */
export function idempotent(deps: Pick<AppDeps, "db" | "logger">): RequestHandler {
  return idempotency({
    store: sqlIdempotencyStore(deps.db.sql),
    scopeOf: (req) => `acct:${accountOf(req)}`,
    onStoreError: (err, req) => deps.logger.error({ err, requestId: req.id }, "idempotency key not stored or released"),
  });
}
