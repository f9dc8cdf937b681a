import type { pricingDatabaseRoutes } from "@cloudcost/contracts";
import type { Prisma } from "../db";
import type { Handlers } from "../operations";
import { deleteDatabase, listDatabases, registerDatabases } from "./service";

/** `/marketplace/providers/databases`: custom managed-database rates, upserted on the natural key. */
export function databaseHandlers(deps: { prisma: Prisma }): Handlers<keyof typeof pricingDatabaseRoutes> {
  return {
    registerDatabases: async ({ body }, { account }) => ({
      status: 201,
      body: { entries: await registerDatabases(deps.prisma, account.accountId, body.entries), status: "Registered" },
    }),
    listDatabases: async ({ query }, { account }) => ({
      status: 200,
      body: { entries: await listDatabases(deps.prisma, account.accountId, query), status: "OK" },
    }),
    deleteDatabase: async ({ query }, { account }) => ({
      status: 200,
      body: { entries: [await deleteDatabase(deps.prisma, account.accountId, query.id)], status: "Deleted" },
    }),
  };
}
