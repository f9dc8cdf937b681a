import { Router } from "express";
import { UsageRequest, type UsageResponse } from "@cloudcost/contracts";
import { parseOr400 } from "@cloudcost/http";
import { accountOf, requireKeyRole } from "../auth/middleware";
import type { Prisma } from "../db";
import { priceUsage } from "./pricer";

/** `POST /v1/pricing/usage`: prices usage lines without storing them. */
export function usageRoutes(deps: { prisma: Prisma; labelPrefix: string }): Router {
  const router = Router();
  router.post("/", requireKeyRole("viewer"), async (req, res) => {
    const { usage } = parseOr400(UsageRequest, req.body, "usage");
    const { lines, totals } = await priceUsage(deps.prisma, accountOf(req), usage, { labelPrefix: deps.labelPrefix });
    const body: UsageResponse = { lines, totals };
    res.json(body);
  });
  return router;
}
