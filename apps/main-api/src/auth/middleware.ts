import type { Request, RequestHandler } from "express";
import { forbidden, unauthenticated } from "@cloudcost/http";
import type { AuthDeps } from "../deps";
import { authenticateApiKey } from "./api-key-auth";
import { resolveIdentity, type IdentityResolution, type Principal, type Role, type TenantProbe } from "./principal";
import { namedTenantId } from "../tenancy/tenant-header";
import type { VerifiedIdentity } from "./token-verifier";

export type { Principal, Role };

declare global {
  namespace Express {
    interface Request {
      /** The authenticated caller within its organization (set by `authenticate`). */
      principal?: Principal;
      /** The verified identity-provider token, when the caller used one (not an API key). */
      identity?: VerifiedIdentity;
      /** The named tenant as found with the caller (read by `requireTenant`). */
      tenantProbe?: TenantProbe;
      /** Why a verified identity acts as no principal (answered by `principalOf`, after validation). */
      principalRefusal?: PrincipalRefusal;
    }
  }
}

type PrincipalRefusal = Extract<IdentityResolution, { principal: null }>["reason"];

/**
 * `Authorization: Bearer <JWT | bl_ key>` → `req.principal` (and `req.identity` for JWTs).
 * Missing, malformed, expired or unknown credentials: 401. A verified identity without an active
 * user is let through with `req.principalRefusal`: its 403 comes from `principalOf`, which routes
 * call after validating the request (a malformed request is a 400 whoever sends it).
 */
export function authenticate(deps: AuthDeps): RequestHandler {
  return async (req, _res, next) => {
    const header = req.headers.authorization;
    if (!header) throw unauthenticated("Missing Authorization header: send 'Authorization: Bearer <token or bl_ API key>'.");
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match) throw unauthenticated("The Authorization header must be 'Bearer <token or bl_ API key>'.");
    const credential = match[1];
    const tenantId = namedTenantId(req) ?? null;

    if (credential.startsWith("bl_")) {
      ({ principal: req.principal, tenant: req.tenantProbe } = await authenticateApiKey(deps.db.sql, deps.keyUse, credential, tenantId));
      return next();
    }

    const identity = await deps.tokens.verify(credential);
    req.identity = identity;
    const resolved = await resolveIdentity(deps.db.sql, identity, tenantId);
    if (resolved.principal) {
      req.principal = resolved.principal;
      req.tenantProbe = resolved.tenant;
    } else {
      req.principalRefusal = resolved.reason;
    }
    next();
  };
}

/** The caller of a route behind `authenticate`: 403 for an identity without an active user. */
export function principalOf(req: Request): Principal {
  if (req.principal) return req.principal;
  if (req.principalRefusal === "deactivated") throw forbidden("Your user has been deactivated in its organization.");
  if (req.principalRefusal === "no_organization") {
    throw forbidden(
      "This identity does not belong to any organization yet: complete sign-up (POST /api/v1/signup/complete) or accept an invitation (GET /api/v1/invitations).",
    );
  }
  throw unauthenticated("Authentication is required.");
}

/** 403 unless the caller has one of `roles`. */
export function requireRole(...roles: Role[]): RequestHandler {
  return (req, _res, next) => {
    const { role } = principalOf(req);
    if (!roles.includes(role)) throw forbidden(`This operation needs the role ${roles.join(" or ")}; the caller is ${role}.`);
    next();
  };
}
