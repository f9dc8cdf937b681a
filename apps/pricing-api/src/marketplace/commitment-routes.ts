import type { Prisma } from "../db";
import type { Handlers } from "../operations";
import { closeCommitmentRate, listCommitmentRates, registerCommitmentRates } from "./commitment-service";

/** `/marketplace/providers/commitment-rates`: versioned commitment rates, and the internal listing the main API reads. */
export function commitmentRateHandlers(deps: {
  prisma: Prisma;
}): Handlers<"registerCommitmentRates" | "listCommitmentRates" | "closeCommitmentRate" | "listCommitmentRatesForAccount"> {
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
    listCommitmentRatesForAccount: async ({ params }) => ({
      status: 200,
      body: { entries: await listCommitmentRates(deps.prisma, params.accountId, {}), status: "OK" },
    }),
  };
}
