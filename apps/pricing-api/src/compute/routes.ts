import type { Request } from "express";
import { ComputePriceQuery, type ComputeBatchResult } from "@cloudcost/contracts";
import { HttpError, parseOr400 } from "@cloudcost/http";
import { problemDocument } from "../errors";
import type { Handlers } from "../operations";
import type { ComputeCatalogStore } from "./catalog";
import { listInstanceTypes, priceCompute, priceComputeJson } from "./service";

/** Each batch item is validated on its own: an invalid one gets its problem, the others their price. */
function priceItem(req: Request, store: ComputeCatalogStore, index: number, item: unknown): ComputeBatchResult {
  try {
    return { index, price: priceCompute(store.current, parseOr400(ComputePriceQuery, item, `item ${index}`)) };
  } catch (err) {
    if (err instanceof HttpError) return { index, problem: problemDocument(req, err) };
    throw err;
  }
}

/** `/v1/pricing/compute`: answered from the in-process catalog, no database work per request. */
export function computeHandlers(store: ComputeCatalogStore): Handlers<"priceCompute" | "priceComputeBatch" | "listInstanceTypes"> {
  return {
    priceCompute: ({ body }, _req, res) => {
      // Written directly rather than through res.send: a POST answer is never conditional, so
      // Express's ETag (a SHA-1 of the body) would be work for nothing here (docs/performance.md,
      // "Request handling on the hot path").
      res.setHeader("Content-Type", "application/json; charset=utf-8");
      res.end(priceComputeJson(store.current, body));
    },
    priceComputeBatch: ({ body }, req) => ({
      status: 200,
      body: { results: body.items.map((item, index) => priceItem(req, store, index, item)) },
    }),
    listInstanceTypes: ({ query }) => ({ status: 200, body: { instance_types: listInstanceTypes(store.current, query) } }),
  };
}
