import type { pricingModelRoutes } from "@cloudcost/contracts";
import type { Prisma } from "../db";
import type { Handlers } from "../operations";
import { closeModel, listModels, registerModels } from "./service";

/** `/marketplace/providers/models`: versioned custom token prices. */
export function modelHandlers(deps: { prisma: Prisma }): Handlers<keyof typeof pricingModelRoutes> {
  return {
    registerModels: async ({ body }, { account }) => ({
      status: 201,
      body: { entries: await registerModels(deps.prisma, account.accountId, body.entries), status: "Registered" },
    }),
    listModels: async ({ query }, { account }) => ({ status: 200, body: { entries: await listModels(deps.prisma, account.accountId, query), status: "OK" } }),
    closeModel: async ({ query }, { account }) => ({
      status: 200,
      body: { entries: [await closeModel(deps.prisma, account.accountId, query.id)], status: "Deleted" },
    }),
  };
}
