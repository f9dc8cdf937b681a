import type { RequestHandler } from "express";
import { apiKeyFromHeaders, isWellFormedApiKey } from "@cloudcost/credentials";
import { unauthenticated } from "@cloudcost/http";
import type { ApiKeyIdentity, ApiKeyStore } from "./api-key-store";

declare module "http" {
  interface IncomingMessage {
    /** The account and key of an authenticated request. */
    auth?: ApiKeyIdentity;
  }
}

/** Requires a valid `bl_` key in `X-API-Key` or `Authorization: Bearer`; sets `req.auth`. */
export function requireApiKey(store: ApiKeyStore): RequestHandler {
  return async (req, _res, next) => {
    const key = apiKeyFromHeaders(req.headers);
    if (!key) return next(unauthenticated("Missing API key: send it in the X-API-Key header or as Authorization: Bearer bl_..."));
    // Format and checksum first: a mistyped or made-up key costs no database read.
    if (!isWellFormedApiKey(key)) return next(unauthenticated("Malformed API key: expected bl_ followed by 42 letters and digits."));
    const identity = await store.verify(key);
    if (!identity) return next(unauthenticated("Unknown or revoked API key."));
    req.auth = identity;
    next();
  };
}

/** The authenticated account id (for handlers behind requireApiKey). */
export function accountOf(req: { auth?: ApiKeyIdentity }): string {
  if (!req.auth) throw unauthenticated("Missing API key.");
  return req.auth.accountId;
}
