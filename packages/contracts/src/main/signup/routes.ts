import { defineRoute, failure, ofCaller, ok } from "../declare.js";
import * as i from "./schemas.js";

/** `POST /api/v1/signup/complete`: an identity without an organization creates one. */
export const mainApiSignupRoutes = {
  completeSignup: defineRoute(
    ofCaller({
      operationId: "completeSignup",
      method: "post",
      path: "/api/v1/signup/complete",
      tags: ["Sign-up"],
      summary: "Create an organization, its default tenant and its owner for a verified identity",
      description: "Needs an identity-provider token (an API key is a 401); the identity need not belong to an organization.",
      auth: "identity",
      idempotent: true,
      body: i.SignupCompleteRequest,
      responses: {
        201: ok("Created", i.SignupCompleteResponse),
        409: failure("The identity already belongs to an organization, or the slug is taken"),
      },
    }),
  ),
} as const;
