import type { LeaveResponse } from "@cloudcost/contracts";
import { TRANSACTION_OPTIONS } from "@cloudcost/db";
import { conflict } from "@cloudcost/http";
import type { Principal } from "../auth/principal";
import type { Prisma } from "../db";
import { syncCreatorKeys } from "../api-keys/sync";
import { revokeInvitationsBeyond } from "../invitations/inviter-rights";
import { countActiveOwners, findUserOrThrow, lockOrganization, unlinkIdentities, updateUserRow } from "../users/repository";

/**
 * The caller leaves its organization: its user is deactivated, its identity unlinked and its pending
 * invitations revoked in one transaction, so the identity may sign up or accept an invitation
 * elsewhere. The last active owner cannot leave (the organization row is locked, as for demotions,
 * so two owners cannot both pass).
 * Kick the outbox after it: the caller's keys are re-synced to the pricing API as suspended.
 */
export async function leaveOrganization(prisma: Prisma, caller: Principal): Promise<LeaveResponse> {
  const { organizationId, userId } = caller;
  // The table closes this operation to API keys (authorize): a person's user leaves.
  if (!userId) throw new Error("leaveOrganization called for an API key");
  await prisma.$transaction(async (tx) => {
    await lockOrganization(tx, organizationId);
    const user = await findUserOrThrow(tx, organizationId, userId);
    if (user.role === "owner" && user.active) {
      const activeOwners = await countActiveOwners(tx, organizationId);
      if (activeOwners <= 1) throw conflict("You are the last active owner of this organization: make another user owner first.");
    }
    await updateUserRow(tx, organizationId, userId, { active: false });
    await unlinkIdentities(tx, organizationId, userId);
    // The keys the caller created are suspended with it, on the pricing API too.
    await syncCreatorKeys(tx, organizationId, userId);
    await revokeInvitationsBeyond(tx, organizationId, userId, null);
  }, TRANSACTION_OPTIONS);
  return { organization_id: organizationId, user_id: userId };
}
