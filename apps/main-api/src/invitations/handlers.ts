import type { mainApiInvitationRoutes } from "@cloudcost/contracts";
import type { AppDeps } from "../deps";
import { created, success } from "../http/envelope";
import type { Handlers } from "../operations";
import { acceptInvitation, declineInvitation, listReceivedInvitations } from "./invitee-service";
import { createInvitation, INVITATION_SENT, listInvitations, revokeInvitation } from "./service";

/**
 * Invitations: the organization's (`/api/v1/organizations/{org_id}/invitations`: owners and admins,
 * authorize checks the table's roles and the organization) and the caller's own (`/api/v1/invitations`:
 * an identity without an organization may call them; the table closes them to API keys).
 */
export function invitationHandlers(deps: Pick<AppDeps, "prisma" | "outbox">): Handlers<keyof typeof mainApiInvitationRoutes> {
  return {
    listInvitations: async ({ query }, ctx) => success("Invitations of the organization.", await listInvitations(deps.prisma, ctx, query)),
    createInvitation: async ({ body }, ctx) => created(INVITATION_SENT, await createInvitation(deps.prisma, ctx, body)),
    revokeInvitation: async ({ params }, ctx) => {
      await revokeInvitation(deps.prisma, ctx, params.id);
      return { status: 204 };
    },
    listReceivedInvitations: async ({ query }, { identity }) =>
      success("Pending invitations for your verified e-mail address.", await listReceivedInvitations(deps.prisma, identity, query)),
    acceptInvitation: async ({ params }, { identity }) => {
      const user = await acceptInvitation(deps.prisma, identity, params.id);
      deps.outbox.kick(); // a returning user's keys are re-synced to the pricing API
      return success("Invitation accepted: you are now a user of the organization.", user);
    },
    declineInvitation: async ({ params }, { identity }) => {
      await declineInvitation(deps.prisma, identity, params.id);
      return { status: 204 };
    },
  };
}
