import type { Request, RequestHandler } from "express";
import { forbidden, unauthenticated } from "@cloudcost/http";
import type { AppDeps } from "../app";
import { authenticateApiKey } from "./api-key-auth";
import { resolveIdentity, type Principal, type Role, type TenantProbe } from "./principal";
import { namedTenantId } from "../tenancy/tenant-header";
import { verifyIdentityToken, type VerifiedIdentity } from "./token-verifier";

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
    }
  }
}

export interface AuthenticateOptions {
  /**
   * Let a valid identity token through without an organization (sign-up). Without it, a caller
   * with no active user in any organization gets a 403.
   */
  allowIdentityOnly?: boolean;
}

type AuthDeps = Pick<AppDeps, "config" | "prisma" | "db" | "logger">;

/**
 * `Authorization: Bearer <JWT | bl_ key>` → `req.principal` (and `req.identity` for JWTs).
 * Missing, malformed, expired or unknown credentials: 401.
 */
export function authenticate(deps: AuthDeps, options: AuthenticateOptions = {}): RequestHandler {
  return async (req, _res, next) => {
    const header = req.headers.authorization;
    if (!header) throw unauthenticated("Missing Authorization header: send 'Authorization: Bearer <token or bl_ API key>'.");
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match) throw unauthenticated("The Authorization header must be 'Bearer <token or bl_ API key>'.");
    const credential = match[1];
    const tenantId = namedTenantId(req) ?? null;

    if (credential.startsWith("bl_")) {
      ({ principal: req.principal, tenant: req.tenantProbe } = await authenticateApiKey(deps.prisma, deps.db.sql, deps.logger, credential, tenantId));
      return next();
    }

    const identity = await verifyIdentityToken(deps.config.auth, credential);
    req.identity = identity;
    const resolved = await resolveIdentity(deps.db.sql, identity, tenantId);
    if (resolved.principal) {
      req.principal = resolved.principal;
      req.tenantProbe = resolved.tenant;
    } else if (!options.allowIdentityOnly) {
      throw forbidden(
        resolved.reason === "deactivated"
          ? "Your user has been deactivated in its organization."
          : "This identity does not belong to any organization yet: complete sign-up (POST /api/v1/signup/complete) or accept an invitation (GET /api/v1/invitations).",
      );
    }
    next();
  };
}

/** The caller of a route behind `authenticate`. */
export function principalOf(req: Request): Principal {
  if (!req.principal) throw unauthenticated("Authentication is required.");
  return req.principal;
}

/** 403 unless the caller has one of `roles`. */
export function requireRole(...roles: Role[]): RequestHandler {
  return (req, _res, next) => {
    const { role } = principalOf(req);
    if (!roles.includes(role)) throw forbidden(`This operation needs the role ${roles.join(" or ")}; the caller is ${role}.`);
    next();
  };
}
