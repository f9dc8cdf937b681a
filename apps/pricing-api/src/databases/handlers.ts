import type { pricingDatabaseRoutes } from "@cloudcost/contracts";
import type { Prisma } from "../db";
import type { Handlers } from "../operations";
import { databaseRepository } from "./repository";
import { createDatabaseService } from "./service";

/** `/marketplace/providers/databases`: custom managed-database rates, upserted on the natural key. */
export function databaseHandlers(deps: { prisma: Prisma }): Handlers<keyof typeof pricingDatabaseRoutes> {
  const databases = createDatabaseService({ prisma: deps.prisma, databases: databaseRepository });
  return {
    registerDatabases: async ({ body }, { account }) => ({
      status: 201,
      body: { entries: await databases.registerDatabases(account.accountId, body.entries), status: "Registered" },
    }),
    listDatabases: async ({ query }, { account }) => ({
      status: 200,
      body: { entries: await databases.listDatabases(account.accountId, query), status: "OK" },
    }),
    deleteDatabase: async ({ query }, { account }) => ({
      status: 200,
      body: { entries: [await databases.deleteDatabase(account.accountId, query.id)], status: "Deleted" },
    }),
  };
}
