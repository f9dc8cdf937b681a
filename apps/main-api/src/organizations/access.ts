import { forbidden } from "@cloudcost/http";
import { isManager, type Principal } from "../auth/principal";

/** Checks the caller belongs to `organizationId` (unknown organizations answer alike). */
export function assertMember(caller: Principal, organizationId: string): void {
  if (caller.organizationId !== organizationId) throw forbidden(`The caller is not a member of organization ${organizationId}.`);
}

/** As assertMember, and the caller must be an owner or admin. */
export function assertManager(caller: Principal, organizationId: string): void {
  assertMember(caller, organizationId);
  if (!isManager(caller.role)) throw forbidden(`Only owners and admins can do this; the caller is ${caller.role}.`);
}
