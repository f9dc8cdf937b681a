import { Router } from "express";
import { principalOf } from "../auth/middleware";
import type { AppDeps } from "../deps";
import { sendData } from "../http/envelope";
import { leaveOrganization } from "./leave";
import { describeCaller } from "./service";

/** `GET /api/v1/me`: who the caller is (how a client finds its organization id after sign-in); `POST /api/v1/me/leave`. */
export function meRoutes(deps: AppDeps): Router {
  const router = Router();
  router.get("/", async (req, res) => {
    sendData(res, await describeCaller(deps.prisma, principalOf(req)), "The authenticated caller.");
  });
  router.post("/leave", async (req, res) => {
    const left = await leaveOrganization(deps.prisma, principalOf(req));
    deps.outbox.kick(); // the caller's keys, suspended, reach the pricing API now
    sendData(res, left, "You left the organization: your user there is deactivated.");
  });
  return router;
}
