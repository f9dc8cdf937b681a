import { forbidden } from "@cloudcost/http";
import type { VerifiedIdentity } from "../auth/token-verifier";
import type { IdentityContext } from "../context";
import type { AppDeps } from "../deps";
import { created, success } from "../http/envelope";
import type { Handlers } from "../operations";
import { acceptInvitation, declineInvitation, listReceivedInvitations } from "./invitee-service";
import { createInvitation, INVITATION_SENT, listInvitations, revokeInvitation } from "./service";

/** `/api/v1/organizations/{org_id}/invitations`: owners and admins manage invitations (authorize checks the table's roles). */
export function invitationHandlers(deps: Pick<AppDeps, "prisma">): Handlers<"listInvitations" | "createInvitation" | "revokeInvitation"> {
  return {
    listInvitations: async ({ params, query }, { principal }) =>
      success("Invitations of the organization.", await listInvitations(deps.prisma, principal, params.org_id, query)),
    createInvitation: async ({ params, body }, { principal }) => created(INVITATION_SENT, await createInvitation(deps.prisma, principal, params.org_id, body)),
    revokeInvitation: async ({ params }, { principal }) => {
      await revokeInvitation(deps.prisma, principal, params.org_id, params.id);
      return { status: 204 };
    },
  };
}

/** The identity-provider identity of the caller: invitations are answered by people, not keys. */
function identityOf({ identity }: IdentityContext): VerifiedIdentity {
  if (!identity) throw forbidden("API keys cannot list or answer invitations: use the invitee's identity-provider token.");
  return identity;
}

/** `/api/v1/invitations`: the caller's own invitations (an identity without an organization may call them). */
export function receivedInvitationHandlers(
  deps: Pick<AppDeps, "prisma" | "outbox">,
): Handlers<"listReceivedInvitations" | "acceptInvitation" | "declineInvitation"> {
  return {
    listReceivedInvitations: async ({ query }, ctx) =>
      success("Pending invitations for your verified e-mail address.", await listReceivedInvitations(deps.prisma, identityOf(ctx), query)),
    acceptInvitation: async ({ params }, ctx) => {
      const user = await acceptInvitation(deps.prisma, identityOf(ctx), params.id);
      deps.outbox.kick(); // a returning user's keys are re-synced to the pricing API
      return success("Invitation accepted: you are now a user of the organization.", user);
    },
    declineInvitation: async ({ params }, ctx) => {
      await declineInvitation(deps.prisma, identityOf(ctx), params.id);
      return { status: 204 };
    },
  };
}
