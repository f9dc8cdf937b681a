import { defineRoute, error, IdQuery, market } from "../declare.js";
import * as c from "./schemas.js";

/** `/marketplace/providers/models`: versioned custom token prices. */
export const pricingModelRoutes = {
  registerModels: defineRoute(
    market({
      operationId: "registerModels",
      method: "post",
      path: "/marketplace/providers/models",
      tags: ["Model prices"],
      summary: "Register custom model token prices (versioned rows)",
      minKeyRole: "member",
      idempotent: true,
      body: c.RegisterModelsRequest,
      responses: { 201: { description: "Stored entries", schema: c.RegisterModelsResponse } },
    }),
  ),
  listModels: defineRoute(
    market({
      operationId: "listModels",
      method: "get",
      path: "/marketplace/providers/models",
      tags: ["Model prices"],
      summary: "List model prices (open rows; include_closed=true for history)",
      minKeyRole: "viewer",
      query: c.ModelListQuery,
      responses: { 200: { description: "Entries, newest first", schema: c.ListModelsResponse } },
    }),
  ),
  closeModel: defineRoute(
    market({
      operationId: "closeModel",
      method: "delete",
      path: "/marketplace/providers/models",
      tags: ["Model prices"],
      summary: "Close a model price row",
      minKeyRole: "admin",
      query: IdQuery,
      responses: {
        200: { description: "The closed row", schema: c.DeleteModelsResponse },
        404: error("Unknown id, another account's id, or already closed"),
      },
    }),
  ),
} as const;
