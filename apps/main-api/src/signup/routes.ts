import { Router } from "express";
import { SignupCompleteRequest } from "@cloudcost/contracts";
import { parseOr400, unauthenticated } from "@cloudcost/http";
import { authenticate } from "../auth/middleware";
import type { AppDeps } from "../deps";
import { sendData } from "../http/envelope";
import { idempotent } from "../http/idempotency";
import { completeSignup } from "./service";

export function signupRoutes(deps: AppDeps): Router {
  const router = Router();
  router.post("/complete", authenticate(deps), idempotent(deps, "identity"), async (req, res) => {
    if (!req.identity) throw unauthenticated("Sign-up needs an identity-provider token, not an API key.");
    const body = parseOr400(SignupCompleteRequest, req.body, "request body");
    const data = await completeSignup(deps.prisma, req.identity, body);
    sendData(res, data, "Sign-up completed: organization, default tenant and owner created.", 201);
  });
  return router;
}
