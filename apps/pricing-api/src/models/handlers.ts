import type { pricingModelRoutes } from "@cloudcost/contracts";
import type { Prisma } from "../db";
import type { Handlers } from "../operations";
import { modelRepository } from "./repository";
import { createModelService } from "./service";

/** `/marketplace/providers/models`: versioned custom token prices. */
export function modelHandlers(deps: { prisma: Prisma }): Handlers<keyof typeof pricingModelRoutes> {
  const models = createModelService({ prisma: deps.prisma, models: modelRepository });
  return {
    registerModels: async ({ body }, { account }) => ({
      status: 201,
      body: { entries: await models.registerModels(account.accountId, body.entries), status: "Registered" },
    }),
    listModels: async ({ query }, { account }) => ({ status: 200, body: { entries: await models.listModels(account.accountId, query), status: "OK" } }),
    closeModel: async ({ query }, { account }) => ({
      status: 200,
      body: { entries: [await models.closeModel(account.accountId, query.id)], status: "Deleted" },
    }),
  };
}
