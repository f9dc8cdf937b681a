import { Router } from "express";
import type { AccountInfo } from "@cloudcost/contracts";
import { requireKeyRole } from "./middleware";

/** `GET /v1/pricing/account`: which account and key a request authenticates as (to check a key). */
export function accountRoutes(): Router {
  const router = Router();
  router.get("/", requireKeyRole("viewer"), (req, res) => {
    const body: AccountInfo = { account_id: req.auth!.accountId, key_id: req.auth!.keyId };
    res.json(body);
  });
  return router;
}
