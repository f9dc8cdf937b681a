import type { RequestHandler } from "express";
import { ServiceId } from "@cloudcost/contracts";
import { badRequest, forbidden } from "@cloudcost/http";
import { principalOf } from "../auth/middleware";
import { isManager, type Role } from "../auth/principal";
import { tenantHeaderValue } from "./tenant-header";

declare global {
  namespace Express {
    interface Request {
      /** The tenant selected by X-Service-Tenant-ID (set by `requireTenant`). */
      tenant?: { id: string; organizationId: string };
    }
  }
}

export interface RequireTenantOptions {
  /** The route changes data: viewers get a 403. */
  write?: boolean;
  /** Only these roles may call the route. */
  roles?: Role[];
}

/**
 * Selects the tenant of a tenant-scoped route from `X-Service-Tenant-ID` (behind `authenticate`).
 * 400 when the header is missing, empty or malformed; 403 when the tenant does not exist, is
 * archived, belongs to another organization or is out of the caller's reach, or the role is too low.
 */
export function requireTenant(options: RequireTenantOptions = {}): RequestHandler {
  return (req, _res, next) => {
    const value = tenantHeaderValue(req);
    if (!value) throw badRequest("Missing X-Service-Tenant-ID header: send the id of the tenant to act on.");
    if (!ServiceId.safeParse(value).success)
      throw badRequest("Malformed X-Service-Tenant-ID header: expected a tenant id (1-64 characters of A-Z a-z 0-9 _ -).");

    const principal = principalOf(req);
    if (options.roles && !options.roles.includes(principal.role)) {
      throw forbidden(`This operation needs the role ${options.roles.join(" or ")}; the caller is ${principal.role}.`);
    }
    if (options.write && principal.role === "viewer") throw forbidden("Viewers cannot change anything.");

    // Looked up by `authenticate` with the caller, in the same statement.
    if (req.tenantProbe?.id !== value) throw new Error("authenticate did not look up the tenant before requireTenant");
    const { open } = req.tenantProbe;
    const inReach = isManager(principal.role) || principal.tenantIds.includes(value);
    // Unknown, other organization's, archived and out-of-reach tenants answer alike: ids cannot be probed.
    if (!open || !inReach) throw forbidden(`Tenant ${value} is not available to the caller.`);
    req.tenant = { id: value, organizationId: principal.organizationId };
    next();
  };
}
