import { defineRoute, error, IdQuery, market } from "../declare.js";
import * as c from "./schemas.js";

/** `/marketplace/providers/databases`: custom managed-database rates. */
export const pricingDatabaseRoutes = {
  registerDatabases: defineRoute(
    market({
      operationId: "registerDatabases",
      method: "post",
      path: "/marketplace/providers/databases",
      tags: ["Database prices"],
      summary: "Register custom managed-database rates (upsert on the natural key)",
      minKeyRole: "member",
      idempotent: true,
      body: c.RegisterDatabasesRequest,
      responses: { 201: { description: "Stored entries", schema: c.RegisterDatabasesResponse } },
    }),
  ),
  listDatabases: defineRoute(
    market({
      operationId: "listDatabases",
      method: "get",
      path: "/marketplace/providers/databases",
      tags: ["Database prices"],
      summary: "List database prices",
      minKeyRole: "viewer",
      query: c.DatabaseListQuery,
      responses: { 200: { description: "Entries", schema: c.ListDatabasesResponse } },
    }),
  ),
  deleteDatabase: defineRoute(
    market({
      operationId: "deleteDatabase",
      method: "delete",
      path: "/marketplace/providers/databases",
      tags: ["Database prices"],
      summary: "Remove a database price",
      minKeyRole: "admin",
      query: IdQuery,
      responses: {
        200: { description: "The removed row", schema: c.DeleteDatabasesResponse },
        404: error("Unknown or another account's id"),
        409: error("A pin or a report still references the entry (code `conflict`)"),
      },
    }),
  ),
} as const;
