import { unauthenticated } from "@cloudcost/http";
import type { mainApiSignupRoutes } from "@cloudcost/contracts";
import type { AppDeps } from "../deps";
import { created } from "../http/envelope";
import type { Handlers } from "../operations";
import { signupRepository } from "./repository";
import { createSignupService } from "./service";

/** `POST /api/v1/signup/complete`: an identity-provider identity without an organization creates one. */
export function signupHandlers(deps: Pick<AppDeps, "prisma">): Handlers<keyof typeof mainApiSignupRoutes> {
  const signup = createSignupService({ prisma: deps.prisma, signups: signupRepository });
  return {
    completeSignup: async ({ body }, { identity }) => {
      if (!identity) throw unauthenticated("Sign-up needs an identity-provider token, not an API key.");
      const data = await signup.completeSignup(identity, body);
      return created("Sign-up completed: organization, default tenant and owner created.", data);
    },
  };
}
