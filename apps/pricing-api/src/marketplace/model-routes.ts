import { accountOf } from "../auth/middleware";
import type { Prisma } from "../db";
import type { Handlers } from "../operations";
import { closeModel, listModels, registerModels } from "./model-service";

/** `/marketplace/providers/models`: versioned custom token prices. */
export function modelHandlers(deps: { prisma: Prisma }): Handlers<"registerModels" | "listModels" | "closeModel"> {
  return {
    registerModels: async ({ body }, req) => ({
      status: 201,
      body: { entries: await registerModels(deps.prisma, accountOf(req), body.entries), status: "Registered" },
    }),
    listModels: async ({ query }, req) => ({ status: 200, body: { entries: await listModels(deps.prisma, accountOf(req), query), status: "OK" } }),
    closeModel: async ({ query }, req) => ({
      status: 200,
      body: { entries: [await closeModel(deps.prisma, accountOf(req), query.id)], status: "Deleted" },
    }),
  };
}
