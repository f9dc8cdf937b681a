import type { pricingCommitmentRateRoutes } from "@cloudcost/contracts";
import type { Prisma } from "../db";
import type { Handlers } from "../operations";
import { closeCommitmentRate, listCommitmentRates, registerCommitmentRates } from "./service";

/** `/marketplace/providers/commitment-rates`: versioned commitment rates (the main API reads an account's through internal/handlers.ts). */
export function commitmentRateHandlers(deps: { prisma: Prisma }): Handlers<keyof typeof pricingCommitmentRateRoutes> {
  return {
    registerCommitmentRates: async ({ body }, { account }) => ({
      status: 201,
      body: { entries: await registerCommitmentRates(deps.prisma, account.accountId, body.entries), status: "Registered" },
    }),
    listCommitmentRates: async ({ query }, { account }) => ({
      status: 200,
      body: { entries: await listCommitmentRates(deps.prisma, account.accountId, query), status: "OK" },
    }),
    closeCommitmentRate: async ({ query }, { account }) => ({
      status: 200,
      body: { entries: [await closeCommitmentRate(deps.prisma, account.accountId, query.id)], status: "Deleted" },
    }),
  };
}
