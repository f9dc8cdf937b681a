import type { AppDeps } from "../deps";
import { created, success } from "../http/envelope";
import { createInvitation, INVITATION_SENT } from "../invitations/service";
import type { Handlers } from "../operations";
import { getUser, listUsers, updateUser } from "./service";

/** `/api/v1/organizations/{org_id}/users`: authorize checks the table's roles; the services, the organization and what depends on data. */
export function userHandlers(deps: Pick<AppDeps, "prisma" | "outbox">): Handlers<"listUsers" | "inviteUser" | "getUser" | "updateUser"> {
  return {
    listUsers: async ({ params, query }, { principal }) => success("Users of the organization.", await listUsers(deps.prisma, principal, params.org_id, query)),
    inviteUser: async ({ params, body }, { principal }) => created(INVITATION_SENT, await createInvitation(deps.prisma, principal, params.org_id, body)),
    getUser: async ({ params }, { principal }) => success("User found.", await getUser(deps.prisma, principal, params.org_id, params.id)),
    updateUser: async ({ params, body }, { principal }) => {
      const updated = await updateUser(deps.prisma, principal, params.org_id, params.id, body);
      deps.outbox.kick(); // a change of role or active state re-synced the user's keys to the pricing API
      return success("User updated.", updated);
    },
  };
}
