import type { pricingUsageRoutes } from "@cloudcost/contracts";
import type { Prisma } from "../db";
import type { Handlers } from "../operations";
import { priceUsage } from "./pricer";

/** `POST /v1/pricing/usage`: prices usage lines without storing them. */
export function usageHandlers(deps: { prisma: Prisma; labelPrefix: string }): Handlers<keyof typeof pricingUsageRoutes> {
  return {
    priceUsage: async ({ body }, { account }) => {
      const { lines, totals } = await priceUsage(deps.prisma, account.accountId, body.usage, { labelPrefix: deps.labelPrefix });
      return { status: 200, body: { lines, totals } };
    },
  };
}
