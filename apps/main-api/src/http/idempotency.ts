import { idempotency, unauthenticated, type IdempotencyOptions } from "@cloudcost/http";
import type { AppDeps } from "../deps";

type ScopeOf = IdempotencyOptions["scopeOf"];

/**
 * Keys belong to the caller: the organization and the user or API key within it. An identity
 * without an active user has none: the route refuses it after validation, and nothing is stored.
 */
const principalScope: ScopeOf = (req) => {
  const p = req.caller?.principal;
  if (p) return `org:${p.organizationId}|${p.userId ? `usr:${p.userId}` : `key:${p.apiKeyId}`}`;
  if (req.caller?.refusal) return undefined;
  throw unauthenticated("Authentication is required.");
};

/** Sign-up keys belong to the identity: after the first completion it resolves to a user, and a repeat must still replay. */
const identityScope: ScopeOf = (req) => {
  const identity = req.caller?.identity;
  return identity ? `idn:${identity.issuer}|${identity.subject}` : principalScope(req);
};

/**
 * `Idempotency-Key` handling on the main API's POST operations (mount after `authenticate`). The
 * tenant header is part of the request: the same key and body for another tenant is a different request.
 * Routes whose response holds a secret declare `secretResponse`: their replay is a 409, never the secret.
 * Routes with a raw body (`rawBody`) have it fingerprinted by their handler; their query says what
 * the body is (a file's name, a session's part), so it is part of the request (`withQuery`).
 */
export function idempotent(
  deps: Pick<AppDeps, "idempotencyStore" | "logger">,
  scope: "principal" | "identity" = "principal",
  options: Pick<IdempotencyOptions, "secretResponse" | "rawBody"> & { withQuery?: boolean } = {},
): ReturnType<typeof idempotency> {
  const { withQuery, ...rest } = options;
  return idempotency({
    store: deps.idempotencyStore,
    scopeOf: scope === "identity" ? identityScope : principalScope,
    fingerprintExtra: withQuery
      ? (req) => `${req.get("X-Service-Tenant-ID") ?? ""}?${req.originalUrl.split("?")[1] ?? ""}`
      : (req) => req.get("X-Service-Tenant-ID") ?? "",
    onStoreError: (err, req) => deps.logger.error({ err, requestId: req.id }, "idempotency key not stored or released"),
    ...rest,
  });
}
