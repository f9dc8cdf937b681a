import type { Request, RequestHandler } from "express";
import { idempotency, unauthenticated } from "@cloudcost/http";
import type { AppDeps } from "../deps";

/**
 * Keys belong to the caller: the organization and the user or API key within it. An identity
 * without a user keys by the identity (its request is refused later, after validation).
 */
const principalScope = (req: Request): string => {
  const p = req.principal;
  if (p) return `org:${p.organizationId}|${p.userId ? `usr:${p.userId}` : `key:${p.apiKeyId}`}`;
  if (req.identity) return identityOnlyScope(req.identity);
  throw unauthenticated("Authentication is required.");
};

const identityOnlyScope = (identity: NonNullable<Request["identity"]>) => `idn:${identity.issuer}|${identity.subject}`;

/** Sign-up keys belong to the identity: after the first completion it resolves to a user, and a repeat must still replay. */
const identityScope = (req: Request) => (req.identity ? identityOnlyScope(req.identity) : principalScope(req));

/**
 * `Idempotency-Key` handling on the main API's POST operations (mount after `authenticate`). The
 * tenant header is part of the request: the same key and body for another tenant is a different request.
 */
export function idempotent(deps: Pick<AppDeps, "idempotencyStore" | "logger">, scope: "principal" | "identity" = "principal"): RequestHandler {
  return idempotency({
    store: deps.idempotencyStore,
    scopeOf: scope === "identity" ? identityScope : principalScope,
    fingerprintExtra: (req) => req.get("X-Service-Tenant-ID") ?? "",
    onStoreError: (err, req) => deps.logger.error({ err, requestId: req.id }, "idempotency key not stored or released"),
  });
}
