import { Router } from "express";
import { principalOf } from "../auth/middleware";
import type { AppDeps } from "../deps";
import { sendData } from "../http/envelope";
import { describeCaller } from "./service";

/** `GET /api/v1/me`: who the caller is (how a client finds its organization id after sign-in). */
export function meRoutes(deps: AppDeps): Router {
  const router = Router();
  router.get("/", async (req, res) => {
    sendData(res, await describeCaller(deps.prisma, principalOf(req)), "The authenticated caller.");
  });
  return router;
}
