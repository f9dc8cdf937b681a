import { Router } from "express";
import {
  DeleteByIdQuery,
  ModelListQuery,
  RegisterModelsRequest,
  type DeleteModelsResponse,
  type ListModelsResponse,
  type RegisterModelsResponse,
} from "@cloudcost/contracts";
import { parseOr400 } from "@cloudcost/http";
import { accountOf, requireKeyRole } from "../auth/middleware";
import type { Prisma } from "../db";
import { closeModel, listModels, registerModels } from "./model-service";

/** `/marketplace/providers/models`: versioned custom token prices. */
export function modelRoutes(deps: { prisma: Prisma }): Router {
  const router = Router();

  router.post("/", requireKeyRole("member"), async (req, res) => {
    const { entries } = parseOr400(RegisterModelsRequest, req.body, "model pricing entries");
    const body: RegisterModelsResponse = { entries: await registerModels(deps.prisma, accountOf(req), entries), status: "Registered" };
    res.status(201).json(body);
  });

  router.get("/", requireKeyRole("viewer"), async (req, res) => {
    const query = parseOr400(ModelListQuery, req.query, "query");
    const body: ListModelsResponse = { entries: await listModels(deps.prisma, accountOf(req), query), status: "OK" };
    res.json(body);
  });

  router.delete("/", requireKeyRole("admin"), async (req, res) => {
    const { id } = parseOr400(DeleteByIdQuery, req.query, "query");
    const body: DeleteModelsResponse = { entries: [await closeModel(deps.prisma, accountOf(req), id)], status: "Deleted" };
    res.json(body);
  });

  return router;
}
