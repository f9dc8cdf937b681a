import type { Request, RequestHandler } from "express";
import { idempotency, sqlIdempotencyStore, unauthenticated, type IdempotencyOptions, type IdempotencyStore } from "@cloudcost/http";
import type { AppDeps } from "../app";

const stores = new WeakMap<AppDeps["db"], IdempotencyStore>();

/** Keys belong to the caller: the organization and the user or API key within it. */
const principalScope = (req: Request) => {
  const p = req.principal;
  if (!p) throw unauthenticated("Authentication is required.");
  return `org:${p.organizationId}|${p.userId ? `usr:${p.userId}` : `key:${p.apiKeyId}`}`;
};

/** Sign-up keys belong to the identity: after the first completion it resolves to a user, and a repeat must still replay. */
const identityScope = (req: Request) => (req.identity ? `idn:${req.identity.issuer}|${req.identity.subject}` : principalScope(req));

/**
 * `Idempotency-Key` handling on the main API's POST operations (mount after `authenticate`). The
 * tenant header is part of the request: the same key and body for another tenant is a different request.
 * Routes whose response holds a secret declare `secretResponse`: their replay is a 409, never the secret.
 */
export function idempotent(
  deps: Pick<AppDeps, "db" | "logger">,
  scope: "principal" | "identity" = "principal",
  options: Pick<IdempotencyOptions, "secretResponse"> = {},
): RequestHandler {
  let store = stores.get(deps.db);
  if (!store) stores.set(deps.db, (store = sqlIdempotencyStore(deps.db.sql)));
  return idempotency({
    store,
    scopeOf: scope === "identity" ? identityScope : principalScope,
    fingerprintExtra: (req) => req.get("X-Service-Tenant-ID") ?? "",
    onStoreError: (err, req) => deps.logger.error({ err, requestId: req.id }, "idempotency key not stored or released"),
    ...options,
  });
}
