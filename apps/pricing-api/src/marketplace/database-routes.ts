import { accountOf } from "../auth/middleware";
import type { Prisma } from "../db";
import type { Handlers } from "../operations";
import { deleteDatabase, listDatabases, registerDatabases } from "./database-service";

/** `/marketplace/providers/databases`: custom managed-database rates, upserted on the natural key. */
export function databaseHandlers(deps: { prisma: Prisma }): Handlers<"registerDatabases" | "listDatabases" | "deleteDatabase"> {
  return {
    registerDatabases: async ({ body }, req) => ({
      status: 201,
      body: { entries: await registerDatabases(deps.prisma, accountOf(req), body.entries), status: "Registered" },
    }),
    listDatabases: async ({ query }, req) => ({
      status: 200,
      body: { entries: await listDatabases(deps.prisma, accountOf(req), query), status: "OK" },
    }),
    deleteDatabase: async ({ query }, req) => ({
      status: 200,
      body: { entries: [await deleteDatabase(deps.prisma, accountOf(req), query.id)], status: "Deleted" },
    }),
  };
}
