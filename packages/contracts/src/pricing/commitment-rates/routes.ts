import { defineRoute, error, IdQuery, market } from "../declare.js";
import * as c from "./schemas.js";

/** `/marketplace/providers/commitment-rates`: versioned commitment rates. */
export const pricingCommitmentRateRoutes = {
  registerCommitmentRates: defineRoute(
    market({
      operationId: "registerCommitmentRates",
      method: "post",
      path: "/marketplace/providers/commitment-rates",
      tags: ["Commitment rates"],
      summary: "Register commitment rates (Savings Plans, Reserved Instances, committed use; versioned rows)",
      minKeyRole: "member",
      idempotent: true,
      body: c.RegisterCommitmentRatesRequest,
      responses: {
        201: { description: "Stored rates", schema: c.RegisterCommitmentRatesResponse },
        409: error("The batch would leave the account with more than 100 live commitment rates (code `limit_reached`); nothing stored"),
      },
    }),
  ),
  listCommitmentRates: defineRoute(
    market({
      operationId: "listCommitmentRates",
      method: "get",
      path: "/marketplace/providers/commitment-rates",
      tags: ["Commitment rates"],
      summary: "List commitment rates (open rows; include_closed=true for history)",
      minKeyRole: "viewer",
      query: c.CommitmentRateListQuery,
      responses: { 200: { description: "Rates, newest first", schema: c.ListCommitmentRatesResponse } },
    }),
  ),
  closeCommitmentRate: defineRoute(
    market({
      operationId: "closeCommitmentRate",
      method: "delete",
      path: "/marketplace/providers/commitment-rates",
      tags: ["Commitment rates"],
      summary: "Close a commitment rate row",
      minKeyRole: "admin",
      query: IdQuery,
      responses: {
        200: { description: "The closed row", schema: c.DeleteCommitmentRatesResponse },
        404: error("Unknown id, another account's id, or already closed"),
      },
    }),
  ),
} as const;
