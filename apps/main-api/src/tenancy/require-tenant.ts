import type { RequestHandler } from "express";
import { ServiceId } from "@cloudcost/contracts";
import { badRequest, forbidden } from "@cloudcost/http";
import type { AppDeps } from "../app";
import { principalOf } from "../auth/middleware";
import { isManager, type Role } from "../auth/principal";

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

const HEADER = "x-service-tenant-id";

/**
 * Selects the tenant of a tenant-scoped route from `X-Service-Tenant-ID` (behind `authenticate`).
 * 400 when the header is missing, empty or malformed; 403 when the tenant does not exist, is
 * archived, belongs to another organization or is out of the caller's reach, or the role is too low.
 */
export function requireTenant(deps: Pick<AppDeps, "prisma">, options: RequireTenantOptions = {}): RequestHandler {
  return async (req, _res, next) => {
    const raw = req.headers[HEADER];
    const value = (Array.isArray(raw) ? raw[0] : raw)?.trim();
    if (!value) throw badRequest("Missing X-Service-Tenant-ID header: send the id of the tenant to act on.");
    if (!ServiceId.safeParse(value).success) throw badRequest("Malformed X-Service-Tenant-ID header: expected a tenant id (1-64 characters of A-Z a-z 0-9 _ -).");

    const principal = principalOf(req);
    if (options.roles && !options.roles.includes(principal.role)) {
      throw forbidden(`This operation needs the role ${options.roles.join(" or ")}; the caller is ${principal.role}.`);
    }
    if (options.write && principal.role === "viewer") throw forbidden("Viewers cannot change anything.");

    const tenant = await deps.prisma.tenant.findUnique({
      where: { organizationId_id: { organizationId: principal.organizationId, id: value } },
      select: { id: true, organizationId: true, archivedAt: true },
    });
    const inReach = isManager(principal.role) || principal.tenantIds.includes(value);
    // Unknown, other organization's, archived and out-of-reach tenants answer alike: ids cannot be probed.
    if (!tenant || tenant.archivedAt || !inReach) throw forbidden(`Tenant ${value} is not available to the caller.`);
    req.tenant = { id: tenant.id, organizationId: tenant.organizationId };
    next();
  };
}
