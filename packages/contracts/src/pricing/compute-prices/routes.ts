import { defineRoute, error, IdQuery, market } from "../declare.js";
import * as c from "./schemas.js";

/** `/marketplace/providers/compute`: versioned negotiated compute prices. */
export const pricingComputePriceRoutes = {
  registerComputePrices: defineRoute(
    market({
      operationId: "registerComputePrices",
      method: "post",
      path: "/marketplace/providers/compute",
      tags: ["Negotiated compute prices"],
      summary: "Register negotiated compute prices: fixed rates or discounts (versioned rows)",
      minKeyRole: "member",
      idempotent: true,
      body: c.RegisterComputePricesRequest,
      responses: { 201: { description: "Stored entries", schema: c.RegisterComputePricesResponse } },
    }),
  ),
  listComputePrices: defineRoute(
    market({
      operationId: "listComputePrices",
      method: "get",
      path: "/marketplace/providers/compute",
      tags: ["Negotiated compute prices"],
      summary: "List negotiated compute prices (open rows; include_closed=true for history)",
      minKeyRole: "viewer",
      query: c.ComputePricingListQuery,
      responses: { 200: { description: "Entries, newest first", schema: c.ListComputePricesResponse } },
    }),
  ),
  closeComputePrice: defineRoute(
    market({
      operationId: "closeComputePrice",
      method: "delete",
      path: "/marketplace/providers/compute",
      tags: ["Negotiated compute prices"],
      summary: "Close a negotiated compute price row",
      minKeyRole: "admin",
      query: IdQuery,
      responses: {
        200: { description: "The closed row", schema: c.DeleteComputePricesResponse },
        404: error("Unknown id, another account's id, or already closed"),
      },
    }),
  ),
} as const;
