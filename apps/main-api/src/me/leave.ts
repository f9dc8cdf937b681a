import type { LeaveResponse } from "@cloudcost/contracts";
import { TRANSACTION_OPTIONS } from "@cloudcost/db";
import { conflict } from "@cloudcost/http";
import type { syncCreatorKeys } from "../api-keys/sync";
import type { Principal } from "../auth/principal";
import type { Prisma } from "../db";
import { invitableBy } from "../invitations/inviter-rights";
import type { InvitationRepository } from "../invitations/repository";
import type { UserRepository } from "../users/repository";

export interface LeaveServiceDeps {
  /** Opens the transaction; every query goes through the repositories below. */
  prisma: Prisma;
  users: Pick<UserRepository, "lockOrganization" | "findUserOrThrow" | "countActiveOwners" | "updateUserRow" | "unlinkIdentities">;
  keys: { syncCreatorKeys: typeof syncCreatorKeys };
  invitations: Pick<InvitationRepository, "revokeSentBeyond">;
}

export type LeaveService = ReturnType<typeof createLeaveService>;

/** `POST /api/v1/me/leave`. */
export function createLeaveService({ prisma, users, keys, invitations }: LeaveServiceDeps) {
  /**
   * The caller leaves its organization: its user is deactivated, its identity unlinked and its pending
   * invitations revoked in one transaction, so the identity may sign up or accept an invitation
   * elsewhere. The last active owner cannot leave (the organization row is locked, as for demotions,
   * so two owners cannot both pass).
   * Kick the outbox after it: the caller's keys are re-synced to the pricing API as suspended.
   */
  async function leaveOrganization(caller: Principal): Promise<LeaveResponse> {
    const { organizationId, userId } = caller;
    // The table closes this operation to API keys (authorize): a person's user leaves.
    if (!userId) throw new Error("leaveOrganization called for an API key");
    await prisma.$transaction(async (tx) => {
      await users.lockOrganization(tx, organizationId);
      const user = await users.findUserOrThrow(tx, organizationId, userId);
      if (user.role === "owner" && user.active) {
        const activeOwners = await users.countActiveOwners(tx, organizationId);
        if (activeOwners <= 1) throw conflict("You are the last active owner of this organization: make another user owner first.");
      }
      await users.updateUserRow(tx, organizationId, userId, { active: false });
      await users.unlinkIdentities(tx, organizationId, userId);
      // The keys the caller created are suspended with it, on the pricing API too.
      await keys.syncCreatorKeys(tx, organizationId, userId);
      await invitations.revokeSentBeyond(tx, organizationId, userId, invitableBy(null), new Date());
    }, TRANSACTION_OPTIONS);
    return { organization_id: organizationId, user_id: userId };
  }

  return { leaveOrganization };
}
