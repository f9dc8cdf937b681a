import type { RequestHandler } from "express";
import type { Logger } from "pino";
import { idempotency, type IdempotencyStore } from "@cloudcost/http";
import { accountOf } from "./auth/middleware";

/** `Idempotency-Key` handling on the pricing API's POST operations, per account (after requireApiKey). */
export function idempotent(store: IdempotencyStore, logger: Logger): RequestHandler {
  return idempotency({
    store,
    scopeOf: (req) => `acct:${accountOf(req)}`,
    onStoreError: (err, req) => logger.error({ err, requestId: req.id }, "idempotency key not stored or released"),
  });
}
