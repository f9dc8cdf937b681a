import type { mainApiMeRoutes } from "@cloudcost/contracts";
import type { AppDeps } from "../deps";
import { success } from "../http/envelope";
import type { Handlers } from "../operations";
import { syncCreatorKeys } from "../api-keys/sync";
import { invitationRepository } from "../invitations/repository";
import { createLeaveService } from "./leave";
import { createMeService } from "./service";
import { organizationRepository } from "../organizations/repository";
import { findUserWithTenantsOrThrow, userRepository } from "../users/repository";

/** `GET /api/v1/me`: who the caller is (how a client finds its organization id after sign-in); `POST /api/v1/me/leave`. */
export function meHandlers(deps: Pick<AppDeps, "prisma" | "outbox">): Handlers<keyof typeof mainApiMeRoutes> {
  const me = createMeService({ db: deps.prisma, organizations: organizationRepository, users: { findUserWithTenantsOrThrow } });
  const leaving = createLeaveService({ prisma: deps.prisma, users: userRepository, keys: { syncCreatorKeys }, invitations: invitationRepository });
  return {
    getMe: async (_input, { principal }) => success("The authenticated caller.", await me.describeCaller(principal)),
    leaveOrganization: async (_input, { principal }) => {
      const left = await leaving.leaveOrganization(principal);
      deps.outbox.kick(); // the caller's keys, suspended, reach the pricing API now
      return success("You left the organization: your user there is deactivated.", left);
    },
  };
}
