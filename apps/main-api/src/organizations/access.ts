import type { Request } from "express";
import { forbidden } from "@cloudcost/http";
import { principalOf } from "../auth/middleware";
import { isManager, type Principal } from "../auth/principal";

/** The caller, after checking it belongs to `organizationId` (unknown organizations answer alike). */
export function memberOf(req: Request, organizationId: string): Principal {
  const principal = principalOf(req);
  if (principal.organizationId !== organizationId) throw forbidden(`The caller is not a member of organization ${organizationId}.`);
  return principal;
}

/** As memberOf, and the caller must be an owner or admin. */
export function managerOf(req: Request, organizationId: string): Principal {
  const principal = memberOf(req, organizationId);
  if (!isManager(principal.role)) throw forbidden(`Only owners and admins can do this; the caller is ${principal.role}.`);
  return principal;
}
