import type { Role } from "@cloudcost/contracts";
import type { Tx } from "../transactions";
import { revokeSentBeyond } from "./repository";

const INVITABLE: Record<Role, Role[]> = {
  owner: ["owner", "admin", "member", "viewer"],
  admin: ["admin", "member", "viewer"],
  member: [],
  viewer: [],
};

/** The roles a user of `role` may invite: owners any, admins all but owner, members and viewers none. */
export const mayInvite = (inviter: Role, invited: Role): boolean => INVITABLE[inviter].includes(invited);

/**
 * Revokes the pending invitations `userId` sent that it could not send now: all of them when
 * `role` is null (deactivated, left), else those of a role `role` may not invite. Call it in the
 * transaction that changes the user, so an invitation never outlives its inviter's right to send it.
 */
export async function revokeInvitationsBeyond(tx: Tx, organizationId: string, userId: string, role: Role | null): Promise<number> {
  return revokeSentBeyond(tx, organizationId, userId, role ? INVITABLE[role] : [], new Date());
}
