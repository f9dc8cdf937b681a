import { Router } from "express";
import {
  DatabaseListQuery,
  DeleteByIdQuery,
  RegisterDatabasesRequest,
  type DeleteDatabasesResponse,
  type ListDatabasesResponse,
  type RegisterDatabasesResponse,
} from "@cloudcost/contracts";
import { parseOr400 } from "@cloudcost/http";
import { accountOf, requireKeyRole } from "../auth/middleware";
import type { Prisma } from "../db";
import { deleteDatabase, listDatabases, registerDatabases } from "./database-service";

/** `/marketplace/providers/databases`: custom managed-database rates, upserted on the natural key. */
export function databaseRoutes(deps: { prisma: Prisma }): Router {
  const router = Router();

  router.post("/", requireKeyRole("member"), async (req, res) => {
    const { entries } = parseOr400(RegisterDatabasesRequest, req.body, "database pricing entries");
    const body: RegisterDatabasesResponse = {
      entries: await registerDatabases(deps.prisma, accountOf(req), entries),
      status: "Registered",
    };
    res.status(201).json(body);
  });

  router.get("/", requireKeyRole("viewer"), async (req, res) => {
    const query = parseOr400(DatabaseListQuery, req.query, "query");
    const body: ListDatabasesResponse = { entries: await listDatabases(deps.prisma, accountOf(req), query), status: "OK" };
    res.json(body);
  });

  router.delete("/", requireKeyRole("admin"), async (req, res) => {
    const { id } = parseOr400(DeleteByIdQuery, req.query, "query");
    const body: DeleteDatabasesResponse = { entries: [await deleteDatabase(deps.prisma, accountOf(req), id)], status: "Deleted" };
    res.json(body);
  });

  return router;
}
