import { forbidden } from "@cloudcost/http";
import type { Principal } from "../auth/principal";

/**
 * Checks the caller belongs to `organizationId` (unknown organizations answer alike). Services
 * take the organization as an argument apart from the caller, so they check the two agree; the
 * role an operation needs is the route table's, checked before the handler (auth/authorize.ts).
 */
export function assertMember(caller: Principal, organizationId: string): void {
  if (caller.organizationId !== organizationId) throw forbidden(`The caller is not a member of organization ${organizationId}.`);
}
