import { Router, type Request } from "express";
import {
  ComputeBatchRequest,
  ComputePriceQuery,
  InstanceTypesQuery,
  type ComputeBatchResponse,
  type ComputeBatchResult,
  type InstanceTypesResponse,
} from "@cloudcost/contracts";
import { HttpError, parseOr400 } from "@cloudcost/http";
import { requireKeyRole } from "../auth/middleware";
import { problemDocument } from "../errors";
import type { ComputeCatalogStore } from "./catalog";
import { listInstanceTypes, priceCompute, priceComputeJson } from "./service";

function priceItem(req: Request, store: ComputeCatalogStore, index: number, item: unknown): ComputeBatchResult {
  try {
    return { index, price: priceCompute(store.current, parseOr400(ComputePriceQuery, item, `item ${index}`)) };
  } catch (err) {
    if (err instanceof HttpError) return { index, problem: problemDocument(req, err) };
    throw err;
  }
}

/** `/v1/pricing/compute`: answered from the in-process catalog, no database work per request. */
export function computeRoutes(store: ComputeCatalogStore): Router {
  const router = Router();

  router.post("/", requireKeyRole("viewer"), (req, res) => {
    const query = parseOr400(ComputePriceQuery, req.body, "compute price query");
    // Written directly rather than through res.send: a POST answer is never conditional, so
    // Express's ETag (a SHA-1 of the body, ~8 µs, measured) would be work for nothing here.
    res.setHeader("Content-Type", "application/json; charset=utf-8");
    res.end(priceComputeJson(store.current, query));
  });

  router.post("/batch", requireKeyRole("viewer"), (req, res) => {
    const { items } = parseOr400(ComputeBatchRequest, req.body, "batch: expected {items: [1 to 1000 objects]}");
    const body: ComputeBatchResponse = { results: items.map((item, index) => priceItem(req, store, index, item)) };
    res.json(body);
  });

  router.get("/instance-types", requireKeyRole("viewer"), (req, res) => {
    const query = parseOr400(InstanceTypesQuery, req.query, "instance types query");
    const body: InstanceTypesResponse = { instance_types: listInstanceTypes(store.current, query) };
    res.json(body);
  });

  return router;
}
