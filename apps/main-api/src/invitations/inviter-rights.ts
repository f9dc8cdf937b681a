import type { Role } from "@cloudcost/contracts";

const INVITABLE: Record<Role, Role[]> = {
  owner: ["owner", "admin", "member", "viewer"],
  admin: ["admin", "member", "viewer"],
  member: [],
  viewer: [],
};

/** The roles a user of `role` may invite: owners any, admins all but owner, members and viewers none. */
export const mayInvite = (inviter: Role, invited: Role): boolean => INVITABLE[inviter].includes(invited);

/**
 * The roles whose pending invitations a user of `role` may keep: none when `role` is null
 * (deactivated, left). What the user's change revokes, in its transaction, with the repository's
 * revokeSentBeyond: an invitation never outlives its inviter's right to send it.
 */
export const invitableBy = (role: Role | null): Role[] => (role ? INVITABLE[role] : []);
