import type { mainApiInvitationRoutes } from "@cloudcost/contracts";
import { lockCreatorRow, lockKeyRow } from "../api-keys/repository";
import { syncCreatorKeys } from "../api-keys/sync";
import type { Prisma } from "../db";
import type { AppDeps } from "../deps";
import { created, success } from "../http/envelope";
import type { Handlers } from "../operations";
import { liveTenantIds } from "../tenants/repository";
import { assertLiveTenants } from "../tenants/validate";
import {
  clearUserTenants,
  deleteIdentity,
  findIdentityLink,
  findUserByEmail,
  findUserWithTenantsOrThrow,
  insertIdentity,
  insertUser,
  updateUserProfile,
} from "../users/repository";
import { createInviteeService } from "./invitee-service";
import { invitationRepository } from "./repository";
import { createInvitationService, INVITATION_SENT, type InvitationService } from "./service";

/** The organization's invitation service over its repositories (also what users/handlers.ts invites through). */
export function invitationService(prisma: Prisma): InvitationService {
  return createInvitationService({
    prisma,
    invitations: invitationRepository,
    keys: { lockKeyRow, lockCreatorRow },
    users: { findUserByEmail },
    tenants: { assertLiveTenants },
  });
}

/**
 * Invitations: the organization's (`/api/v1/organizations/{org_id}/invitations`: owners and admins,
 * authorize checks the table's roles and the organization) and the caller's own (`/api/v1/invitations`:
 * an identity without an organization may call them; the table closes them to API keys).
 */
export function invitationHandlers(deps: Pick<AppDeps, "prisma" | "outbox">): Handlers<keyof typeof mainApiInvitationRoutes> {
  const invitations = invitationService(deps.prisma);
  const received = createInviteeService({
    prisma: deps.prisma,
    invitations: invitationRepository,
    users: {
      findIdentityLink,
      deleteIdentity,
      insertIdentity,
      findUserByEmail,
      insertUser,
      updateUserProfile,
      clearUserTenants,
      findUserWithTenantsOrThrow,
    },
    tenants: { liveTenantIds },
    keys: { syncCreatorKeys },
  });
  return {
    listInvitations: async ({ query }, ctx) => success("Invitations of the organization.", await invitations.listInvitations(ctx, query)),
    createInvitation: async ({ body }, ctx) => created(INVITATION_SENT, await invitations.createInvitation(ctx, body)),
    revokeInvitation: async ({ params }, ctx) => {
      await invitations.revokeInvitation(ctx, params.id);
      return { status: 204 };
    },
    listReceivedInvitations: async ({ query }, { identity }) =>
      success("Pending invitations for your verified e-mail address.", await received.listReceivedInvitations(identity, query)),
    acceptInvitation: async ({ params }, { identity }) => {
      const user = await received.acceptInvitation(identity, params.id);
      deps.outbox.kick(); // a returning user's keys are re-synced to the pricing API
      return success("Invitation accepted: you are now a user of the organization.", user);
    },
    declineInvitation: async ({ params }, { identity }) => {
      await received.declineInvitation(identity, params.id);
      return { status: 204 };
    },
  };
}
