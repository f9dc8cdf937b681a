import { unauthenticated, type Authenticate } from "@cloudcost/http";
import type { AuthDeps } from "../deps";
import { authenticateApiKey } from "./api-key-auth";
import { resolveIdentity, type IdentityResolution, type Principal, type TenantProbe } from "./principal";
import { namedTenantId } from "../tenancy/tenant-header";
import type { VerifiedIdentity } from "./token-verifier";

/** What a request's credential established: read by authorize and idempotency, never by handlers. */
export interface Authenticated {
  /** The caller within its organization; null for a verified identity without an active user. */
  principal: Principal | null;
  /** The verified identity-provider token, when the caller used one (not an API key). */
  identity: VerifiedIdentity | null;
  /** The named tenant as found with the caller (read by authorize). */
  tenant?: TenantProbe;
  /** Why a verified identity acts as no principal (answered by authorize, after validation). */
  refusal?: Extract<IdentityResolution, { principal: null }>["reason"];
}

declare module "http" {
  interface IncomingMessage {
    /** What the request's credential established (set by the authenticate step; read by authorize and idempotency). */
    caller?: Authenticated;
  }
}

/**
 * `Authorization: Bearer <JWT | bl_ key>` → the caller. Missing, malformed, expired or unknown
 * credentials: 401. A verified identity without an active user is let through with its `refusal`:
 * its 403 comes from authorize, after validation (a malformed request is a 400 whoever sends it).
 * `tenantId` is the well-formed tenant the request names, looked up in the same statement.
 */
export async function authenticate(deps: AuthDeps, authorization: string | undefined, tenantId: string | null): Promise<Authenticated> {
  if (!authorization) throw unauthenticated("Missing Authorization header: send 'Authorization: Bearer <token or bl_ API key>'.");
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  if (!match) throw unauthenticated("The Authorization header must be 'Bearer <token or bl_ API key>'.");
  const credential = match[1];

  if (credential.startsWith("bl_")) {
    const { principal, tenant } = await authenticateApiKey(deps.db.sql, deps.keyUse, credential, tenantId);
    return { principal, identity: null, tenant };
  }

  const identity = await deps.tokens.verify(credential);
  const resolved = await resolveIdentity(deps.db.sql, identity, tenantId);
  if (resolved.principal) return { principal: resolved.principal, identity, tenant: resolved.tenant };
  return { principal: null, identity, refusal: resolved.reason };
}

/**
 * The binder's authentication of "bearer" and "identity" operations: records the caller on the
 * request. It refuses no verified identity: the two modes differ in what authorize then asks for
 * (a principal, or the identity itself).
 */
export function bearerAuthentication(deps: AuthDeps): Authenticate {
  return async (req) => {
    req.caller = await authenticate(deps, req.headers.authorization, namedTenantId(req.headers) ?? null);
  };
}
