import type { pricingComputePriceRoutes } from "@cloudcost/contracts";
import type { Prisma } from "../db";
import type { Handlers } from "../operations";
import type { NegotiatedPriceCache } from "./negotiated";
import { closeComputePrice, listComputePrices, registerComputePrices } from "./service";

/** `/marketplace/providers/compute`: versioned negotiated compute prices; every change drops the account's cached entries. */
export function computePriceHandlers(deps: { prisma: Prisma; negotiated: NegotiatedPriceCache }): Handlers<keyof typeof pricingComputePriceRoutes> {
  return {
    registerComputePrices: async ({ body }, { account }) => {
      const entries = await registerComputePrices(deps.prisma, account.accountId, body.entries);
      await deps.negotiated.changed(account.accountId);
      return { status: 201, body: { entries, status: "Registered" } };
    },
    listComputePrices: async ({ query }, { account }) => ({
      status: 200,
      body: { entries: await listComputePrices(deps.prisma, account.accountId, query), status: "OK" },
    }),
    closeComputePrice: async ({ query }, { account }) => {
      const entry = await closeComputePrice(deps.prisma, account.accountId, query.id);
      await deps.negotiated.changed(account.accountId);
      return { status: 200, body: { entries: [entry], status: "Deleted" } };
    },
  };
}
