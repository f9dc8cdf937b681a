import type { pricingCommitmentRateRoutes } from "@cloudcost/contracts";
import type { Handlers } from "../operations";
import type { CommitmentRateService } from "./service";

/**
 * `/marketplace/providers/commitment-rates`: versioned commitment rates (the main API reads an
 * account's through internal/handlers.ts, over the same service, built once by app.ts).
 */
export function commitmentRateHandlers(rates: CommitmentRateService): Handlers<keyof typeof pricingCommitmentRateRoutes> {
  return {
    registerCommitmentRates: async ({ body }, { account }) => ({
      status: 201,
      body: { entries: await rates.registerCommitmentRates(account.accountId, body.entries), status: "Registered" },
    }),
    listCommitmentRates: async ({ query }, { account }) => ({
      status: 200,
      body: { entries: await rates.listCommitmentRates(account.accountId, query), status: "OK" },
    }),
    closeCommitmentRate: async ({ query }, { account }) => ({
      status: 200,
      body: { entries: [await rates.closeCommitmentRate(account.accountId, query.id)], status: "Deleted" },
    }),
  };
}
