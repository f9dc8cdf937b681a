import type { mainApiUserRoutes } from "@cloudcost/contracts";
import type { AppDeps } from "../deps";
import { created, success } from "../http/envelope";
import { invitationService } from "../invitations/handlers";
import { INVITATION_SENT } from "../invitations/service";
import type { Handlers } from "../operations";
import { syncCreatorKeys } from "../api-keys/sync";
import { invitationRepository } from "../invitations/repository";
import { assertLiveTenants } from "../tenants/validate";
import { userRepository } from "./repository";
import { createUserService } from "./service";

/** `/api/v1/organizations/{org_id}/users`: authorize checks the table's roles; the services, the organization and what depends on data. */
export function userHandlers(deps: Pick<AppDeps, "prisma" | "outbox">): Handlers<keyof typeof mainApiUserRoutes> {
  const users = createUserService({
    prisma: deps.prisma,
    users: userRepository,
    tenants: { assertLiveTenants },
    keys: { syncCreatorKeys },
    invitations: invitationRepository,
  });
  const invitations = invitationService(deps.prisma);
  return {
    listUsers: async ({ query }, ctx) => success("Users of the organization.", await users.listUsers(ctx, query)),
    inviteUser: async ({ body }, ctx) => created(INVITATION_SENT, await invitations.createInvitation(ctx, body)),
    getUser: async ({ params }, ctx) => success("User found.", await users.getUser(ctx, params.id)),
    updateUser: async ({ params, body }, ctx) => {
      const updated = await users.updateUser(ctx, params.id, body);
      deps.outbox.kick(); // a change of role or active state re-synced the user's keys to the pricing API
      return success("User updated.", updated);
    },
  };
}
