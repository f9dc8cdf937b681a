import { apiKeyFromHeaders, hashApiKey, isWellFormedApiKey } from "@cloudcost/credentials";
import { requestCredential, unauthenticated, type Authenticate } from "@cloudcost/http";
import type { ApiKeyIdentity, ApiKeyStore } from "./api-key-store";

declare module "http" {
  interface IncomingMessage {
    /** The account and key of an authenticated request. */
    auth?: ApiKeyIdentity;
  }
}

/** Requires a valid `bl_` key in `X-API-Key` or `Authorization: Bearer`; sets `req.auth`. */
export function requireApiKey(store: ApiKeyStore): Authenticate {
  const known = (identity: ApiKeyIdentity | null): ApiKeyIdentity => {
    if (!identity) throw unauthenticated("Unknown or revoked API key.");
    return identity;
  };
  return (req) => {
    const key = apiKeyFromHeaders(req.headers);
    if (!key) throw unauthenticated("Missing API key: send it in the X-API-Key header or as Authorization: Bearer bl_...");
    // The rate limiter hashed the same credential already (once per request).
    const credential = requestCredential(req);
    const hash = credential?.token === key ? credential.hash : hashApiKey(key);
    // A cached key is answered synchronously (no promise on the hot path). Only well-formed keys
    // are ever looked up, so the cache holds none that would fail the format check.
    const cached = store.cached(hash);
    if (cached !== undefined) {
      req.auth = known(cached);
      return;
    }
    // Format and checksum before a lookup: a mistyped or made-up key costs no database read.
    if (!isWellFormedApiKey(key)) throw unauthenticated("Malformed API key: expected bl_ followed by 42 letters and digits.");
    return store.lookup(hash).then((identity) => {
      req.auth = known(identity);
    });
  };
}
