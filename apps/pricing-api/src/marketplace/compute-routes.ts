import { accountOf } from "../auth/middleware";
import type { Prisma } from "../db";
import type { Handlers } from "../operations";
import type { NegotiatedPriceCache } from "./compute-negotiated";
import { closeComputePrice, listComputePrices, registerComputePrices } from "./compute-service";

/** `/marketplace/providers/compute`: versioned negotiated compute prices; every change drops the account's cached entries. */
export function computePriceHandlers(deps: {
  prisma: Prisma;
  negotiated: NegotiatedPriceCache;
}): Handlers<"registerComputePrices" | "listComputePrices" | "closeComputePrice"> {
  return {
    registerComputePrices: async ({ body }, req) => {
      const account = accountOf(req);
      const entries = await registerComputePrices(deps.prisma, account, body.entries);
      await deps.negotiated.changed(account);
      return { status: 201, body: { entries, status: "Registered" } };
    },
    listComputePrices: async ({ query }, req) => ({
      status: 200,
      body: { entries: await listComputePrices(deps.prisma, accountOf(req), query), status: "OK" },
    }),
    closeComputePrice: async ({ query }, req) => {
      const account = accountOf(req);
      const entry = await closeComputePrice(deps.prisma, account, query.id);
      await deps.negotiated.changed(account);
      return { status: 200, body: { entries: [entry], status: "Deleted" } };
    },
  };
}
