import type { pricingComputePriceRoutes } from "@cloudcost/contracts";
import type { Prisma } from "../db";
import type { Handlers } from "../operations";
import type { NegotiatedPriceCache } from "./negotiated";
import { computePriceRepository } from "./repository";
import { createComputePriceService } from "./service";

/** `/marketplace/providers/compute`: versioned negotiated compute prices; every change drops the account's cached entries. */
export function computePriceHandlers(deps: { prisma: Prisma; negotiated: NegotiatedPriceCache }): Handlers<keyof typeof pricingComputePriceRoutes> {
  const prices = createComputePriceService({ prisma: deps.prisma, prices: computePriceRepository });
  return {
    registerComputePrices: async ({ body }, { account }) => {
      const entries = await prices.registerComputePrices(account.accountId, body.entries);
      await deps.negotiated.changed(account.accountId);
      return { status: 201, body: { entries, status: "Registered" } };
    },
    listComputePrices: async ({ query }, { account }) => ({
      status: 200,
      body: { entries: await prices.listComputePrices(account.accountId, query), status: "OK" },
    }),
    closeComputePrice: async ({ query }, { account }) => {
      const entry = await prices.closeComputePrice(account.accountId, query.id);
      await deps.negotiated.changed(account.accountId);
      return { status: 200, body: { entries: [entry], status: "Deleted" } };
    },
  };
}
